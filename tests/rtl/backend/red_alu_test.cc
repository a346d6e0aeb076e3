// SPDX-License-Identifier: Apache-2.0
//
// Unit test of the reduction ALU (tma_red_alu, with tma_red_int, tma_red_fadd, tma_red_atop)
// against the C++ model's ReduceElement (cmodel/src/reduce.cc, bit-exact against silicon):
//   every output beat's byte i is the model's reduction of the element holding it where the
//   beat's mask sets byte i and the pair executes, else the old byte; mask and user field pass
//   unchanged; beats leave in order.
// Stimulus: every redOp x type pair the model executes (33) and a set that it does not, beats
// of random pairs with per-element masks, operands drawn with a high share of the cases where
// adders go wrong: zeros of both signs, infinities, NaNs with random payloads, subnormals
// (smallest, largest, random), the smallest and largest normals, exact cancellation (s = -d),
// near cancellation (a few ulps apart), exact ties (s = half an ulp of d, or an odd multiple),
// every exponent distance up to past the guard bits, sums that overflow; integers at 0, 1,
// the extremes, equal and adjacent values (inc/dec wrap points). Random idle cycles on the
// input, random backpressure on the output. DataBytes 16, 64 and 128 (the widest bus: 16 8-byte
// slots, 80 kept copies of the stage enable).
// The comparison can fail: hand vectors (from IEEE 754 and PTX, not from the code under test)
// check the reference, and deliberately wrong references (ties away from zero, no flush for
// f32.ftz, dec without its wrap) must each be caught by the same stimulus. The pair table of
// tma_red_atop is checked against the model's ReductionSupported and a hand table of AXI5
// AtomicStore encodings (AMBA AXI5, AWATOP).

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "tma/reduce.h"
#include "tma/types.h"

#include "Vtma_red_alu_db128.h"
#include "Vtma_red_alu_db16.h"
#include "Vtma_red_alu_db64.h"
#include "Vtma_red_atop.h"
#include "sim/autogen/tma_structs.h"
#include "verilated_dut.h"

namespace tma::tb {
namespace {

using model::DType;
using model::RedOp;

struct Pair {
  RedOp op;
  DType t;
};

constexpr std::array<RedOp, 8> kOps = {RedOp::kAdd, RedOp::kMin, RedOp::kMax, RedOp::kInc,
                                       RedOp::kDec, RedOp::kAnd, RedOp::kOr,  RedOp::kXor};

std::vector<Pair> ExecutingPairs() {
  std::vector<Pair> v;
  for (RedOp op : kOps) {
    for (int t = 0; t < model::kNumDTypes; ++t) {
      if (model::ReductionSupported(op, static_cast<DType>(t))) {
        v.push_back({op, static_cast<DType>(t)});
      }
    }
  }
  return v;
}

// Pairs silicon faults on (F5) and others the model does not execute: the ALU returns old data.
std::vector<Pair> OtherPairs() {
  return {{RedOp::kAdd, DType::kS64}, {RedOp::kAdd, DType::kU8},    {RedOp::kAdd, DType::kU16},
          {RedOp::kMin, DType::kF32}, {RedOp::kMax, DType::kF64},   {RedOp::kInc, DType::kS32},
          {RedOp::kDec, DType::kU64}, {RedOp::kAnd, DType::kS64},   {RedOp::kXor, DType::kU8},
          {RedOp::kOr, DType::kF16},  {RedOp::kAdd, DType::kB4x16}, {RedOp::kMax, DType::kF32Ftz}};
}

// ---- Operand generation ----
struct Fmt {
  int ew, mw;  // exponent and fraction bits
};

bool FloatFmt(DType t, Fmt* f) {
  if (!model::IsFloat(t)) {
    return false;
  }
  *f = t == DType::kF16    ? Fmt{5, 10}
       : t == DType::kBF16 ? Fmt{8, 7}
       : t == DType::kF64  ? Fmt{11, 52}
                           : Fmt{8, 23};  // f32, f32.ftz, tf32, tf32.ftz
  return true;
}

class OperandGen {
 public:
  explicit OperandGen(uint32_t seed) : rng_(seed) {}

  uint64_t Bits(int n) {
    const uint64_t r = rng_();
    return n >= 64 ? r : (r & ((uint64_t{1} << n) - 1));
  }
  int Uni(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool Chance(int pct) { return Uni(0, 99) < pct; }

  static uint64_t Pack(const Fmt& f, uint64_t s, uint64_t e, uint64_t m) {
    return (s << (f.ew + f.mw)) | (e << f.mw) | (m & ((uint64_t{1} << f.mw) - 1));
  }

  uint64_t Float(const Fmt& f) {
    const uint64_t emax = (uint64_t{1} << f.ew) - 1;
    const uint64_t bias = emax >> 1;
    const uint64_t s = Bits(1);
    switch (Uni(0, 11)) {
      case 0:
        return Pack(f, s, 0, 0);  // +-0
      case 1:
        return Pack(f, s, emax, 0);  // +-inf
      case 2:
        return Pack(f, s, emax, Bits(f.mw) | 1);  // NaN, random payload
      case 3:
        return Pack(f, s, 0, Bits(f.mw) | 1);  // subnormal
      case 4: {
        const uint64_t m[] = {1, (uint64_t{1} << f.mw) - 1, 0};  // min / max subnormal, min normal
        const int k = Uni(0, 2);
        return Pack(f, s, k == 2 ? 1 : 0, m[k]);
      }
      case 5:
        return Pack(f, s, emax - 1 - Bits(1), Bits(f.mw) | (Chance(50) ? ~uint64_t{0} : 0));
      case 6:
        return Pack(f, s, 1 + Bits(f.ew) % (emax - 1), Bits(f.mw));  // any normal
      default:  // normals near 1.0, where most adds interact
        return Pack(f, s, bias - 4 + Uni(0, 8), Bits(f.mw));
    }
  }

  // s related to d so that the sum cancels, ties or sits at a chosen exponent distance.
  uint64_t FloatPartner(const Fmt& f, uint64_t d) {
    const uint64_t emax = (uint64_t{1} << f.ew) - 1;
    const uint64_t sign = d >> (f.ew + f.mw) & 1;
    const uint64_t e = d >> f.mw & emax;
    const uint64_t m = d & ((uint64_t{1} << f.mw) - 1);
    if (e == emax) {
      return Float(f);
    }
    switch (Uni(0, 6)) {
      case 0:
        return d ^ (uint64_t{1} << (f.ew + f.mw));  // -d: exact cancellation
      case 1:
        return d;  // d + d: doubling (may overflow)
      case 2: {    // a few ulps from -d: near cancellation, long normalisation
        const uint64_t mag = (d & ~(uint64_t{1} << (f.ew + f.mw))) + Uni(-3, 3);
        return ((sign ^ 1) << (f.ew + f.mw)) | (mag & ((uint64_t{1} << (f.ew + f.mw)) - 1));
      }
      case 3: {  // half an ulp of d (exact tie) or an odd multiple of a quarter / eighth ulp
        const int k = Uni(1, 3);
        const int64_t es = static_cast<int64_t>(e == 0 ? 1 : e) - f.mw - k;
        if (es < 1) {
          return Float(f);
        }
        const uint64_t mm = k == 1 ? 0 : (Bits(k - 1) << (f.mw - k + 1));
        return Pack(f, Bits(1), static_cast<uint64_t>(es), mm);
      }
      default: {  // any exponent distance 0 .. past the guard bits, random fraction
        const int64_t es = static_cast<int64_t>(e) - Uni(0, f.mw + 5);
        if (es < 0) {
          return Pack(f, Bits(1), 0, Bits(f.mw));
        }
        return Pack(f, Bits(1), static_cast<uint64_t>(es), Chance(30) ? m : Bits(f.mw));
      }
    }
  }

  uint64_t Int(int bytes) {
    const int bits = bytes * 8;
    const uint64_t all = bits >= 64 ? ~uint64_t{0} : ((uint64_t{1} << bits) - 1);
    switch (Uni(0, 7)) {
      case 0:
        return 0;
      case 1:
        return 1;
      case 2:
        return all;  // max unsigned, -1 signed
      case 3:
        return all >> 1;  // max signed
      case 4:
        return (all >> 1) + 1;  // min signed
      case 5:
        return Bits(4);  // small
      default:
        return Bits(bits);
    }
  }

  uint64_t IntPartner(int bytes, uint64_t d) {
    const int bits = bytes * 8;
    const uint64_t all = bits >= 64 ? ~uint64_t{0} : ((uint64_t{1} << bits) - 1);
    switch (Uni(0, 4)) {
      case 0:
        return d;
      case 1:
        return (d + 1) & all;
      case 2:
        return (d - 1) & all;
      default:
        return Int(bytes);
    }
  }

  // One element pair (old, new) of type t, little-endian into d and s.
  void Element(DType t, uint8_t* d, uint8_t* s) {
    const int n = model::ElementBytes(t);
    Fmt f{};
    uint64_t a = 0;
    uint64_t b = 0;
    if (FloatFmt(t, &f)) {
      a = Float(f);
      b = Chance(45) ? FloatPartner(f, a) : Float(f);
      if (Chance(50)) {
        std::swap(a, b);
      }
    } else {
      a = Int(n);
      b = Chance(40) ? IntPartner(n, a) : Int(n);
    }
    std::memcpy(d, &a, n);
    std::memcpy(s, &b, n);
  }

  std::mt19937_64& rng() { return rng_; }

 private:
  std::mt19937_64 rng_;
};

// ---- The reference: ReduceElement per masked element, or a deliberately wrong variant ----
using ElemRef = std::function<void(RedOp, DType, uint8_t*, const uint8_t*)>;

void ModelRef(RedOp op, DType t, uint8_t* d, const uint8_t* s) {
  model::ReduceElement(op, t, d, s);
}

struct Beat {
  RedOp op = RedOp::kAdd;
  DType t = DType::kU32;
  std::vector<uint8_t> old_b, new_b, exp;
  std::vector<uint8_t> mask;  // 1: byte i takes part (one entry per byte of the beat)
  uint32_t user = 0;
};

void Expect(const ElemRef& ref, Beat* b, int db) {
  b->exp = b->old_b;
  const int n = model::ElementBytes(b->t);
  for (int k = 0; k < db; k += n) {
    if (b->mask[k] != 0) {
      ref(b->op, b->t, &b->exp[k], &b->new_b[k]);
    }
  }
}

// ---- Verilated bench over one DataBytes ----
void SetWide(uint32_t* words, const std::vector<uint8_t>& bytes) {
  for (size_t w = 0; w < bytes.size() / 4; ++w) {
    uint32_t v = 0;
    std::memcpy(&v, &bytes[4 * w], 4);
    words[w] = v;
  }
}

// A byte mask port: an integer up to DataBytes 64, a VlWide at 128 (bit i = byte i).
template <class Port>
void SetMask(Port* port, const std::vector<uint8_t>& m) {
  if constexpr (std::is_integral_v<Port>) {
    uint64_t v = 0;
    for (size_t i = 0; i < m.size(); ++i) {
      v |= static_cast<uint64_t>(m[i] != 0) << i;
    }
    *port = static_cast<Port>(v);
  } else {
    for (size_t w = 0; w < m.size() / 32; ++w) {
      uint32_t v = 0;
      for (size_t i = 0; i < 32; ++i) {
        v |= static_cast<uint32_t>(m[32 * w + i] != 0) << i;
      }
      (*port)[w] = v;
    }
  }
}

template <class Port>
std::vector<uint8_t> GetMask(const Port& port, int db) {
  std::vector<uint8_t> m(db);
  for (int i = 0; i < db; ++i) {
    if constexpr (std::is_integral_v<Port>) {
      m[i] = static_cast<uint8_t>(static_cast<uint64_t>(port) >> i & 1);
    } else {
      m[i] = static_cast<uint8_t>(port[i / 32] >> (i % 32) & 1);
    }
  }
  return m;
}

struct RunStats {
  uint64_t beats = 0;
  uint64_t elements = 0;    // masked elements of executing pairs compared
  uint64_t mismatches = 0;  // beats that differ
  std::string first;        // the first mismatch, one line
  std::map<std::string, uint64_t> per_pair;
  bool assert_error = false;
};

std::string Hex(const std::vector<uint8_t>& v) {
  static const char* kD = "0123456789abcdef";
  std::string s;
  for (size_t i = v.size(); i-- > 0;) {
    s += kD[v[i] >> 4];
    s += kD[v[i] & 15];
  }
  return s;
}

template <class Model>
RunStats RunAlu(int db, uint32_t seed, uint64_t nbeats, const std::vector<Pair>& pairs,
                const ElemRef& ref, int valid_pct, int ready_pct) {
  VerilatedDut<Model> dut(seed);
  OperandGen gen(seed * 7919u + 13u);
  RunStats st;
  std::deque<Beat> inflight;
  Beat cur;
  bool have = false;
  uint64_t sent = 0;
  uint32_t user = 0;
  dut->in_valid_i = 0;
  dut->out_ready_i = 0;
  dut.Reset();
  uint64_t idle = 0;
  while (st.beats < nbeats && idle < 1000) {
    // A new beat when the last one went (held stable otherwise).
    if (!have && sent < nbeats && gen.Chance(valid_pct)) {
      const Pair& p = pairs[gen.Uni(0, static_cast<int>(pairs.size()) - 1)];
      cur.op = p.op;
      cur.t = p.t;
      cur.old_b.assign(db, 0);
      cur.new_b.assign(db, 0);
      const int n = model::ElementBytes(p.t);
      cur.mask.assign(db, 0);
      const int mask_mode = gen.Uni(0, 9);  // mostly all, some random, some none
      for (int k = 0; k < db; k += n) {
        gen.Element(p.t, &cur.old_b[k], &cur.new_b[k]);
        const bool on = mask_mode < 6 || (mask_mode < 9 && gen.Chance(50));
        for (int i = 0; i < n; ++i) {
          cur.mask[k + i] = on ? 1 : 0;
        }
      }
      cur.user = user++;
      Expect(ref, &cur, db);
      have = true;
    }
    dut->in_valid_i = have;
    if (have) {
      dut->in_redop_i = static_cast<uint8_t>(cur.op);
      dut->in_elem_i = static_cast<uint8_t>(cur.t);
      SetWide(dut->in_old_i.data(), cur.old_b);
      SetWide(dut->in_new_i.data(), cur.new_b);
      SetMask(&dut->in_mask_i, cur.mask);
      dut->in_user_i = cur.user;
    }
    dut->out_ready_i = gen.Chance(ready_pct);
    dut.Settle();
    const bool in_hs = have && dut->in_ready_o;
    if (dut->out_valid_o && dut->out_ready_i) {
      idle = 0;
      std::vector<uint8_t> got(db);
      for (int w = 0; w < db / 4; ++w) {
        const uint32_t v = dut->out_data_o[w];
        std::memcpy(&got[4 * w], &v, 4);
      }
      if (inflight.empty()) {
        ++st.mismatches;
        if (st.first.empty()) {
          st.first = "output beat without input";
        }
      } else {
        const Beat& e = inflight.front();
        const bool ok =
            got == e.exp && GetMask(dut->out_mask_o, db) == e.mask && dut->out_user_o == e.user;
        if (!ok) {
          ++st.mismatches;
          if (st.first.empty()) {
            st.first = std::string(".") + model::ToString(e.op) + "." + model::ToString(e.t) +
                       " user " + std::to_string(e.user) + "\n old " + Hex(e.old_b) + "\n new " +
                       Hex(e.new_b) + "\n exp " + Hex(e.exp) + "\n got " + Hex(got);
          }
        }
        if (model::ReductionSupported(e.op, e.t)) {
          const int n = model::ElementBytes(e.t);
          for (int k = 0; k < db; k += n) {
            st.elements += e.mask[k];
          }
        }
        ++st.per_pair[std::string(model::ToString(e.op)) + "." + model::ToString(e.t)];
        inflight.pop_front();
        ++st.beats;
      }
    } else {
      ++idle;
    }
    dut.Cycle();
    if (in_hs) {
      inflight.push_back(cur);
      have = false;
      ++sent;
    }
  }
  st.assert_error = dut.GotError();
  return st;
}

// ---- Hand vectors: the reference (the model) against values derived by hand ----
struct Hand {
  RedOp op;
  DType t;
  uint64_t d, s, r;
};

TEST(RedAlu, ReferenceMatchesHandVectors) {
  const Hand v[] = {
      // f16: 1 + 1 = 2; 1 + 2^-11 is a tie with an even 1.0 (stays), 1+2^-10 + 2^-11 ties up
      {RedOp::kAdd, DType::kF16, 0x3C00, 0x3C00, 0x4000},
      {RedOp::kAdd, DType::kF16, 0x3C00, 0x1000, 0x3C00},
      {RedOp::kAdd, DType::kF16, 0x3C01, 0x1000, 0x3C02},
      // f16: max + max = inf; smallest subnormals add exactly; inf + -inf = canonical NaN
      {RedOp::kAdd, DType::kF16, 0x7BFF, 0x7BFF, 0x7C00},
      {RedOp::kAdd, DType::kF16, 0x0001, 0x0001, 0x0002},
      {RedOp::kAdd, DType::kF16, 0x7C00, 0xFC00, 0x7FFF},
      // x + (-x) = +0; -0 + -0 = -0
      {RedOp::kAdd, DType::kBF16, 0xC0A0, 0x40A0, 0x0000},
      {RedOp::kAdd, DType::kBF16, 0x8000, 0x8000, 0x8000},
      // bf16 1 + 2^-8 ties to even (1.0)
      {RedOp::kAdd, DType::kBF16, 0x3F80, 0x3B80, 0x3F80},
      // f32: 1 + 2^-24 ties to 1; subnormal 1 + 1 ulp = 2 ulps; with .ftz both flush to +0
      {RedOp::kAdd, DType::kF32, 0x3F800000, 0x33800000, 0x3F800000},
      {RedOp::kAdd, DType::kF32, 0x00000001, 0x00000001, 0x00000002},
      {RedOp::kAdd, DType::kF32Ftz, 0x00000001, 0x00000001, 0x00000000},
      {RedOp::kAdd, DType::kTF32Ftz, 0x80000001, 0x80000001, 0x80000000},
      // tf32 add is a full f32 add: 1 + 2^-23 keeps its low bit
      {RedOp::kAdd, DType::kTF32, 0x3F800000, 0x34000000, 0x3F800001},
      // f32.ftz: min normal - (min normal + ulp) = -ulp, subnormal: flushed to -0
      {RedOp::kAdd, DType::kF32Ftz, 0x00800000, 0x80800001, 0x80000000},
      {RedOp::kAdd, DType::kF32, 0x00800000, 0x80800001, 0x80000001},
      // f64: 1 + 2 = 3; NaN in -> canonical NaN
      {RedOp::kAdd, DType::kF64, 0x3FF0000000000000, 0x4000000000000000, 0x4008000000000000},
      {RedOp::kAdd, DType::kF64, 0xFFF0000000000001, 0x3FF0000000000000, 0x7FFFFFFFFFFFFFFF},
      // f16/bf16 min/max: NaN yields the other operand; -0 < +0
      {RedOp::kMin, DType::kBF16, 0x7FC1, 0x3F80, 0x3F80},
      {RedOp::kMax, DType::kF16, 0x3C00, 0xFE00, 0x3C00},
      {RedOp::kMin, DType::kF16, 0x0000, 0x8000, 0x8000},
      {RedOp::kMax, DType::kF16, 0x8000, 0x0000, 0x0000},
      {RedOp::kMin, DType::kF16, 0xC000, 0x3C00, 0xC000},
      // integers (PTX atom): inc/dec wrap at the source operand
      {RedOp::kInc, DType::kU32, 5, 5, 0},
      {RedOp::kInc, DType::kU32, 4, 5, 5},
      {RedOp::kDec, DType::kU32, 0, 7, 7},
      {RedOp::kDec, DType::kU32, 9, 7, 7},
      {RedOp::kDec, DType::kU32, 3, 7, 2},
      {RedOp::kMin, DType::kS32, 0xFFFFFFFF, 1, 0xFFFFFFFF},
      {RedOp::kMin, DType::kU32, 0xFFFFFFFF, 1, 1},
      {RedOp::kMax, DType::kS64, 0x8000000000000000, 0, 0},
      {RedOp::kMax, DType::kU64, 0x8000000000000000, 0, 0x8000000000000000},
      {RedOp::kAdd, DType::kU64, 0xFFFFFFFFFFFFFFFF, 2, 1},
      {RedOp::kAdd, DType::kS32, 0x7FFFFFFF, 1, 0x80000000},
      {RedOp::kAnd, DType::kU64, 0xF0F0, 0xFF00, 0xF000},
      {RedOp::kXor, DType::kS32, 0xF0F0, 0xFF00, 0x0FF0},
  };
  for (const Hand& h : v) {
    uint8_t d[8] = {};
    uint8_t s[8] = {};
    std::memcpy(d, &h.d, 8);
    std::memcpy(s, &h.s, 8);
    model::ReduceElement(h.op, h.t, d, s);
    uint64_t r = 0;
    std::memcpy(&r, d, model::ElementBytes(h.t));
    EXPECT_EQ(r, h.r) << model::ToString(h.op) << "." << model::ToString(h.t) << " " << std::hex
                      << h.d << " " << h.s;
  }
}

TEST(RedAlu, ThirtyThreeExecutingPairs) {
  EXPECT_EQ(ExecutingPairs().size(), 33u);  // silicon F5 (+ tf32.ftz add, silicon-notes 2)
}

// ---- The pair table: supported (= ReductionSupported) and the AXI5 AtomicStore encoding ----
TEST(RedAlu, AtopTableMatchesModelAndAxi5) {
  // AMBA AXI5 AWATOP: [5:4] = 01 AtomicStore, [3] = 0 little-endian, [2:0] the operation.
  constexpr int kAdd = 0x10, kClr = 0x11, kEor = 0x12, kSet = 0x13, kSmax = 0x14, kSmin = 0x15,
                kUmax = 0x16, kUmin = 0x17;
  auto expected = [&](RedOp op, DType t, bool* inv) {
    *inv = false;
    const bool u = t == DType::kU32 || t == DType::kU64;
    const bool s = t == DType::kS32 || t == DType::kS64;
    if (!model::ReductionSupported(op, t) || !(u || s)) {
      return 0;
    }
    switch (op) {
      case RedOp::kAdd:
        return kAdd;
      case RedOp::kMin:
        return u ? kUmin : kSmin;
      case RedOp::kMax:
        return u ? kUmax : kSmax;
      case RedOp::kAnd:
        *inv = true;
        return kClr;
      case RedOp::kOr:
        return kSet;
      case RedOp::kXor:
        return kEor;
      default:
        return 0;  // inc / dec
    }
  };
  Vtma_red_atop m;
  int atomics = 0;
  for (RedOp op : kOps) {
    for (int t = 0; t < model::kNumDTypes; ++t) {
      m.redop_i = static_cast<uint8_t>(op);
      m.elem_i = static_cast<uint8_t>(t);
      m.eval();
      const DType dt = static_cast<DType>(t);
      bool inv = false;
      const int atop = expected(op, dt, &inv);
      atomics += atop != 0;
      const std::string what = std::string(model::ToString(op)) + "." + model::ToString(dt);
      EXPECT_EQ(m.supported_o, model::ReductionSupported(op, dt)) << what;
      EXPECT_EQ(m.atop_o, atop) << what;
      EXPECT_EQ(m.atop_inv_o, inv) << what;
    }
  }
  EXPECT_EQ(atomics, 20);  // add x3, min x4, max x4, and/or/xor x3 each (inc/dec, floats: none)
  EXPECT_EQ(tma::pkg::AtopStUmin, kUmin);  // the generated numbering agrees with AXI5
  EXPECT_EQ(tma::pkg::AtopStAdd, kAdd);
}

// ---- RTL against the model ----
template <class Model>
void CheckAgainstModel(int db, uint32_t seed, uint64_t nbeats, int valid_pct, int ready_pct) {
  std::vector<Pair> pairs = ExecutingPairs();
  for (const Pair& p : OtherPairs()) {
    pairs.push_back(p);
  }
  const RunStats st = RunAlu<Model>(db, seed, nbeats, pairs, ModelRef, valid_pct, ready_pct);
  EXPECT_EQ(st.beats, nbeats);
  EXPECT_EQ(st.mismatches, 0u) << st.first;
  EXPECT_FALSE(st.assert_error);
  for (const Pair& p : pairs) {
    const std::string k = std::string(model::ToString(p.op)) + "." + model::ToString(p.t);
    EXPECT_GT(st.per_pair.count(k) ? st.per_pair.at(k) : 0, 0u) << k << " never ran";
  }
  ::testing::Test::RecordProperty("element_checks", std::to_string(st.elements));
  std::printf("DataBytes %d: %llu beats, %llu element checks over %zu pairs\n", db,
              static_cast<unsigned long long>(st.beats),
              static_cast<unsigned long long>(st.elements), pairs.size());
}

TEST(RedAlu, MatchesModelDb16FullRate) {
  CheckAgainstModel<Vtma_red_alu_db16>(16, 1, 400000, 100, 100);
}

TEST(RedAlu, MatchesModelDb16Backpressure) {
  CheckAgainstModel<Vtma_red_alu_db16>(16, 2, 100000, 70, 60);
}

TEST(RedAlu, MatchesModelDb64FullRate) {
  CheckAgainstModel<Vtma_red_alu_db64>(64, 3, 150000, 100, 100);
}

TEST(RedAlu, MatchesModelDb64Backpressure) {
  CheckAgainstModel<Vtma_red_alu_db64>(64, 4, 30000, 50, 40);
}

TEST(RedAlu, MatchesModelDb128FullRate) {
  CheckAgainstModel<Vtma_red_alu_db128>(128, 6, 60000, 100, 100);
}

TEST(RedAlu, MatchesModelDb128Backpressure) {
  CheckAgainstModel<Vtma_red_alu_db128>(128, 7, 15000, 50, 40);
}

// ---- Full throughput: one beat per cycle, latency 10 (eight stages, the output FIFO) ----
template <class Model>
void OneBeatPerCycle(int db) {
  VerilatedDut<Model> dut(5);
  dut->in_valid_i = 0;
  dut->out_ready_i = 1;
  dut.Reset();
  int first_out = -1;
  int outs = 0;
  for (int c = 0; c < 200; ++c) {
    dut->in_valid_i = c < 100;
    dut->in_redop_i = static_cast<uint8_t>(RedOp::kAdd);
    dut->in_elem_i = static_cast<uint8_t>(DType::kF64);
    SetMask(&dut->in_mask_i, std::vector<uint8_t>(db, 1));
    dut.Settle();
    if (c < 100) {
      EXPECT_TRUE(dut->in_ready_o) << c;
    }
    if (dut->out_valid_o) {
      first_out = first_out < 0 ? c : first_out;
      ++outs;
    }
    dut.Cycle();
  }
  EXPECT_EQ(first_out, 10);
  EXPECT_EQ(outs, 100);
  EXPECT_FALSE(dut.GotError());
}

TEST(RedAlu, OneBeatPerCycle) {
  OneBeatPerCycle<Vtma_red_alu_db16>(16);
  OneBeatPerCycle<Vtma_red_alu_db128>(128);
}

// ---- The comparison fails on a wrong reference ----
void TiesAway(RedOp op, DType t, uint8_t* d, const uint8_t* s) {
  if (op == RedOp::kAdd && (t == DType::kF32 || t == DType::kTF32)) {
    float a;
    float b;
    std::memcpy(&a, d, 4);
    std::memcpy(&b, s, 4);
    const double x = static_cast<double>(a) + static_cast<double>(b);
    float r = static_cast<float>(x);  // RNE; redo a tie away from zero
    const float lo = std::nextafter(r, 0.0f);
    const float hi = std::nextafter(r, r > 0 ? INFINITY : -INFINITY);
    if (std::isfinite(r) && r != 0.0f) {
      if (static_cast<double>(r) - x == x - static_cast<double>(lo) &&
          std::fabs(lo) > std::fabs(r)) {
        r = lo;
      } else if (x - static_cast<double>(r) == static_cast<double>(hi) - x) {
        r = hi;
      }
    }
    if (!std::isnan(r)) {
      std::memcpy(d, &r, 4);
      return;
    }
  }
  model::ReduceElement(op, t, d, s);
}

void NoFlush(RedOp op, DType t, uint8_t* d, const uint8_t* s) {
  model::ReduceElement(op, t == DType::kF32Ftz ? DType::kF32 : t, d, s);
}

void DecNoWrap(RedOp op, DType t, uint8_t* d, const uint8_t* s) {
  if (op == RedOp::kDec && t == DType::kU32) {
    uint32_t a;
    std::memcpy(&a, d, 4);
    a -= 1;
    std::memcpy(d, &a, 4);
    return;
  }
  model::ReduceElement(op, t, d, s);
}

TEST(RedAlu, WrongReferencesAreCaught) {
  struct Case {
    const char* name;
    ElemRef ref;
    Pair pair;
  };
  const Case cases[] = {{"ties away", TiesAway, {RedOp::kAdd, DType::kF32}},
                        {"no flush", NoFlush, {RedOp::kAdd, DType::kF32Ftz}},
                        {"dec without wrap", DecNoWrap, {RedOp::kDec, DType::kU32}}};
  for (const Case& c : cases) {
    const RunStats st = RunAlu<Vtma_red_alu_db16>(16, 11, 5000, {c.pair}, c.ref, 100, 100);
    EXPECT_GT(st.mismatches, 0u) << c.name << ": the comparison did not notice";
  }
}

}  // namespace
}  // namespace tma::tb
