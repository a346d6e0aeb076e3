// SPDX-License-Identifier: Apache-2.0
// Non-tensor bulk operations of seed 004: cp.async.bulk (four directions, multicast, .cp_mask),
// cp.reduce.async.bulk (the whole redOp x type table, against a scalar reference written
// here), cp.async.bulk.prefetch, and the size / alignment errors.
#include "tma/bulk_copy.h"

#include <cmath>
#include <cstring>
#include <set>
#include <tuple>

#include <gtest/gtest.h>

#include "tma/memory.h"

namespace tma::model {
namespace {

constexpr uint64_t kG = 0x10000;  // a global buffer base

uint8_t Pat(uint64_t i) {
  return static_cast<uint8_t>((i * 37 + 11) & 0xff);
}

void FillGlobal(SparseGlobalMemory& g, uint64_t base, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    uint8_t b = Pat(i);
    g.Write(base + i, &b, 1);
  }
}

std::vector<uint8_t> ReadG(SparseGlobalMemory& g, uint64_t a, size_t n) {
  std::vector<uint8_t> v(n);
  EXPECT_TRUE(g.Read(a, v.data(), n));
  return v;
}

// ---- cp.async.bulk ------------------------------------------------------------------------

TEST(BulkCopy, GlobalToSharedCta) {
  SparseGlobalMemory g;
  ClusterSharedMemory s(2, 1024, 0xA5);
  FillGlobal(g, kG, 64);
  BulkCopyInstr in;
  in.dir = BulkDir::kGlobalToSharedCta;
  in.dst = 0x100;
  in.src = kG + 16;
  in.size = 48;
  in.mbar_addr = 0x8;
  in.issuer_cta = 1;
  BulkResult r = ExecuteBulkCopy(in, g, s);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  for (int i = 0; i < 48; ++i) {
    EXPECT_EQ(s.Window(1)[0x100 + i], Pat(16 + i));
  }
  EXPECT_EQ(s.Window(1)[0xFF], 0xA5);
  EXPECT_EQ(s.Window(1)[0x130], 0xA5);
  EXPECT_EQ(s.Window(0)[0x100], 0xA5);  // only the executing CTA
  ASSERT_EQ(r.complete_tx.size(), 1u);
  EXPECT_EQ(r.complete_tx[0], (CompleteTx{1, 0x8, 48}));
  EXPECT_FALSE(r.bulk_group);
}

TEST(BulkCopy, GlobalToSharedCtaMustBeExecutingCta) {
  SparseGlobalMemory g;
  ClusterSharedMemory s(2, 1024);
  BulkCopyInstr in;
  in.dir = BulkDir::kGlobalToSharedCta;
  in.size = 16;
  in.dst_cta = 1;
  in.issuer_cta = 0;
  BulkResult r = ExecuteBulkCopy(in, g, s);
  EXPECT_EQ(r.status.cls, ErrorClass::kInvalidInstruction);
  EXPECT_EQ(r.status.field, "dstMem");
}

TEST(BulkCopy, GlobalToRemoteSharedCluster) {
  SparseGlobalMemory g;
  ClusterSharedMemory s(4, 512, 0);
  FillGlobal(g, kG, 32);
  BulkCopyInstr in;
  in.dir = BulkDir::kGlobalToSharedCluster;
  in.dst = 0x40;
  in.src = kG;
  in.size = 32;
  in.mbar_addr = 0x10;
  in.issuer_cta = 0;
  in.dst_cta = 3;
  BulkResult r = ExecuteBulkCopy(in, g, s);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(s.Window(3)[0x40], Pat(0));
  EXPECT_EQ(s.Window(3)[0x5F], Pat(31));
  EXPECT_EQ(s.Window(0)[0x40], 0);
  ASSERT_EQ(r.complete_tx.size(), 1u);
  EXPECT_EQ(r.complete_tx[0], (CompleteTx{3, 0x10, 32}));
}

TEST(BulkCopy, MulticastIssuerNotInMask) {
  SparseGlobalMemory g;
  ClusterSharedMemory s(4, 256, 0xEE);
  FillGlobal(g, kG, 16);
  BulkCopyInstr in;
  in.dir = BulkDir::kGlobalToSharedCluster;
  in.multicast = true;
  in.cta_mask = 0b1010;  // CTAs 1 and 3; the issuer (0) is not in the mask
  in.dst = 0x20;
  in.src = kG;
  in.size = 16;
  in.mbar_addr = 0x0;
  in.issuer_cta = 0;
  BulkResult r = ExecuteBulkCopy(in, g, s);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  for (int c : {1, 3}) {
    for (int i = 0; i < 16; ++i) {
      EXPECT_EQ(s.Window(c)[0x20 + i], Pat(i)) << "cta " << c;
    }
  }
  for (int c : {0, 2}) {
    for (uint8_t b : s.Window(c)) {
      ASSERT_EQ(b, 0xEE) << "cta " << c << " must be untouched";
    }
  }
  ASSERT_EQ(r.complete_tx.size(), 2u);  // full size to each destination (silicon D10)
  EXPECT_EQ(r.complete_tx[0], (CompleteTx{1, 0, 16}));
  EXPECT_EQ(r.complete_tx[1], (CompleteTx{3, 0, 16}));
}

TEST(BulkCopy, MulticastMaskBeyondCluster) {
  SparseGlobalMemory g;
  ClusterSharedMemory s(2, 256);
  BulkCopyInstr in;
  in.dir = BulkDir::kGlobalToSharedCluster;
  in.multicast = true;
  in.cta_mask = 0b100;
  in.size = 16;
  BulkResult r = ExecuteBulkCopy(in, g, s);
  EXPECT_EQ(r.status.cls, ErrorClass::kInvalidInstruction);
  EXPECT_EQ(r.status.field, "ctaMask");
}

TEST(BulkCopy, MulticastOnlyOnGlobalToCluster) {
  SparseGlobalMemory g;
  ClusterSharedMemory s(2, 256);
  BulkCopyInstr in;
  in.dir = BulkDir::kGlobalToSharedCta;
  in.multicast = true;
  in.cta_mask = 1;
  in.size = 16;
  BulkResult r = ExecuteBulkCopy(in, g, s);
  EXPECT_EQ(r.status.cls, ErrorClass::kInvalidInstruction);
  EXPECT_EQ(r.status.field, ".multicast::cluster");
}

TEST(BulkCopy, SharedCtaToSharedClusterSignalsDestination) {
  SparseGlobalMemory g;
  ClusterSharedMemory s(2, 256, 0);
  for (int i = 0; i < 32; ++i) {
    s.Window(0)[0x80 + i] = static_cast<uint8_t>(i + 1);
  }
  BulkCopyInstr in;
  in.dir = BulkDir::kSharedCtaToSharedCluster;
  in.src = 0x80;
  in.dst = 0x10;
  in.size = 32;
  in.mbar_addr = 0x8;
  in.issuer_cta = 0;
  in.dst_cta = 1;
  BulkResult r = ExecuteBulkCopy(in, g, s);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(s.Window(1)[0x10], 1);
  EXPECT_EQ(s.Window(1)[0x2F], 32);
  ASSERT_EQ(r.complete_tx.size(), 1u);
  EXPECT_EQ(r.complete_tx[0], (CompleteTx{1, 0x8, 32}));  // the destination CTA's barrier

  in.dst_cta = 0;  // strictly remote: the executing CTA is not allowed
  r = ExecuteBulkCopy(in, g, s);
  EXPECT_EQ(r.status.cls, ErrorClass::kInvalidInstruction);
  EXPECT_EQ(r.status.field, "dstMem");
  in.dst_cta = -1;  // -1 = the issuer: also local
  EXPECT_EQ(ExecuteBulkCopy(in, g, s).status.field, "dstMem");
  in.dst_cta = 1;
  in.cache_policy = 0x123;  // no .global side: .L2::cache_hint not allowed
  EXPECT_EQ(ExecuteBulkCopy(in, g, s).status.field, ".L2::cache_hint");
}

TEST(BulkCopy, SharedCtaToGlobal) {
  SparseGlobalMemory g(0x5A);
  ClusterSharedMemory s(1, 256, 0);
  for (int i = 0; i < 32; ++i) {
    s.Window(0)[i] = static_cast<uint8_t>(0xC0 + i);
  }
  BulkCopyInstr in;
  in.dir = BulkDir::kSharedCtaToGlobal;
  in.src = 0;
  in.dst = kG + 32;
  in.size = 32;
  BulkResult r = ExecuteBulkCopy(in, g, s);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_TRUE(r.bulk_group);
  EXPECT_TRUE(r.complete_tx.empty());
  std::vector<uint8_t> got = ReadG(g, kG + 16, 64);
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(got[i], 0x5A);
    EXPECT_EQ(got[48 + i], 0x5A);
  }
  for (int i = 0; i < 32; ++i) {
    EXPECT_EQ(got[16 + i], 0xC0 + i);
  }
}

TEST(BulkCopy, CpMaskWritesSelectedBytesOfEveryChunk) {
  SparseGlobalMemory g(0x11);
  ClusterSharedMemory s(1, 256, 0);
  for (int i = 0; i < 48; ++i) {
    s.Window(0)[0x40 + i] = static_cast<uint8_t>(0x80 + i);
  }
  BulkCopyInstr in;
  in.dir = BulkDir::kSharedCtaToGlobal;
  in.src = 0x40;
  in.dst = kG;
  in.size = 48;
  in.byte_mask = 0x8421 | 0x0300;  // bits 0, 5, 8, 9, 10, 15
  BulkResult r = ExecuteBulkCopy(in, g, s);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  std::set<int> copied = {0, 5, 8, 9, 10, 15};
  std::vector<uint8_t> got = ReadG(g, kG, 48);
  for (int i = 0; i < 48; ++i) {
    const bool c = copied.count(i % 16) != 0;
    EXPECT_EQ(got[i], c ? 0x80 + i : 0x11) << "byte " << i;
  }
  // All-zero mask copies nothing; all-ones copies everything.
  SparseGlobalMemory g2(0x22);
  in.byte_mask = 0;
  ASSERT_TRUE(ExecuteBulkCopy(in, g2, s).status.ok());
  for (uint8_t b : ReadG(g2, kG, 48)) {
    EXPECT_EQ(b, 0x22);
  }
  in.byte_mask = 0xFFFF;
  ASSERT_TRUE(ExecuteBulkCopy(in, g2, s).status.ok());
  std::vector<uint8_t> all = ReadG(g2, kG, 48);
  for (int i = 0; i < 48; ++i) {
    EXPECT_EQ(all[i], 0x80 + i);
  }
}

TEST(BulkCopy, CpMaskOnlyOnStores) {
  SparseGlobalMemory g;
  ClusterSharedMemory s(1, 256);
  BulkCopyInstr in;
  in.dir = BulkDir::kGlobalToSharedCta;
  in.size = 16;
  in.byte_mask = 0xFF;
  EXPECT_EQ(ExecuteBulkCopy(in, g, s).status.field, ".cp_mask");
}

TEST(BulkCopy, SizeAndAlignmentErrors) {
  SparseGlobalMemory g(0x33);
  ClusterSharedMemory s(1, 256, 0x44);
  BulkCopyInstr in;
  in.dir = BulkDir::kGlobalToSharedCta;
  in.src = kG;
  in.dst = 0;
  in.size = 24;
  // Silicon B1: size & ~15 = 16 bytes move and complete; the PTX reading is an option.
  BulkResult r = ExecuteBulkCopy(in, g, s);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.complete_tx.size(), 1u);
  EXPECT_EQ(r.complete_tx[0].bytes, 16u);
  EXPECT_EQ(s.Window(0)[15], 0x33);
  EXPECT_EQ(s.Window(0)[16], 0x44);
  in.ptx_size_check = true;
  r = ExecuteBulkCopy(in, g, s);
  EXPECT_EQ(r.status.cls, ErrorClass::kInvalidInstruction);
  EXPECT_EQ(r.status.field, "size");
  in.ptx_size_check = false;
  for (int i = 0; i < 16; ++i) {
    s.Write(0, static_cast<uint32_t>(i), std::vector<uint8_t>{0x44}.data(), 1);
  }
  in.size = 32;
  in.dst = 8;
  r = ExecuteBulkCopy(in, g, s);
  EXPECT_EQ(r.status.cls, ErrorClass::kMisaligned);
  EXPECT_EQ(r.status.field, "dstMem");
  in.dst = 0;
  in.src = kG + 4;
  r = ExecuteBulkCopy(in, g, s);
  EXPECT_EQ(r.status.cls, ErrorClass::kMisaligned);
  EXPECT_EQ(r.status.field, "srcMem");
  in.src = kG;
  in.mbar_addr = 4;
  r = ExecuteBulkCopy(in, g, s);
  EXPECT_EQ(r.status.cls, ErrorClass::kMisaligned);
  EXPECT_EQ(r.status.field, "mbar");
  in.mbar_addr = 0;
  in.dst = 240;  // 240 + 32 > 256: outside the window, nothing written
  r = ExecuteBulkCopy(in, g, s);
  EXPECT_EQ(r.status.cls, ErrorClass::kBusError);
  EXPECT_EQ(r.status.field, "dstMem");
  for (uint8_t b : s.Window(0)) {
    ASSERT_EQ(b, 0x44);
  }
  // A global bus error on the source.
  g.AddErrorRange(kG, kG + 16);
  in.dst = 0;
  r = ExecuteBulkCopy(in, g, s);
  EXPECT_EQ(r.status.cls, ErrorClass::kBusError);
  EXPECT_EQ(r.status.field, "srcMem");
}

TEST(BulkPrefetch, ChecksOnly) {
  BulkPrefetchInstr p;
  p.src = kG;
  p.size = 4096;
  BulkResult r = ExecuteBulkPrefetch(p);
  EXPECT_TRUE(r.status.ok());
  EXPECT_TRUE(r.complete_tx.empty());
  p.size = 8;  // silicon B1: no trap (nothing to prefetch)
  EXPECT_TRUE(ExecuteBulkPrefetch(p).status.ok());
  p.ptx_size_check = true;
  EXPECT_EQ(ExecuteBulkPrefetch(p).status.field, "size");
  p.ptx_size_check = false;
  p.size = 16;
  p.src = kG + 1;
  EXPECT_EQ(ExecuteBulkPrefetch(p).status.cls, ErrorClass::kMisaligned);
}

// ---- cp.reduce.async.bulk: scalar reference -----------------------------------------------

// Round a finite double to a binary format with `mant` fraction bits and minimum normal
// exponent `emin`, round-to-nearest-even, with subnormals and overflow to infinity.
uint64_t RoundTo(double v, int mant, int emin, int exp_bits) {
  const uint64_t sign = std::signbit(v) ? uint64_t{1} << (mant + exp_bits) : 0;
  const int bias = (1 << (exp_bits - 1)) - 1;
  const uint64_t inf = ((uint64_t{1} << exp_bits) - 1) << mant;
  double a = std::fabs(v);
  if (a == 0) {
    return sign;
  }
  int e = 0;
  std::frexp(a, &e);
  int ex = std::max(e - 1, emin);
  double q = std::ldexp(1.0, ex - mant);
  double r = std::nearbyint(a / q) * q;  // exact scaling, RNE
  if (r == 0) {
    return sign;
  }
  std::frexp(r, &e);
  ex = e - 1;
  if (ex > bias) {
    return sign | inf;
  }
  if (ex < emin) {
    return sign | static_cast<uint64_t>(r / std::ldexp(1.0, emin - mant));
  }
  uint64_t frac = static_cast<uint64_t>(r / std::ldexp(1.0, ex - mant)) - (uint64_t{1} << mant);
  return sign | (static_cast<uint64_t>(ex + bias) << mant) | frac;
}

double FromBits(uint64_t b, int mant, int exp_bits) {
  const int bias = (1 << (exp_bits - 1)) - 1;
  const bool neg = (b >> (mant + exp_bits)) & 1;
  const int e = static_cast<int>((b >> mant) & ((1u << exp_bits) - 1));
  const uint64_t f = b & ((uint64_t{1} << mant) - 1);
  double v = e == 0 ? std::ldexp(static_cast<double>(f), 1 - bias - mant)
                    : std::ldexp(static_cast<double>(f + (uint64_t{1} << mant)), e - bias - mant);
  return neg ? -v : v;
}

bool IsNanBits(uint64_t b, int mant, int exp_bits) {
  return ((b >> mant) & ((1u << exp_bits) - 1)) == (1u << exp_bits) - 1;
}

uint64_t RefHalf(RedOp op, uint64_t d, uint64_t s, int mant, int exp_bits) {
  const int emin = 2 - (1 << (exp_bits - 1));
  const double x = FromBits(d, mant, exp_bits);
  const double y = FromBits(s, mant, exp_bits);
  if (op == RedOp::kAdd) {
    return RoundTo(x + y, mant, emin, exp_bits);  // the sum of two halves is exact in double
  }
  if (x == y) {  // equal values: -0 orders below +0
    const uint64_t sb = uint64_t{1} << (mant + exp_bits);
    const bool dneg = (d & sb) != 0;
    return (op == RedOp::kMin) == dneg ? d : s;
  }
  return (op == RedOp::kMin) == (x < y) ? d : s;
}

float F32(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
uint32_t U32(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
uint32_t Ftz(uint32_t b) {
  return (b & 0x7f800000u) == 0 ? (b & 0x80000000u) : b;
}

template <typename U, typename S>
U RefInt(RedOp op, U d, U s, bool is_signed) {
  switch (op) {
    case RedOp::kAdd:
      return static_cast<U>(d + s);
    case RedOp::kMin:
      return is_signed ? (static_cast<S>(d) <= static_cast<S>(s) ? d : s) : (d <= s ? d : s);
    case RedOp::kMax:
      return is_signed ? (static_cast<S>(d) >= static_cast<S>(s) ? d : s) : (d >= s ? d : s);
    case RedOp::kInc:
      return d >= s ? 0 : static_cast<U>(d + 1);
    case RedOp::kDec:
      return (d == 0 || d > s) ? s : static_cast<U>(d - 1);
    case RedOp::kAnd:
      return d & s;
    case RedOp::kOr:
      return d | s;
    case RedOp::kXor:
      return d ^ s;
  }
  return d;
}

// The reference result of one element, as little-endian bits.
uint64_t RefElement(RedOp op, BulkType t, uint64_t d, uint64_t s) {
  switch (t) {
    case BulkType::kB32:
    case BulkType::kU32:
      return RefInt<uint32_t, int32_t>(op, static_cast<uint32_t>(d), static_cast<uint32_t>(s),
                                       false);
    case BulkType::kS32:
      return RefInt<uint32_t, int32_t>(op, static_cast<uint32_t>(d), static_cast<uint32_t>(s),
                                       true);
    case BulkType::kB64:
    case BulkType::kU64:
      return RefInt<uint64_t, int64_t>(op, d, s, false);
    case BulkType::kS64:
      return RefInt<uint64_t, int64_t>(op, d, s, true);
    case BulkType::kF16:
      return RefHalf(op, d, s, 10, 5);
    case BulkType::kBF16:
      return RefHalf(op, d, s, 7, 8);
    case BulkType::kF32:  // add only: flush inputs and result (seed 004 line 334)
      return Ftz(U32(F32(Ftz(static_cast<uint32_t>(d))) + F32(Ftz(static_cast<uint32_t>(s)))));
    case BulkType::kF64: {
      double x, y;
      std::memcpy(&x, &d, 8);
      std::memcpy(&y, &s, 8);
      double z = x + y;
      uint64_t b;
      std::memcpy(&b, &z, 8);
      return b;
    }
  }
  return 0;
}

// Deterministic operands; float types avoid NaN / infinity encodings and include subnormals.
uint64_t Operand(BulkType t, uint64_t i, uint64_t salt) {
  uint64_t z = (i + 1) * 0x9E3779B97F4A7C15ull ^ salt;
  z ^= z >> 29;
  z *= 0xBF58476D1CE4E5B9ull;
  z ^= z >> 32;
  switch (t) {
    case BulkType::kF16: {
      uint64_t b = z & 0xffff;
      if (IsNanBits(b, 10, 5)) {
        b &= 0x83ff;  // make it a subnormal
      }
      return b;
    }
    case BulkType::kBF16: {
      uint64_t b = z & 0xffff;
      if (IsNanBits(b, 7, 8)) {
        b &= 0x807f;
      }
      return b;
    }
    case BulkType::kF32: {
      uint64_t b = z & 0xffffffffu;
      if (IsNanBits(b, 23, 8) || (i % 5 == 0)) {
        b &= 0x807fffffu;  // subnormal (or zero)
      }
      return b;
    }
    case BulkType::kF64: {
      // Keep exponents moderate so sums stay finite and interesting.
      uint64_t b = (z & 0x800fffffffffffffull) | (uint64_t{0x3f0 + (z >> 52) % 32} << 52);
      return b;
    }
    case BulkType::kU32:
    case BulkType::kS32:
    case BulkType::kB32:
      // Small values sometimes, so inc/dec and min/max exercise both branches.
      return (i % 3 == 0) ? (z % 7) : (z & 0xffffffffu);
    default:
      return (i % 3 == 0) ? (z % 7) : z;
  }
}

struct TableEntry {
  BulkDir dir;
  RedOp op;
  BulkType type;
  bool noftz;
};

// Seed 004 lines 340-349 (plus .noftz for f16/bf16 add, lines 293-303 and 335).
std::vector<TableEntry> SeedTable() {
  using B = BulkType;
  using R = RedOp;
  const BulkDir sc = BulkDir::kSharedCtaToSharedCluster;
  const BulkDir gl = BulkDir::kSharedCtaToGlobal;
  std::vector<TableEntry> t;
  for (B b : {B::kU32, B::kS32, B::kU64}) {
    t.push_back({sc, R::kAdd, b, false});
  }
  for (R r : {R::kMin, R::kMax}) {
    for (B b : {B::kU32, B::kS32}) {
      t.push_back({sc, r, b, false});
    }
  }
  for (R r : {R::kInc, R::kDec}) {
    t.push_back({sc, r, B::kU32, false});
    t.push_back({gl, r, B::kU32, false});
  }
  for (R r : {R::kAnd, R::kOr, R::kXor}) {
    t.push_back({sc, r, B::kB32, false});
    t.push_back({gl, r, B::kB32, false});
    t.push_back({gl, r, B::kB64, false});
  }
  for (B b : {B::kU32, B::kS32, B::kU64, B::kF32, B::kF64}) {
    t.push_back({gl, R::kAdd, b, false});
  }
  t.push_back({gl, R::kAdd, B::kF16, true});
  t.push_back({gl, R::kAdd, B::kBF16, true});
  for (R r : {R::kMin, R::kMax}) {
    for (B b : {B::kU32, B::kS32, B::kU64, B::kS64, B::kF16, B::kBF16}) {
      t.push_back({gl, r, b, false});
    }
  }
  return t;
}

TEST(BulkReduce, TableIsExactlyTheSeedTable) {
  std::set<std::tuple<int, int, int, bool>> legal;
  for (const TableEntry& e : SeedTable()) {
    legal.insert(
        {static_cast<int>(e.dir), static_cast<int>(e.op), static_cast<int>(e.type), e.noftz});
  }
  EXPECT_EQ(legal.size(), 39u);  // 3+4+2+3 shared::cluster, 7+12+2+6 global, counted by hand
  int checked = 0;
  for (BulkDir d : {BulkDir::kSharedCtaToSharedCluster, BulkDir::kSharedCtaToGlobal}) {
    for (int op = 0; op < 8; ++op) {
      for (int t = 0; t < kNumBulkTypes; ++t) {
        for (bool nf : {false, true}) {
          const bool want = legal.count({static_cast<int>(d), op, t, nf}) != 0;
          Status s = BulkReduceSupported(d, static_cast<RedOp>(op), static_cast<BulkType>(t), nf);
          EXPECT_EQ(s.ok(), want) << ToString(d) << " " << ToString(static_cast<RedOp>(op)) << " "
                                  << ToString(static_cast<BulkType>(t)) << " noftz=" << nf << ": "
                                  << s.ToString();
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, 2 * 8 * 10 * 2);
}

TEST(BulkReduce, ErrorClassesOfIllegalPairs) {
  Status s = BulkReduceSupported(BulkDir::kSharedCtaToGlobal, RedOp::kXor, BulkType::kS32, false);
  EXPECT_EQ(s.cls, ErrorClass::kUnsupportedReduction);
  EXPECT_EQ(s.field, "redOp.type");
  s = BulkReduceSupported(BulkDir::kSharedCtaToGlobal, RedOp::kAdd, BulkType::kF16, false);
  EXPECT_EQ(s.cls, ErrorClass::kInvalidInstruction);
  EXPECT_EQ(s.field, ".noftz");
  s = BulkReduceSupported(BulkDir::kSharedCtaToGlobal, RedOp::kMin, BulkType::kF16, true);
  EXPECT_EQ(s.field, ".noftz");
  s = BulkReduceSupported(BulkDir::kSharedCtaToSharedCluster, RedOp::kAdd, BulkType::kF32, false);
  EXPECT_EQ(s.cls, ErrorClass::kUnsupportedReduction);
  s = BulkReduceSupported(BulkDir::kGlobalToSharedCta, RedOp::kAdd, BulkType::kU32, false);
  EXPECT_EQ(s.field, ".dst");
}

TEST(BulkReduce, EveryTableEntryMatchesScalarReference) {
  constexpr uint32_t kBytes = 256;
  int entries = 0;
  for (const TableEntry& e : SeedTable()) {
    SCOPED_TRACE(std::string(ToString(e.dir)) + " ." + ToString(e.op) + "." + ToString(e.type));
    const int eb = BulkTypeBytes(e.type);
    SparseGlobalMemory g;
    ClusterSharedMemory s(2, 1024, 0);
    std::vector<uint64_t> dv, sv;
    for (uint32_t i = 0; i < kBytes / eb; ++i) {
      dv.push_back(Operand(e.type, i, 0x1234));
      sv.push_back(Operand(e.type, i, 0xABCD0000));
      std::memcpy(s.Window(0).data() + 0x100 + i * eb, &sv.back(), eb);
      if (e.dir == BulkDir::kSharedCtaToGlobal) {
        ASSERT_TRUE(g.Write(kG + i * eb, reinterpret_cast<const uint8_t*>(&dv.back()), eb));
      } else {
        std::memcpy(s.Window(1).data() + 0x200 + i * eb, &dv.back(), eb);
      }
    }
    BulkReduceInstr in;
    in.dir = e.dir;
    in.redop = e.op;
    in.type = e.type;
    in.noftz = e.noftz;
    in.src = 0x100;
    in.size = kBytes;
    in.issuer_cta = 0;
    in.mbar_addr = 0x18;
    if (e.dir == BulkDir::kSharedCtaToGlobal) {
      in.dst = kG;
    } else {
      in.dst = 0x200;
      in.dst_cta = 1;
    }
    BulkResult r = ExecuteBulkReduce(in, g, s);
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();
    if (e.dir == BulkDir::kSharedCtaToGlobal) {
      EXPECT_TRUE(r.bulk_group);
      EXPECT_TRUE(r.complete_tx.empty());
    } else {
      ASSERT_EQ(r.complete_tx.size(), 1u);
      EXPECT_EQ(r.complete_tx[0], (CompleteTx{1, 0x18, kBytes}));
    }
    for (uint32_t i = 0; i < kBytes / eb; ++i) {
      uint64_t got = 0;
      if (e.dir == BulkDir::kSharedCtaToGlobal) {
        ASSERT_TRUE(g.Read(kG + i * eb, reinterpret_cast<uint8_t*>(&got), eb));
      } else {
        std::memcpy(&got, s.Window(1).data() + 0x200 + i * eb, eb);
      }
      const uint64_t want = RefElement(e.op, e.type, dv[i], sv[i]);
      ASSERT_EQ(got, want) << "element " << i << " dst=0x" << std::hex << dv[i] << " src=0x"
                           << sv[i];
    }
    ++entries;
  }
  EXPECT_EQ(entries, 39);
}

// Hand-computed values for the float rules of seed 004 lines 333-336.
TEST(BulkReduce, FloatHandValues) {
  struct Case {
    RedOp op;
    BulkType t;
    bool noftz;
    uint64_t d, s, want;
  };
  const Case cases[] = {
      // f32 add flushes subnormal inputs and results to sign-preserving zero.
      {RedOp::kAdd, BulkType::kF32, false, 0x00000100, 0x00000200, 0x00000000},
      {RedOp::kAdd, BulkType::kF32, false, 0x80000010, 0x80000001, 0x80000000},
      {RedOp::kAdd, BulkType::kF32, false, 0x3f800000, 0x00400000, 0x3f800000},  // 1 + sub = 1
      {RedOp::kAdd, BulkType::kF32, false, 0x3f800000, 0x3f800000, 0x40000000},  // 1 + 1 = 2
      // f16 .noftz keeps subnormals: 0x0001 + 0x0001 = 0x0002.
      {RedOp::kAdd, BulkType::kF16, true, 0x0001, 0x0001, 0x0002},
      {RedOp::kAdd, BulkType::kF16, true, 0x3c00, 0x3c00, 0x4000},  // 1 + 1 = 2
      // 2048 + 1 in f16: a tie between 2048 and 2050, to even -> 2048 (0x6800).
      {RedOp::kAdd, BulkType::kF16, true, 0x6800, 0x3c00, 0x6800},
      // bf16 1 + 2^-8: tie between 1 and 1+2^-7 -> even (1.0 = 0x3f80).
      {RedOp::kAdd, BulkType::kBF16, true, 0x3f80, 0x3b80, 0x3f80},
      {RedOp::kAdd, BulkType::kBF16, true, 0x0001, 0x0001, 0x0002},  // subnormals kept
      // f16 min with one NaN returns the other operand (silicon, tensor-semantics §9).
      {RedOp::kMin, BulkType::kF16, false, 0x7e00, 0x3c00, 0x3c00},
      {RedOp::kMax, BulkType::kF16, false, 0xbc00, 0x3c00, 0x3c00},
      // f64 add: 1 + 2^-53 ties to even -> 1.
      {RedOp::kAdd, BulkType::kF64, false, 0x3ff0000000000000ull, 0x3ca0000000000000ull,
       0x3ff0000000000000ull},
  };
  for (const Case& c : cases) {
    SparseGlobalMemory g;
    ClusterSharedMemory s(1, 256, 0);
    const int eb = BulkTypeBytes(c.t);
    for (int k = 0; k < 16 / eb; ++k) {
      std::memcpy(s.Window(0).data() + k * eb, &c.s, eb);
      ASSERT_TRUE(g.Write(kG + k * eb, reinterpret_cast<const uint8_t*>(&c.d), eb));
    }
    BulkReduceInstr in;
    in.dir = BulkDir::kSharedCtaToGlobal;
    in.redop = c.op;
    in.type = c.t;
    in.noftz = c.noftz;
    in.dst = kG;
    in.src = 0;
    in.size = 16;
    ASSERT_TRUE(ExecuteBulkReduce(in, g, s).status.ok());
    uint64_t got = 0;
    ASSERT_TRUE(g.Read(kG + 16 - eb, reinterpret_cast<uint8_t*>(&got), eb));
    EXPECT_EQ(got, c.want) << ToString(c.op) << "." << ToString(c.t) << std::hex << " d=0x" << c.d
                           << " s=0x" << c.s;
  }
}

TEST(BulkReduce, SizeAlignmentAndHintErrors) {
  SparseGlobalMemory g;
  ClusterSharedMemory s(2, 256, 0);
  BulkReduceInstr in;
  in.dir = BulkDir::kSharedCtaToGlobal;
  in.redop = RedOp::kAdd;
  in.type = BulkType::kU32;
  in.dst = kG;
  in.size = 20;
  in.ptx_size_check = true;
  EXPECT_EQ(ExecuteBulkReduce(in, g, s).status.field, "size");
  in.ptx_size_check = false;
  in.size = 16;
  in.src = 4;
  EXPECT_EQ(ExecuteBulkReduce(in, g, s).status.field, "srcMem");
  in.src = 0;
  in.dst = kG + 8;
  EXPECT_EQ(ExecuteBulkReduce(in, g, s).status.cls, ErrorClass::kMisaligned);
  in.dir = BulkDir::kSharedCtaToSharedCluster;
  in.dst = 0x40;
  in.dst_cta = 1;
  in.cache_policy = 7;
  EXPECT_EQ(ExecuteBulkReduce(in, g, s).status.field, ".L2::cache_hint");
  in.cache_policy.reset();
  in.mbar_addr = 12;
  EXPECT_EQ(ExecuteBulkReduce(in, g, s).status.field, "mbar");
}

}  // namespace
}  // namespace tma::model
