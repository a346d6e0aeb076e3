// SPDX-License-Identifier: Apache-2.0
//
// Host-side pieces of the silicon oracle that need no CUDA: reading a golden-case spec
// (shared/spec/golden-cases.md), generating memory fills, predicting the byte count the
// mbarrier should receive (silicon-findings D1/D5/D8) so the barrier can be armed.
#ifndef TMA_SILICON_ORACLE_HOST_H_
#define TMA_SILICON_ORACLE_HOST_H_

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "json_lite.h"

namespace tma::silicon {

inline uint64_t SplitMix64(uint64_t x) {
  uint64_t z = x + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Driver CUtensorMapDataType numbering.
inline int DTypeFromName(const std::string& n) {
  static const char* names[] = {"u8",       "u16",   "u32",       "s32",      "u64",     "s64",
                                "f16",      "f32",   "f64",       "bf16",     "f32.ftz", "tf32",
                                "tf32.ftz", "b4x16", "b4x16_p64", "b6x16_p32"};
  for (int k = 0; k < 16; ++k)
    if (n == names[k])
      return k;
  throw std::runtime_error("unknown dtype " + n);
}

inline int ElemSize(int dt) {
  static const int sz[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4, 1, 1, 1};
  return (dt >= 0 && dt < 16) ? sz[dt] : 1;
}

inline bool IsFloat(int dt) {
  return dt >= 6 && dt <= 12;
}

inline int SwizzleFromName(const std::string& n) {
  static const char* names[] = {
      "none",          "32B", "64B", "128B", "128B_atom_32B", "128B_atom_32B_flip_8B",
      "128B_atom_64B", "96B"};
  for (int k = 0; k < 8; ++k)
    if (n == names[k])
      return k;
  throw std::runtime_error("unknown swizzle " + n);
}

inline int InterleaveFromName(const std::string& n) {
  if (n == "none")
    return 0;
  if (n == "16B")
    return 1;
  if (n == "32B")
    return 2;
  throw std::runtime_error("unknown interleave " + n);
}

inline int L2FromName(const std::string& n) {
  if (n == "none")
    return 0;
  if (n == "64B")
    return 1;
  if (n == "128B")
    return 2;
  if (n == "256B")
    return 3;
  throw std::runtime_error("unknown l2_promotion " + n);
}

inline int RedOpFromName(const std::string& n) {
  static const char* names[] = {"add", "min", "max", "inc", "dec", "and", "or", "xor"};
  for (int k = 0; k < 8; ++k)
    if (n == names[k])
      return k;
  throw std::runtime_error("unknown redop " + n);
}

struct Fill {
  std::string kind = "const";  // const, splitmix64, values
  uint64_t seed = 0;
  uint32_t value = 0;
};

struct Spec {
  std::string id;
  int op = 0;  // 0 load, 1 store, 2 reduce, 3 prefetch
  int redop = 0;
  int mode = 0;  // 0 tile, 1 im2col
  bool cta_dst = false;
  int dtype = 0, rank = 1;
  uint64_t dims[5] = {1, 1, 1, 1, 1};
  uint64_t strides[4] = {16, 16, 16, 16};
  uint32_t box[5] = {1, 1, 1, 1, 1};
  uint32_t es[5] = {1, 1, 1, 1, 1};
  int interleave = 0, swizzle = 0, l2 = 0, oob = 0;
  int lower[3] = {0, 0, 0}, upper[3] = {0, 0, 0};
  uint32_t cpp = 1, ppc = 1;
  int coords[5] = {0, 0, 0, 0, 0};
  int ncoords = 0;
  uint16_t offs[3] = {0, 0, 0};
  int noffs = 0;
  int ctas = 1, issuer = 0;
  uint32_t mask = 0;
  bool multicast = false;
  uint64_t gbytes = 0, goffset = 0;
  Fill gfill;
  uint64_t sbytes = 0;
  uint32_t sdst = 0;
  Fill sfill;
  // generator hints (key "gen"): expected fault kind and class, whether to keep smem hex
  std::string gen_fault, gen_error, gen_category;
  bool gen_hex = false, gen_hex_set = false;
};

inline Fill ReadFill(const JVal& o) {
  Fill f;
  if (const JVal* k = o.Get("fill"))
    f.kind = k->AsS();
  if (const JVal* s = o.Get("seed"))
    f.seed = s->AsU();
  if (const JVal* v = o.Get("value"))
    f.value = static_cast<uint32_t>(v->AsU());
  return f;
}

inline Spec ReadSpec(const JVal& c) {
  Spec s;
  auto need = [&](const JVal& o, const char* k) -> const JVal& {
    const JVal* v = o.Get(k);
    if (!v)
      throw std::runtime_error(std::string("case ") + s.id + ": missing key " + k);
    return *v;
  };
  s.id = need(c, "id").AsS();
  const std::string op = need(c, "op").AsS();
  s.op = op == "load" ? 0 : op == "store" ? 1 : op == "reduce" ? 2 : op == "prefetch" ? 3 : -1;
  if (s.op < 0)
    throw std::runtime_error("case " + s.id + ": bad op");
  if (s.op == 2)
    s.redop = RedOpFromName(need(c, "redop").AsS());
  const std::string mode = c.Get("mode") ? c.Get("mode")->AsS() : "tile";
  if (mode == "tile") {
    s.mode = 0;
  } else if (mode == "im2col") {
    s.mode = 1;
  } else {
    throw std::runtime_error("case " + s.id + ": mode " + mode + " not on sm_90");
  }
  if (const JVal* p = c.Get("ptx"))
    s.cta_dst = p->AsS().find(".shared::cta.global") != std::string::npos;
  const JVal& t = need(c, "tensor");
  s.dtype = DTypeFromName(need(t, "dtype").AsS());
  s.rank = static_cast<int>(need(t, "rank").AsI());
  if (s.rank < 1 || s.rank > 5)
    throw std::runtime_error("case " + s.id + ": rank");
  const JVal& dims = need(t, "dims");
  for (int k = 0; k < s.rank && k < static_cast<int>(dims.a.size()); ++k)
    s.dims[k] = dims.a[k].AsU();
  if (const JVal* st = t.Get("strides"))
    for (int k = 0; k < s.rank - 1 && k < static_cast<int>(st->a.size()); ++k)
      s.strides[k] = st->a[k].AsU();
  if (const JVal* es = t.Get("element_strides"))
    for (int k = 0; k < s.rank && k < static_cast<int>(es->a.size()); ++k)
      s.es[k] = static_cast<uint32_t>(es->a[k].AsU());
  s.interleave = InterleaveFromName(t.Get("interleave") ? t.Get("interleave")->AsS() : "none");
  s.swizzle = SwizzleFromName(t.Get("swizzle") ? t.Get("swizzle")->AsS() : "none");
  s.l2 = L2FromName(t.Get("l2_promotion") ? t.Get("l2_promotion")->AsS() : "none");
  s.oob = (t.Get("oob_fill") && t.Get("oob_fill")->AsS() == "nan") ? 1 : 0;
  if (s.mode == 0) {
    const JVal& box = need(t, "box");
    for (int k = 0; k < s.rank && k < static_cast<int>(box.a.size()); ++k)
      s.box[k] = static_cast<uint32_t>(box.a[k].AsU());
  } else {
    const JVal& lo = need(t, "lower");
    const JVal& up = need(t, "upper");
    for (int k = 0; k < s.rank - 2 && k < static_cast<int>(lo.a.size()); ++k)
      s.lower[k] = static_cast<int>(lo.a[k].AsI());
    for (int k = 0; k < s.rank - 2 && k < static_cast<int>(up.a.size()); ++k)
      s.upper[k] = static_cast<int>(up.a[k].AsI());
    s.cpp = static_cast<uint32_t>(need(t, "channels_per_pixel").AsU());
    s.ppc = static_cast<uint32_t>(need(t, "pixels_per_column").AsU());
  }
  const JVal& co = need(c, "coords");
  s.ncoords = static_cast<int>(co.a.size());
  if (s.ncoords != s.rank)
    throw std::runtime_error("case " + s.id + ": coords count");
  for (int k = 0; k < s.ncoords; ++k)
    s.coords[k] = static_cast<int>(co.a[k].AsI());
  if (const JVal* im = c.Get("im2col")) {
    s.noffs = static_cast<int>(im->a.size());
    for (int k = 0; k < s.noffs && k < 3; ++k)
      s.offs[k] = static_cast<uint16_t>(im->a[k].AsI());
  }
  if (s.mode == 1 && s.op != 1 && s.op != 2 && s.noffs != s.rank - 2)
    throw std::runtime_error("case " + s.id + ": im2col offsets count");
  if (const JVal* cl = c.Get("cluster")) {
    s.ctas = static_cast<int>(need(*cl, "ctas").AsI());
    if (const JVal* is = cl->Get("issuer"))
      s.issuer = static_cast<int>(is->AsI());
    if (const JVal* m = cl->Get("cta_mask")) {
      s.mask = static_cast<uint32_t>(m->AsU());
      s.multicast = true;
    }
  }
  const JVal& g = need(c, "global");
  s.gbytes = need(g, "bytes").AsU();
  s.goffset = g.Get("offset") ? g.Get("offset")->AsU() : 0;
  s.gfill = ReadFill(g);
  const JVal& sm = need(c, "smem");
  s.sbytes = need(sm, "bytes").AsU();
  s.sdst = sm.Get("dst") ? static_cast<uint32_t>(sm.Get("dst")->AsU()) : 0;
  s.sfill = ReadFill(sm);
  if (const JVal* gen = c.Get("gen")) {
    if (const JVal* f = gen->Get("fault"))
      s.gen_fault = f->AsS();
    if (const JVal* e = gen->Get("error"))
      s.gen_error = e->AsS();
    if (const JVal* h = gen->Get("hex")) {
      s.gen_hex = h->b;
      s.gen_hex_set = true;
    }
    if (const JVal* cat = gen->Get("category"))
      s.gen_category = cat->AsS();
  }
  return s;
}

inline uint16_t FloatToHalfRne(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  int32_t exp = static_cast<int32_t>((x >> 23) & 0xFF) - 127 + 15;
  uint32_t man = x & 0x7FFFFFu;
  if (((x >> 23) & 0xFF) == 0xFF)
    return static_cast<uint16_t>(sign | 0x7C00u | (man ? 0x200u : 0));
  if (exp >= 31)
    return static_cast<uint16_t>(sign | 0x7C00u);
  if (exp <= 0) {
    if (exp < -10)
      return static_cast<uint16_t>(sign);
    man |= 0x800000u;
    int shift = 14 - exp;
    uint32_t half = man >> shift;
    uint32_t rem = man & ((1u << shift) - 1);
    uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1)))
      ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(exp) << 10) | (man >> 13);
  uint32_t rem = man & 0x1FFFu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1)))
    ++half;
  return static_cast<uint16_t>(sign | half);
}

inline uint16_t FloatToBf16Rne(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7FFFFFFFu) > 0x7F800000u)
    return static_cast<uint16_t>((x >> 16) | 0x40);
  x += 0x7FFFu + ((x >> 16) & 1u);
  return static_cast<uint16_t>(x >> 16);
}

// Fills buf per golden-cases.md ("const", "splitmix64", "values").
inline void FillBuffer(std::vector<uint8_t>* buf, size_t n, const Fill& f, int dtype) {
  std::vector<uint8_t>& b = *buf;
  if (f.kind == "const") {
    std::memset(b.data(), static_cast<int>(f.value & 0xFF), n);
  } else if (f.kind == "splitmix64") {
    for (size_t k = 0; k < n; ++k)
      b[k] = static_cast<uint8_t>(SplitMix64(f.seed + k) & 0xFF);
  } else if (f.kind == "values") {
    int e = ElemSize(dtype);
    if (!IsFloat(dtype))
      throw std::runtime_error("values fill needs a float type");
    for (size_t k = 0; k + e <= n; k += e) {
      uint64_t idx = k / e;
      int iv = static_cast<int>(SplitMix64(f.seed + idx) % 2001) - 1000;
      double v = iv / 8.0;
      if (dtype == 6) {
        uint16_t h = FloatToHalfRne(static_cast<float>(v));
        std::memcpy(&b[k], &h, 2);
      } else if (dtype == 9) {
        uint16_t h = FloatToBf16Rne(static_cast<float>(v));
        std::memcpy(&b[k], &h, 2);
      } else if (dtype == 8) {
        std::memcpy(&b[k], &v, 8);
      } else {
        float fv = static_cast<float>(v);
        std::memcpy(&b[k], &fv, 4);
      }
    }
    for (size_t k = n - n % e; k < n; ++k)
      b[k] = 0;
  } else {
    throw std::runtime_error("unknown fill " + f.kind);
  }
}

inline uint64_t CeilDiv(uint64_t a, uint64_t b) {
  return (a + b - 1) / b;
}

// complete_tx predicted by silicon-findings D1/D5/D8 (used only to arm the barrier; the
// oracle measures the real count exactly either way).
inline uint32_t PredictTx(const Spec& s) {
  const uint64_t e = ElemSize(s.dtype);
  const uint64_t chunk = s.interleave == 1 ? 16 : 32;
  uint64_t tx = 0;
  if (s.mode == 0) {
    if (s.interleave == 0) {
      tx = s.box[0] * e;
      for (int k = 1; k < s.rank; ++k)
        tx *= CeilDiv(s.box[k], s.es[k]);
    } else {
      tx = CeilDiv(s.box[0], s.es[0]) * chunk;
      for (int k = 1; k < s.rank; ++k)
        if (k != s.rank - 2)
          tx *= CeilDiv(s.box[k], s.es[k]);
    }
  } else {
    tx = s.interleave == 0 ? uint64_t(s.cpp) * e * s.ppc : uint64_t(s.ppc) * chunk;
  }
  if (tx > 400000)
    tx = 400000;
  return static_cast<uint32_t>(tx);
}

}  // namespace tma::silicon

#endif  // TMA_SILICON_ORACLE_HOST_H_
