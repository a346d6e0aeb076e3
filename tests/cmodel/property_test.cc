// SPDX-License-Identifier: Apache-2.0
//
// Properties over random parameters: every in-box element lands exactly once and where the
// address formula of tensor-semantics 2/3 puts it; swizzle is a bijection; store-then-load
// returns the data; reductions match scalar references written here independently of the
// model (native _Float16 / float / double arithmetic). Plus a throughput check.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <set>
#include <vector>

#include <gtest/gtest.h>

#include "copy_test_util.h"
#include "tma/element.h"
#include "tma/encoder.h"
#include "tma/memory.h"
#include "tma/reduce.h"
#include "tma/swizzle.h"
#include "tma/tensor_copy.h"
#include "tma/traversal.h"

namespace tma::model {
namespace {

using testing::kGlobalBase;

struct Rand {
  std::mt19937_64 gen;
  explicit Rand(uint64_t seed) : gen(seed) {}
  int64_t In(int64_t lo, int64_t hi) {  // inclusive
    return std::uniform_int_distribution<int64_t>(lo, hi)(gen);
  }
  template <typename T>
  T Pick(std::initializer_list<T> l) {
    return *(l.begin() + In(0, static_cast<int64_t>(l.size()) - 1));
  }
};

// A random valid tiled map (whole-byte types, interleave none). `in_bounds` chooses coords so
// the box lies inside the tensor; otherwise coords may stick out on any side.
bool RandomTile(Rand& r, bool in_bounds, TensorMap* m, TensorInstr* ins, bool no_tf32 = false) {
  DType t = r.Pick({DType::kU8, DType::kU16, DType::kU32, DType::kS32, DType::kU64, DType::kS64,
                    DType::kF16, DType::kF32, DType::kF64, DType::kBF16, DType::kF32Ftz,
                    DType::kTF32, DType::kTF32Ftz});
  if (no_tf32 && (t == DType::kTF32 || t == DType::kTF32Ftz)) {
    t = DType::kF32;
  }
  const uint32_t e = LayoutOf(t).unit_gbytes;
  const int rank = static_cast<int>(r.In(1, 5));
  const Swizzle sw = r.Pick({Swizzle::kNone, Swizzle::k32B, Swizzle::k64B, Swizzle::k128B});
  const uint32_t span = SwizzleSpanBytes(sw);
  const uint32_t max_row = span ? span : 128;
  const uint32_t row16 = static_cast<uint32_t>(r.In(1, max_row / 16));  // 16-byte multiples
  std::vector<uint64_t> dims(static_cast<size_t>(rank));
  std::vector<uint32_t> box(static_cast<size_t>(rank)), es(static_cast<size_t>(rank));
  box[0] = row16 * 16 / e;
  dims[0] = static_cast<uint64_t>(r.In(1, 3 * box[0]));
  es[0] = static_cast<uint32_t>(r.In(1, 3));
  for (int d = 1; d < rank; ++d) {
    box[static_cast<size_t>(d)] = static_cast<uint32_t>(r.In(1, rank > 3 ? 3 : 6));
    es[static_cast<size_t>(d)] = static_cast<uint32_t>(r.In(1, 3));
    dims[static_cast<size_t>(d)] = static_cast<uint64_t>(r.In(1, 9));
  }
  std::vector<uint64_t> strides;
  uint64_t extent = (dims[0] * e + 15) / 16 * 16;
  for (int d = 1; d < rank; ++d) {
    strides.push_back(extent + 16 * static_cast<uint64_t>(r.In(0, 2)));
    extent = strides.back() * dims[static_cast<size_t>(d)];
  }
  *m = testing::TiledMap(t, dims, strides, box, es);
  m->swizzle = sw;
  if (IsFloat(t) && r.In(0, 1)) {
    m->oob_fill = OobFill::kNan;
  }
  std::vector<int32_t> c(static_cast<size_t>(rank));
  const int64_t g = 16 / e;  // coords[0] granule (F1)
  for (int d = 0; d < rank; ++d) {
    const size_t u = static_cast<size_t>(d);
    const int64_t span_d = d == 0 ? box[0] : (box[u] - 1) * es[u] + 1;
    int64_t lo = -span_d - 2, hi = static_cast<int64_t>(dims[u]) + 2;
    if (in_bounds) {
      lo = 0;
      hi = static_cast<int64_t>(dims[u]) - span_d;
      if (hi < 0) {
        return false;
      }
    }
    int64_t v = r.In(lo, hi);
    if (d == 0) {
      v = (v >= 0 ? v / g : -((-v + g - 1) / g)) * g;
      if (in_bounds && v + span_d > static_cast<int64_t>(dims[0])) {
        return false;
      }
    }
    c[u] = static_cast<int32_t>(v);
  }
  *ins = testing::LoadInstr(rank, c, static_cast<uint32_t>(128 * r.In(0, 15)));
  return ValidateTensorMap(*m).ok();
}

TEST(Property, EveryInBoxElementLandsExactlyOnce) {
  Rand r(12345);
  int done = 0;
  for (int iter = 0; iter < 3000 && done < 400; ++iter) {
    TensorMap m;
    TensorInstr ins;
    if (!RandomTile(r, false, &m, &ins)) {
      continue;
    }
    ++done;
    SparseGlobalMemory g;
    std::vector<uint8_t> pat(1 << 16);
    for (size_t i = 0; i < pat.size(); ++i) {
      pat[i] = static_cast<uint8_t>(i * 13 + (i >> 9));
    }
    g.Write(kGlobalBase, pat.data(), pat.size());
    ClusterSharedMemory a(1, 1 << 16, 0x00), b(1, 1 << 16, 0xFF);
    ExecResult ra = ExecuteTensor(m, ins, g, a);
    ExecResult rb = ExecuteTensor(m, ins, g, b);
    ASSERT_TRUE(ra.status.ok()) << ra.status.ToString();
    ASSERT_TRUE(rb.status.ok());
    // Written bytes are exactly the positions where both runs agree; there are tx of them.
    uint64_t written = 0;
    for (size_t i = 0; i < a.Window(0).size(); ++i) {
      written += a.Window(0)[i] == b.Window(0)[i];
    }
    const uint32_t e = LayoutOf(m.dtype).unit_gbytes;
    uint64_t n_elems = m.box[0];
    for (int d = 1; d < m.rank; ++d) {
      const size_t u = static_cast<size_t>(d);
      n_elems *= (m.box[u] + m.element_strides[u] - 1) / m.element_strides[u];
    }
    ASSERT_EQ(written, n_elems * e);
    ASSERT_EQ(ra.complete_tx[0].bytes, n_elems * e);
    // Each element: coordinates c + i * es, the address formula, and its bytes in place.
    const std::vector<uint8_t> fill = OobFillBytes(m.dtype, m.oob_fill);
    std::set<uint32_t> offsets;
    uint64_t visits = 0;
    ForEachElement(m, ins, [&](const ElementVisit& v) {
      ++visits;
      offsets.insert(v.smem_offset);
      bool oob = false;
      uint64_t addr = m.global_address;
      for (int d = 0; d < m.rank; ++d) {
        const size_t u = static_cast<size_t>(d);
        const int64_t x = ins.coords[u] + v.box_index[u] * (d == 0 ? 1 : m.element_strides[u]);
        ASSERT_EQ(v.coords[u], x);
        oob = oob || x < 0 || x >= static_cast<int64_t>(m.dims[u]);
        addr += d == 0 ? static_cast<uint64_t>(x) * e : static_cast<uint64_t>(x) * m.strides[u - 1];
      }
      ASSERT_EQ(v.oob, oob);
      uint8_t want[8];
      if (!oob) {
        ASSERT_EQ(v.global_addr, addr);
        g.Read(addr, want, e);
        if (m.dtype == DType::kTF32 || m.dtype == DType::kTF32Ftz) {
          uint32_t u32;
          std::memcpy(&u32, want, 4);
          u32 = RoundToTf32(u32);
          std::memcpy(want, &u32, 4);
        }
      } else {
        std::memcpy(want, fill.data(), e);
      }
      for (uint32_t k = 0; k < e; ++k) {
        const uint32_t phys = SwizzleAddress(ins.smem_addr + v.smem_offset + k, m.swizzle);
        ASSERT_EQ(a.Window(0)[phys], want[k]);
      }
    });
    ASSERT_EQ(visits, n_elems);
    ASSERT_EQ(offsets.size(), n_elems);
  }
  EXPECT_GE(done, 200);
}

TEST(Property, SwizzleBijectionOnRandomSpans) {
  Rand r(7);
  for (int iter = 0; iter < 200; ++iter) {
    const Swizzle s =
        r.Pick({Swizzle::k32B, Swizzle::k64B, Swizzle::k128B, Swizzle::k96B, Swizzle::k128BAtom32B,
                Swizzle::k128BAtom64B, Swizzle::k128BAtom32BFlip8B});
    const uint32_t base = static_cast<uint32_t>(r.In(0, 1000)) * 1024;
    std::set<uint32_t> out;
    for (uint32_t a = base; a < base + 1024; ++a) {
      out.insert(SwizzleAddress(a, s));
    }
    ASSERT_EQ(out.size(), 1024u);
    ASSERT_EQ(*out.begin(), base);
    ASSERT_EQ(*out.rbegin(), base + 1023);
  }
}

TEST(Property, StoreThenLoadReturnsTheData) {
  Rand r(99);
  int done = 0;
  for (int iter = 0; iter < 3000 && done < 300; ++iter) {
    TensorMap m;
    TensorInstr ld;
    if (!RandomTile(r, true, &m, &ld, /*no_tf32=*/true)) {
      continue;
    }
    ++done;
    SparseGlobalMemory g(0x5A);
    ClusterSharedMemory src(1, 1 << 16, 0), dst(1, 1 << 16, 0x77);
    for (auto& byte : src.Window(0)) {
      byte = static_cast<uint8_t>(r.In(0, 255));
    }
    TensorInstr st = testing::StoreInstr(ld.dim, ld.coords, ld.smem_addr);
    ExecResult rs = ExecuteTensor(m, st, g, src);
    ASSERT_TRUE(rs.status.ok()) << rs.status.ToString();
    ExecResult rl = ExecuteTensor(m, ld, g, dst);
    ASSERT_TRUE(rl.status.ok());
    ForEachElement(m, ld, [&](const ElementVisit& v) {
      ASSERT_FALSE(v.oob);
      for (uint32_t k = 0; k < v.bytes; ++k) {
        const uint32_t phys = SwizzleAddress(ld.smem_addr + v.smem_offset + k, m.swizzle);
        ASSERT_EQ(dst.Window(0)[phys], src.Window(0)[phys]);
      }
    });
  }
  EXPECT_GE(done, 100);
}

// ---- Scalar references, independent of reduce.cc ----
float Flush(float f) {
  return std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0f, f) : f;
}
uint16_t RefBf16(float f) {  // float -> bf16 RNE by the usual bit trick (non-NaN)
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return static_cast<uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}
float Bf16(uint16_t b) {
  const uint32_t u = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

TEST(Property, ReductionsMatchScalarReference) {
  Rand r(2024);
  int checked = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    const RedOp op = static_cast<RedOp>(r.In(0, 7));
    const DType t = static_cast<DType>(r.In(0, 12));
    if (!ReductionSupported(op, t)) {
      continue;
    }
    uint64_t d = r.gen(), s = r.gen();
    uint8_t buf[8], src[8];
    std::memcpy(buf, &d, 8);
    std::memcpy(src, &s, 8);
    ReduceElement(op, t, buf, src);
    uint64_t got = 0;
    std::memcpy(&got, buf, LayoutOf(t).unit_gbytes);
    uint64_t want = 0;
    switch (t) {
      case DType::kU32:
      case DType::kS32: {
        const uint32_t a = static_cast<uint32_t>(d), b = static_cast<uint32_t>(s);
        const int32_t sa = static_cast<int32_t>(a), sb = static_cast<int32_t>(b);
        const bool sg = t == DType::kS32;
        switch (op) {
          case RedOp::kAdd:
            want = static_cast<uint32_t>(a + b);
            break;
          case RedOp::kMin:
            want = sg ? static_cast<uint32_t>(std::min(sa, sb)) : std::min(a, b);
            break;
          case RedOp::kMax:
            want = sg ? static_cast<uint32_t>(std::max(sa, sb)) : std::max(a, b);
            break;
          case RedOp::kInc:
            want = a >= b ? 0 : a + 1;
            break;
          case RedOp::kDec:
            want = (a == 0 || a > b) ? b : a - 1;
            break;
          case RedOp::kAnd:
            want = a & b;
            break;
          case RedOp::kOr:
            want = a | b;
            break;
          case RedOp::kXor:
            want = a ^ b;
            break;
        }
        break;
      }
      case DType::kU64:
      case DType::kS64: {
        const int64_t sa = static_cast<int64_t>(d), sb = static_cast<int64_t>(s);
        const bool sg = t == DType::kS64;
        switch (op) {
          case RedOp::kAdd:
            want = d + s;
            break;
          case RedOp::kMin:
            want = sg ? static_cast<uint64_t>(std::min(sa, sb)) : std::min(d, s);
            break;
          case RedOp::kMax:
            want = sg ? static_cast<uint64_t>(std::max(sa, sb)) : std::max(d, s);
            break;
          case RedOp::kAnd:
            want = d & s;
            break;
          case RedOp::kOr:
            want = d | s;
            break;
          case RedOp::kXor:
            want = d ^ s;
            break;
          default:
            FAIL();
        }
        break;
      }
      case DType::kF16: {
        _Float16 a, b;
        const uint16_t ua = static_cast<uint16_t>(d), ub = static_cast<uint16_t>(s);
        std::memcpy(&a, &ua, 2);
        std::memcpy(&b, &ub, 2);
        if (a != a || b != b || std::isinf(static_cast<float>(a)) ||
            std::isinf(static_cast<float>(b))) {
          continue;
        }
        _Float16 c = op == RedOp::kAdd ? static_cast<_Float16>(a + b)
                                       : (op == RedOp::kMin ? (b < a ? b : a) : (b > a ? b : a));
        if (op != RedOp::kAdd && a == b) {
          continue;  // +-0 ordering is [INF]
        }
        uint16_t uc;
        std::memcpy(&uc, &c, 2);
        want = uc;
        break;
      }
      case DType::kBF16: {
        const float a = Bf16(static_cast<uint16_t>(d)), b = Bf16(static_cast<uint16_t>(s));
        if (a != a || b != b || std::isinf(a) || std::isinf(b) || std::isinf(a + b)) {
          continue;
        }
        if (op == RedOp::kAdd) {
          want = RefBf16(a + b);  // float rounding first is innocuous (24 >= 2 * 8 + 2)
        } else {
          if (a == b) {
            continue;
          }
          const bool take_src = op == RedOp::kMin ? b < a : b > a;
          want = take_src ? (s & 0xFFFF) : (d & 0xFFFF);
        }
        break;
      }
      case DType::kF32:
      case DType::kTF32:
      case DType::kF32Ftz:
      case DType::kTF32Ftz: {  // tf32.ftz add: an f32 add (H200, silicon-notes finding 2)
        float a = BitsFloat(static_cast<uint32_t>(d)), b = BitsFloat(static_cast<uint32_t>(s));
        const bool ftz = t == DType::kF32Ftz || t == DType::kTF32Ftz;
        if (ftz) {
          a = Flush(a);
          b = Flush(b);
        }
        float c = a + b;
        if (c != c) {
          continue;
        }
        want = FloatBits(ftz ? Flush(c) : c);
        break;
      }
      case DType::kF64: {
        const double c = BitsDouble(d) + BitsDouble(s);
        if (c != c) {
          continue;
        }
        want = DoubleBits(c);
        break;
      }
      default:
        FAIL();
    }
    ASSERT_EQ(got, want) << ToString(op) << " " << ToString(t) << " d=" << std::hex << d
                         << " s=" << s;
    ++checked;
  }
  EXPECT_GT(checked, 2000);
}

TEST(Property, LoadThroughputOn64KiBTile) {
  // f16 box {64, 256, 2} = 64 KiB with 128B swizzle; the brief asks for well under 1 ms/KiB.
  SparseGlobalMemory g;
  std::vector<uint8_t> buf(128 * 256 * 4, 0x42);
  g.Write(kGlobalBase, buf.data(), buf.size());
  ClusterSharedMemory s(1, 1 << 17, 0);
  TensorMap m = testing::TiledMap(DType::kF16, {64, 256, 4}, {128, 128 * 256}, {64, 256, 2});
  m.swizzle = Swizzle::k128B;
  TensorInstr ins = testing::LoadInstr(3, {0, 0, 1});
  const int reps = 20;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) {
    ASSERT_TRUE(ExecuteTensor(m, ins, g, s).status.ok());
  }
  const double sec =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / reps;
  std::printf("64 KiB swizzled tile load: %.1f us, %.2f GB/s\n", sec * 1e6, 65536.0 / sec / 1e9);
  EXPECT_LT(sec, 0.064 / 4);  // < 0.25 ms per KiB even on a loaded machine
}

}  // namespace
}  // namespace tma::model
