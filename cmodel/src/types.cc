// SPDX-License-Identifier: Apache-2.0
//
// Names and small helpers of the model's core vocabulary (types.h).
#include "tma/types.h"

#include <cstddef>
#include <optional>
#include <string>

#include "tma/fw/names.h"

// static_asserts: the enums of types.h and the limits equal rtl/data/tma_numbering.json.
#include "tma/autogen/numbering_check.h"

namespace tma::model {
namespace {

template <typename E, size_t N>
std::optional<E> ParseFrom(const char* const (&names)[N], const std::string& s) {
  for (size_t i = 0; i < N; ++i) {
    if (s == names[i])
      return static_cast<E>(i);
  }
  return std::nullopt;
}

// The names the firmware's encoder shares (tma/fw/names.h).
using tma::fw::kDataTypeNames;
using tma::fw::kErrorClassNames;
using tma::fw::kInterleaveNames;
using tma::fw::kSwizzleNames;
using tma::fw::NameOf;
constexpr const char* kL2Names[] = {"none", "64B", "128B", "256B"};
constexpr const char* kOobNames[] = {"zero", "nan"};
constexpr const char* kOpNames[] = {"load", "store", "reduce", "prefetch"};
constexpr const char* kLoadModeNames[] = {
    "tile",          "im2col",         "im2col::w",      "im2col::w::128",
    "tile::gather4", "tile::scatter4", "im2col_no_offs",
};
constexpr const char* kRedOpNames[] = {"add", "min", "max", "inc", "dec", "and", "or", "xor"};

static_assert(sizeof(kDataTypeNames) / sizeof(kDataTypeNames[0]) == kNumDTypes, "dtype names");

}  // namespace

bool TensorMap::operator==(const TensorMap& o) const {
  if (mode != o.mode || global_address != o.global_address || rank != o.rank || dtype != o.dtype ||
      interleave != o.interleave || swizzle != o.swizzle || l2_promotion != o.l2_promotion ||
      oob_fill != o.oob_fill) {
    return false;
  }
  const int r = (rank >= 1 && rank <= kMaxRank) ? rank : kMaxRank;
  for (int i = 0; i < r; ++i) {
    if (dims[i] != o.dims[i] || element_strides[i] != o.element_strides[i])
      return false;
    if (i >= 1 && strides[i - 1] != o.strides[i - 1])
      return false;
  }
  switch (mode) {
    case MapMode::kTiled:
      for (int i = 0; i < r; ++i) {
        if (box[i] != o.box[i])
          return false;
      }
      return true;
    case MapMode::kIm2col:
      for (int i = 0; i < r - 2; ++i) {
        if (lower[i] != o.lower[i] || upper[i] != o.upper[i])
          return false;
      }
      return channels_per_pixel == o.channels_per_pixel && pixels_per_column == o.pixels_per_column;
    case MapMode::kIm2colWide:
      return lower[0] == o.lower[0] && upper[0] == o.upper[0] &&
             channels_per_pixel == o.channels_per_pixel &&
             pixels_per_column == o.pixels_per_column && wide_mode == o.wide_mode;
  }
  return true;
}

std::string Status::ToString() const {
  std::string s = tma::model::ToString(cls);
  if (!field.empty())
    s += ": " + field;
  if (!message.empty())
    s += ": " + message;
  return s;
}

const char* ToString(DType t) {
  return NameOf(kDataTypeNames, t);
}
const char* ToString(Interleave v) {
  return NameOf(kInterleaveNames, v);
}
const char* ToString(Swizzle v) {
  return NameOf(kSwizzleNames, v);
}
const char* ToString(L2Promotion v) {
  return NameOf(kL2Names, v);
}
const char* ToString(OobFill v) {
  return NameOf(kOobNames, v);
}
const char* ToString(ErrorClass v) {
  return NameOf(kErrorClassNames, v);
}
const char* ToString(Op v) {
  return NameOf(kOpNames, v);
}
const char* ToString(LoadMode v) {
  return NameOf(kLoadModeNames, v);
}
const char* ToString(RedOp v) {
  return NameOf(kRedOpNames, v);
}

std::optional<DType> ParseDType(const std::string& s) {
  // PTX also spells the packed 6-bit store-side format .b6p2x16 (same driver enum).
  if (s == "b6p2x16")
    return DType::kB6x16P32;
  return ParseFrom<DType>(kDataTypeNames, s);
}
std::optional<Interleave> ParseInterleave(const std::string& s) {
  return ParseFrom<Interleave>(kInterleaveNames, s);
}
std::optional<Swizzle> ParseSwizzle(const std::string& s) {
  return ParseFrom<Swizzle>(kSwizzleNames, s);
}
std::optional<L2Promotion> ParseL2Promotion(const std::string& s) {
  return ParseFrom<L2Promotion>(kL2Names, s);
}
std::optional<OobFill> ParseOobFill(const std::string& s) {
  return ParseFrom<OobFill>(kOobNames, s);
}
std::optional<ErrorClass> ParseErrorClass(const std::string& s) {
  return ParseFrom<ErrorClass>(kErrorClassNames, s);
}
std::optional<Op> ParseOp(const std::string& s) {
  return ParseFrom<Op>(kOpNames, s);
}
std::optional<LoadMode> ParseLoadMode(const std::string& s) {
  return ParseFrom<LoadMode>(kLoadModeNames, s);
}
std::optional<RedOp> ParseRedOp(const std::string& s) {
  return ParseFrom<RedOp>(kRedOpNames, s);
}

int ElementBits(DType t) {
  switch (t) {
    case DType::kU8:
      return 8;
    case DType::kU16:
    case DType::kF16:
    case DType::kBF16:
      return 16;
    case DType::kU32:
    case DType::kS32:
    case DType::kF32:
    case DType::kF32Ftz:
    case DType::kTF32:
    case DType::kTF32Ftz:
      return 32;
    case DType::kU64:
    case DType::kS64:
    case DType::kF64:
      return 64;
    case DType::kB4x16:
    case DType::kB4x16P64:
      return 4;
    case DType::kB6x16P32:
      return 6;
  }
  return 8;
}

bool IsSubByte(DType t) {
  return t == DType::kB4x16 || t == DType::kB4x16P64 || t == DType::kB6x16P32;
}

bool IsFloat(DType t) {
  switch (t) {
    case DType::kF16:
    case DType::kF32:
    case DType::kF64:
    case DType::kBF16:
    case DType::kF32Ftz:
    case DType::kTF32:
    case DType::kTF32Ftz:
      return true;
    default:
      return false;
  }
}

int ElementBytes(DType t) {
  // Sub-byte types have no whole element size. The padded types (b4x16_p64, b6x16_p32)
  // occupy one byte per element in shared memory (16 elements -> 16 B), and the driver's
  // byte-based rules for them are stated in those bytes; b4x16 has half a byte per element
  // and reports 1 here too: rules that need its exact size use ElementBits (see
  // docs/descriptor.md, "Element size of the sub-byte types").
  if (IsSubByte(t))
    return 1;
  return ElementBits(t) / 8;
}

}  // namespace tma::model
