// SPDX-License-Identifier: Apache-2.0
//
// Replays every encoder verdict measured on silicon (tests/vectors/silicon/
// encoder_verdicts.jsonl.gz: cuTensorMapEncodeTiled / cuTensorMapEncodeIm2col on a Hopper GPU,
// see tests/vectors/silicon/README.md) through the firmware's encoder (fw/encoder, the one the
// model uses too). Required: the same CUresult (0 accepted, 1 CUDA_ERROR_INVALID_VALUE), the
// same 128 descriptor bytes, and the model's DecodeDescriptor recovering the parameters -- for
// 100 % of the records.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>
#include <zlib.h>

#include <gtest/gtest.h>

#include "tma/descriptor.h"
#include "tma/fw/encoder.h"
#include "tma/types.h"

namespace tma::model {
namespace {

namespace fw = tma::fw;

using nlohmann::json;

std::vector<json> ReadJsonlGz(const std::string& path) {
  std::vector<json> out;
  gzFile f = gzopen(path.c_str(), "rb");
  if (f == nullptr)
    return out;
  std::string line;
  char buf[65536];
  while (gzgets(f, buf, sizeof(buf)) != nullptr) {
    line += buf;
    if (!line.empty() && line.back() == '\n') {
      if (line.size() > 1)
        out.push_back(json::parse(line));
      line.clear();
    }
  }
  if (!line.empty())
    out.push_back(json::parse(line));
  gzclose(f);
  return out;
}

std::string HexOf(const uint8_t* p, size_t n) {
  static const char* hx = "0123456789abcdef";
  std::string r;
  for (size_t k = 0; k < n; ++k) {
    r.push_back(hx[p[k] >> 4]);
    r.push_back(hx[p[k] & 15]);
  }
  return r;
}

template <typename T>
void Fill(const json& j, const char* key, T* dst, T pad) {
  for (int k = 0; k < 8; ++k)
    dst[k] = pad;
  if (!j.contains(key))
    return;
  const json& a = j.at(key);
  for (size_t k = 0; k < a.size() && k < 8; ++k)
    dst[k] = a[k].get<T>();
}

// Returns "" when the record agrees with the encoder, else a description of the difference.
std::string CheckRecord(const json& j) {
  const bool im2col = j.at("api").get<std::string>() == "im2col";
  uint64_t dims[8], strides[8];
  uint32_t box[8], es[8];
  int lower[8], upper[8];
  Fill<uint64_t>(j, "dims", dims, 1);
  Fill<uint64_t>(j, "strides", strides, 16);
  Fill<uint32_t>(j, "box", box, 1);
  Fill<uint32_t>(j, "element_strides", es, 1);
  Fill<int>(j, "lower", lower, 0);
  Fill<int>(j, "upper", upper, 0);
  const auto dtype = static_cast<DType>(j.at("dtype").get<int>());
  const auto rank = j.at("rank").get<uint32_t>();
  const auto addr = j.at("address").get<uint64_t>();
  const auto il = static_cast<Interleave>(j.value("interleave", 0));
  const auto sw = static_cast<Swizzle>(j.value("swizzle", 0));
  const auto l2 = static_cast<L2Promotion>(j.value("l2_promotion", 0));
  const auto oob = static_cast<OobFill>(j.value("oob_fill", 0));
  const uint32_t cpp = j.value("channels_per_pixel", 1u);
  const uint32_t ppc = j.value("pixels_per_column", 1u);
  // The driver's parameters, numbered as the driver's enums.
  const auto fdt = static_cast<fw::TensorMapDataType>(j.at("dtype").get<int>());
  const auto fil = static_cast<fw::TensorMapInterleave>(j.value("interleave", 0));
  const auto fsw = static_cast<fw::TensorMapSwizzle>(j.value("swizzle", 0));
  const auto fl2 = static_cast<fw::TensorMapL2Promotion>(j.value("l2_promotion", 0));
  const auto foob = static_cast<fw::TensorMapFloatOobFill>(j.value("oob_fill", 0));
  fw::TensorMap map;
  fw::Violation v;
  const fw::Result r =
      im2col ? fw::EncodeIm2col(&map, fdt, rank, addr, dims, strides, lower, upper, cpp, ppc, es,
                                fil, fsw, fl2, foob, fw::Arch::kSm90, &v)
             : fw::EncodeTiled(&map, fdt, rank, addr, dims, strides, box, es, fil, fsw, fl2, foob,
                               fw::Arch::kSm90, &v);
  const bool accepted = j.at("accepted").get<bool>();
  const uint32_t result = j.at("result").get<uint32_t>();
  std::ostringstream why;
  if (static_cast<uint32_t>(r) != result) {
    why << "CUresult: silicon " << result << " (" << (accepted ? "accepted" : "rejected")
        << "), fw " << static_cast<uint32_t>(r) << " (" << v.field << ": " << v.message << ")";
    return why.str();
  }
  if (!accepted) {
    if (v.rule == 0 || v.field.empty())
      return "rejection names no rule or parameter";
    for (uint8_t b : map.bytes)
      if (b != 0)
        return "rejected map is not all zero";
    return "";
  }
  const uint8_t* bytes = map.bytes.data();
  const std::string want = j.at("descriptor").get<std::string>();
  const std::string got = HexOf(bytes, map.bytes.size());
  if (want != got) {
    size_t k = 0;
    while (k < want.size() && want[k] == got[k])
      ++k;
    why << "descriptor bytes differ from byte " << k / 2 << ": silicon " << want.substr(k & ~1u, 16)
        << " fw " << got.substr(k & ~1u, 16);
    return why.str();
  }
  TensorMap m;
  Status ds = DecodeDescriptor(bytes, &m);
  if (!ds.ok())
    return "decode of the silicon bytes failed: " + ds.ToString();
  if (m.mode != (im2col ? MapMode::kIm2col : MapMode::kTiled))
    return "decode: mode";
  if (m.global_address != addr)
    return "decode: global_address";
  if (m.rank != static_cast<int>(rank))
    return "decode: rank";
  if (m.dtype != dtype)
    return "decode: dtype";
  if (m.interleave != il || m.swizzle != sw || m.l2_promotion != l2 || m.oob_fill != oob)
    return "decode: enums";
  for (uint32_t k = 0; k < rank; ++k) {
    if (m.dims[k] != dims[k])
      return "decode: dims[" + std::to_string(k) + "]";
    if (m.element_strides[k] != es[k])
      return "decode: element_strides[" + std::to_string(k) + "]";
    if (k + 1 < rank && m.strides[k] != strides[k])
      return "decode: strides[" + std::to_string(k) + "]";
    if (!im2col && m.box[k] != box[k])
      return "decode: box[" + std::to_string(k) + "]";
  }
  if (im2col) {
    for (uint32_t k = 0; k + 2 < rank; ++k)
      if (m.lower[k] != lower[k] || m.upper[k] != upper[k])
        return "decode: corners[" + std::to_string(k) + "]";
    if (m.channels_per_pixel != cpp || m.pixels_per_column != ppc)
      return "decode: cpp/ppc";
  }
  return "";
}

TEST(SiliconEncoderVerdicts, FwEncoderAgreesWithEveryDriverVerdict) {
  const std::string path =
      std::string(TMA_SILICON_VECTORS_DIR) + "/encoder/encoder_verdicts.jsonl.gz";
  const std::vector<json> recs = ReadJsonlGz(path);
  ASSERT_GE(recs.size(), 3000u) << "missing or short " << path;
  size_t accepted = 0, mismatches = 0;
  for (const json& j : recs) {
    if (j.at("accepted").get<bool>())
      ++accepted;
    std::string why;
    try {
      why = CheckRecord(j);
    } catch (const std::exception& e) {
      why = std::string("exception: ") + e.what();
    }
    if (!why.empty()) {
      ++mismatches;
      if (mismatches <= 25)
        ADD_FAILURE() << j.at("id").get<std::string>() << ": " << why;
    }
  }
  // The measured set: 3,300 calls, 2,075 accepted (tests/vectors/silicon/README.md).
  EXPECT_EQ(recs.size(), 3300u);
  EXPECT_EQ(accepted, 2075u);
  EXPECT_EQ(mismatches, 0u) << "of " << recs.size() << " silicon encoder verdicts";
}

// The measured golden-case files are well formed: silicon source, an expect per case.
TEST(SiliconVectors, EveryCaseCarriesASiliconExpectation) {
  const char* files[] = {"tile", "im2col", "multicast", "store", "reduce", "prefetch", "faults"};
  size_t total = 0;
  for (const char* f : files) {
    const std::vector<json> cases =
        ReadJsonlGz(std::string(TMA_SILICON_VECTORS_DIR) + "/" + f + ".jsonl.gz");
    EXPECT_FALSE(cases.empty()) << f;
    for (const json& c : cases) {
      ASSERT_TRUE(c.contains("expect")) << c.value("id", "?");
      EXPECT_EQ(c.at("source").get<std::string>().rfind("silicon:", 0), 0u) << c.value("id", "?");
    }
    total += cases.size();
  }
  EXPECT_GE(total, 10000u);
}

}  // namespace
}  // namespace tma::model
