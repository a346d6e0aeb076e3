// SPDX-License-Identifier: Apache-2.0
//
// Pieces of the co-simulation capture (silicon/cosim/cosim_capture.cu) that need no GPU: the
// binary log record the kernels write, SHA-256 (used on the GPU for stage hashes and on the host
// for buffer hashes), the buffer fills of docs/cosim/trace-format.md, bf16 rounding, and the
// out-of-bounds byte count of a tile or im2col box. Compiles as CUDA (COSIM_HD = __host__
// __device__) and as plain C++ (silicon/cosim/selftest.cc).
#ifndef TMA_SILICON_COSIM_TRACE_H_
#define TMA_SILICON_COSIM_TRACE_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

#ifdef __CUDACC__
#define COSIM_HD __host__ __device__
#else
#define COSIM_HD
#endif
#ifdef __CUDA_ARCH__
#define COSIM_UNROLL _Pragma("unroll")
#else
#define COSIM_UNROLL
#endif

namespace cosim {

// One log record, written by the thread that executed the operation. 16-byte aligned so a
// kernel can store it with vector stores; the host converts records to JSON lines.
enum RecKind : uint32_t {
  kRecLoad = 1,
  kRecStore = 2,
  kRecReduce = 3,
  kRecArm = 4,
  kRecPwait = 5,
  kRecWait = 6,
  kRecCommit = 7,
  kRecWaitGroup = 8,
  kRecCta = 9,
};

struct alignas(16) Rec {
  uint8_t desc[128];  // first: 16-byte aligned for vector copies
  uint8_t hash[32];
  uint32_t kind;
  uint32_t smid;
  uint32_t warp;
  uint32_t rank;
  int32_t cta[3];
  uint32_t tensor;  // index into the kernel's tensor-map table
  uint64_t t0;      // clock64: issue / t_start
  uint64_t t1;      // t_done (waits), t_end (cta)
  uint64_t t2;      // t_release (wait), globaltimer at the end (cta)
  uint64_t gt;      // globaltimer (cta start)
  int32_t coords[5];
  uint16_t offs[2];  // im2col offsets (W, H)
  uint32_t smem;     // dst / src / stage shared address; cta: smem_base
  uint32_t mbar;
  uint32_t bytes;  // box bytes, stage bytes, source bytes
  uint32_t expect_tx;
  uint32_t mask;  // multicast ctaMask (0: no multicast)
  int32_t phase;
  uint32_t group;
  uint32_t aux;   // store / reduce: dump slot; wait_group: N
  uint32_t aux2;  // wait_group: 1 = .read; wait: 1 = hash present
  uint32_t cluster_id[3];
};
static_assert(sizeof(Rec) % 16 == 0, "Rec must be a multiple of 16 bytes");
static_assert(offsetof(Rec, desc) == 0 && offsetof(Rec, hash) == 128 && offsetof(Rec, t0) % 8 == 0,
              "Rec layout");

// ---- SHA-256 (FIPS 180-4) over a buffer whose length is a multiple of 4 bytes -------------

COSIM_HD inline uint32_t Rotr(uint32_t x, int n) {
  return (x >> n) | (x << (32 - n));
}

COSIM_HD inline void Sha256Block(uint32_t h[8], const uint32_t w16[16]) {
  const uint32_t k[64] = {0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
                          0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
                          0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
                          0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
                          0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
                          0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
                          0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
                          0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
                          0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
                          0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
                          0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
  uint32_t w[64];
  COSIM_UNROLL
  for (int t = 0; t < 16; ++t)
    w[t] = w16[t];
  COSIM_UNROLL
  for (int t = 16; t < 64; ++t) {
    uint32_t s0 = Rotr(w[t - 15], 7) ^ Rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
    uint32_t s1 = Rotr(w[t - 2], 17) ^ Rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
    w[t] = w[t - 16] + s0 + w[t - 7] + s1;
  }
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
  COSIM_UNROLL
  for (int t = 0; t < 64; ++t) {
    uint32_t s1 = Rotr(e, 6) ^ Rotr(e, 11) ^ Rotr(e, 25);
    uint32_t ch = (e & f) ^ (~e & g);
    uint32_t t1 = hh + s1 + ch + k[t] + w[t];
    uint32_t s0 = Rotr(a, 2) ^ Rotr(a, 13) ^ Rotr(a, 22);
    uint32_t mj = (a & b) ^ (a & c) ^ (b & c);
    uint32_t t2 = s0 + mj;
    hh = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  h[0] += a;
  h[1] += b;
  h[2] += c;
  h[3] += d;
  h[4] += e;
  h[5] += f;
  h[6] += g;
  h[7] += hh;
}

COSIM_HD inline uint32_t LoadBe32(const uint8_t* p) {
  return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | p[3];
}

// SHA-256 of `len` bytes at `data` (any length; `data` must be 4-byte aligned when len >= 4 on
// the GPU because whole words are read).
COSIM_HD inline void Sha256(const uint8_t* data, uint64_t len, uint8_t out[32]) {
  uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  uint32_t w[16];
  uint64_t full = len / 64;
  for (uint64_t b = 0; b < full; ++b) {
    const uint32_t* p32 = reinterpret_cast<const uint32_t*>(data + 64 * b);
    for (int t = 0; t < 16; ++t) {
      uint32_t v = p32[t];  // little-endian word; SHA wants big-endian
      w[t] = (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
    }
    Sha256Block(h, w);
  }
  // Tail: the remaining bytes, 0x80, zeros, 64-bit length (one or two blocks).
  uint8_t tail[128];
  uint32_t rem = static_cast<uint32_t>(len - 64 * full);
  for (uint32_t i = 0; i < 128; ++i)
    tail[i] = 0;
  for (uint32_t i = 0; i < rem; ++i)
    tail[i] = data[64 * full + i];
  tail[rem] = 0x80;
  uint32_t nblk = rem + 1 + 8 <= 64 ? 1 : 2;
  uint64_t bits = len * 8;
  for (int i = 0; i < 8; ++i)
    tail[64 * nblk - 1 - i] = static_cast<uint8_t>(bits >> (8 * i));
  for (uint32_t b = 0; b < nblk; ++b) {
    for (int t = 0; t < 16; ++t)
      w[t] = LoadBe32(tail + 64 * b + 4 * t);
    Sha256Block(h, w);
  }
  for (int i = 0; i < 8; ++i) {
    out[4 * i] = static_cast<uint8_t>(h[i] >> 24);
    out[4 * i + 1] = static_cast<uint8_t>(h[i] >> 16);
    out[4 * i + 2] = static_cast<uint8_t>(h[i] >> 8);
    out[4 * i + 3] = static_cast<uint8_t>(h[i]);
  }
}

// ---- fills and element conversion -----------------------------------------------------

COSIM_HD inline uint64_t SplitMix64(uint64_t x) {
  uint64_t z = x + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Fill "ints": element i = (int64)(splitmix64(seed + i) mod (hi - lo + 1)) + lo.
inline int64_t IntsFill(uint64_t seed, uint64_t i, int64_t lo, int64_t hi) {
  return static_cast<int64_t>(SplitMix64(seed + i) % static_cast<uint64_t>(hi - lo + 1)) + lo;
}

inline uint32_t FloatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// f32 -> bf16, round to nearest even (inputs here are finite).
inline uint16_t Bf16Rne(float f) {
  uint32_t u = FloatBits(f);
  uint32_t lsb = (u >> 16) & 1u;
  u += 0x7fffu + lsb;
  return static_cast<uint16_t>(u >> 16);
}

// ---- out-of-bounds bytes of a box ---------------------------------------------------------

// Tile mode: elements of the box [c_i, c_i + box_i) outside [0, dims_i), times esize.
inline uint64_t TileOobBytes(int rank, const int64_t* dims, const int32_t* coords,
                             const uint32_t* box, uint32_t esize) {
  uint64_t total = 1, inside = 1;
  for (int i = 0; i < rank; ++i) {
    int64_t lo = coords[i], hi = static_cast<int64_t>(coords[i]) + box[i];
    int64_t a = lo < 0 ? 0 : lo, b = hi > dims[i] ? dims[i] : hi;
    total *= box[i];
    inside *= b > a ? static_cast<uint64_t>(b - a) : 0;
  }
  return (total - inside) * esize;
}

// im2col, 4-D NHWC (tensor-semantics §5.2): dims = {C, W, H, N}; corners per spatial dim;
// element strides 1. Channels coordC .. coordC + cpp - 1.
inline uint64_t Im2colOobBytes(const int64_t* dims, const int32_t* coords, const uint16_t* offs,
                               const int32_t* lower, const int32_t* upper, uint32_t cpp,
                               uint32_t ppc, uint32_t esize) {
  int64_t w = coords[1], h = coords[2], n = coords[3];
  const int64_t hi_w = dims[1] - 1 + upper[0], hi_h = dims[2] - 1 + upper[1];
  uint64_t oob = 0;
  for (uint32_t k = 0; k < ppc; ++k) {
    const int64_t xw = w + offs[0], xh = h + offs[1];
    const bool pix_oob =
        xw < 0 || xw >= dims[1] || xh < 0 || xh >= dims[2] || n < 0 || n >= dims[3];
    for (uint32_t j = 0; j < cpp; ++j) {
      const int64_t c = static_cast<int64_t>(coords[0]) + j;
      if (pix_oob || c < 0 || c >= dims[0])
        oob += esize;
    }
    ++w;
    if (w > hi_w) {
      w = lower[0];
      ++h;
      if (h > hi_h) {
        h = lower[1];
        ++n;
      }
    }
  }
  return oob;
}

}  // namespace cosim

#endif  // TMA_SILICON_COSIM_TRACE_H_
