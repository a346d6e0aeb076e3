// SPDX-License-Identifier: Apache-2.0
//
// Wide Verilator ports (VlWide: 32-bit words, little-endian) as bit vectors: positional
// access (Bits) and cursors that write / read a packed SystemVerilog struct from its most
// significant field down, in declaration order (Packer / Unpacker).
#ifndef TMA_TESTS_RTL_WIDE_BITS_H_
#define TMA_TESTS_RTL_WIDE_BITS_H_

#include <cstdint>
#include <vector>

namespace tma::tb {

// A little-endian bit vector (bit n: bit n % 32 of word n / 32).
struct Bits {
  std::vector<uint32_t> w;
  explicit Bits(int nbits = 0) : w((nbits + 31) / 32, 0u) {}
  void Set(int pos, int width, uint64_t v) {
    for (int i = 0; i < width; ++i) {
      const int b = pos + i;
      const uint32_t bit = static_cast<uint32_t>((v >> i) & 1u);
      w[b / 32] = (w[b / 32] & ~(1u << (b % 32))) | (bit << (b % 32));
    }
  }
  bool Get(int b) const { return (w[b / 32] >> (b % 32)) & 1u; }
};

// Bits [pos, pos + width) of a little-endian word array, width <= 64.
inline uint64_t GetBits(const uint32_t* words, int pos, int width) {
  uint64_t v = 0;
  for (int i = 0; i < width; ++i) {
    v |= static_cast<uint64_t>((words[(pos + i) / 32] >> ((pos + i) % 32)) & 1u) << i;
  }
  return v;
}

// Writes a packed struct of `bits` bits, most significant field first.
class Packer {
 public:
  explicit Packer(int bits) : pos_(bits), bits_(bits) {}
  void Put(int width, uint64_t v) {
    pos_ -= width;
    bits_.Set(pos_, width, v);
  }
  const std::vector<uint32_t>& words() const { return bits_.w; }
  int pos() const { return pos_; }

 private:
  int pos_;
  Bits bits_;
};

// Reads a packed struct of `bits` bits, most significant field first.
class Unpacker {
 public:
  Unpacker(const uint32_t* words, int bits) : pos_(bits), words_(words) {}
  uint64_t Get(int width) {
    pos_ -= width;
    return GetBits(words_, pos_, width);
  }

 private:
  int pos_;
  const uint32_t* words_;
};

}  // namespace tma::tb

#endif  // TMA_TESTS_RTL_WIDE_BITS_H_
