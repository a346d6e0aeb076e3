// SPDX-License-Identifier: Apache-2.0
//
// libFuzzer harness: the encoders (tests/fuzz/README.md). The input is read as the parameters
// of cuTensorMapEncodeTiled / Im2col / Im2colWide (raw integers, enums included, so values
// outside every range are tried). A map an encoder accepts must decode.
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "tma/descriptor.h"
#include "tma/encoder.h"

using namespace tma::model;

namespace {

class Reader {
 public:
  Reader(const uint8_t* d, size_t n) : d_(d), n_(n) {}
  template <typename T>
  T Get() {
    T v{};
    uint8_t b[sizeof(T)] = {};
    for (size_t i = 0; i < sizeof(T) && pos_ < n_; ++i) {
      b[i] = d_[pos_++];
    }
    std::memcpy(&v, b, sizeof(T));
    return v;
  }

 private:
  const uint8_t* d_;
  size_t n_;
  size_t pos_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader r(data, size);
  const uint8_t api = r.Get<uint8_t>() % 3;
  const Arch arch = static_cast<Arch>(r.Get<uint8_t>() % 3);
  const DType type = static_cast<DType>(r.Get<uint8_t>() % 20);  // 16 types and beyond
  const uint32_t rank = r.Get<uint8_t>() % 8;                    // 1..5 and beyond
  const uint64_t addr = r.Get<uint64_t>();
  uint64_t dims[kMaxRank], strides[kMaxRank - 1];
  uint32_t box[kMaxRank], es[kMaxRank];
  int lower[kMaxRank - 2], upper[kMaxRank - 2];
  for (auto& v : dims) {
    v = r.Get<uint64_t>() >> (r.Get<uint8_t>() % 64);  // small and huge values
  }
  for (auto& v : strides) {
    v = r.Get<uint64_t>() >> (r.Get<uint8_t>() % 64);
  }
  for (auto& v : box) {
    v = r.Get<uint16_t>() % 300;
  }
  for (auto& v : es) {
    v = r.Get<uint8_t>() % 10;
  }
  for (int i = 0; i < kMaxRank - 2; ++i) {
    lower[i] = r.Get<int8_t>();
    upper[i] = r.Get<int8_t>();
  }
  const uint32_t cpp = r.Get<uint16_t>() % 600;
  const uint32_t ppc = r.Get<uint16_t>() % 1100;
  const auto il = static_cast<Interleave>(r.Get<uint8_t>() % 4);
  const auto sw = static_cast<Swizzle>(r.Get<uint8_t>() % 9);
  const auto l2 = static_cast<L2Promotion>(r.Get<uint8_t>() % 5);
  const auto oob = static_cast<OobFill>(r.Get<uint8_t>() % 3);
  const auto wide = static_cast<WideMode>(r.Get<uint8_t>() % 3);
  DescriptorBytes out{};
  Status st;
  if (api == 0) {
    st = EncodeTiled(&out, type, rank, addr, dims, strides, box, es, il, sw, l2, oob, arch);
  } else if (api == 1) {
    st = EncodeIm2col(&out, type, rank, addr, dims, strides, lower, upper, cpp, ppc, es, il, sw, l2,
                      oob, arch);
  } else {
    st = EncodeIm2colWide(&out, type, rank, addr, dims, strides, lower[0], upper[0], cpp, ppc, es,
                          il, wide, sw, l2, oob, arch);
  }
  if (!st.ok()) {
    return 0;
  }
  TensorMap m;
  if (!DecodeDescriptor(out.data(), &m).ok()) {
    std::abort();  // an accepted map must decode
  }
  return 0;
}
