// SPDX-License-Identifier: Apache-2.0
//
// Core vocabulary of the OpenTMA reference model: element types, tensor-map fields,
// instructions, error classes and the memory interfaces every engine plugs into.
// Pure C++17, no SystemC. Every other model header builds on this one.
#ifndef TMA_TYPES_H_
#define TMA_TYPES_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tma::model {

inline constexpr int kMaxRank = 5;
inline constexpr int kMaxCtas = 16;
inline constexpr uint32_t kDescriptorBytes = 128;

// ---- Element types ------------------------------------------------------------------------
// Numbered as the CUDA driver's CUtensorMapDataType (not the hardware code, not PTX's
// tensormap.replace numbering; see docs/descriptor.md for the three schemes).
enum class DType : uint8_t {
  kU8 = 0,
  kU16 = 1,
  kU32 = 2,
  kS32 = 3,
  kU64 = 4,
  kS64 = 5,
  kF16 = 6,
  kF32 = 7,
  kF64 = 8,
  kBF16 = 9,
  kF32Ftz = 10,
  kTF32 = 11,
  kTF32Ftz = 12,
  kB4x16 = 13,     // CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B
  kB4x16P64 = 14,  // CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B
  kB6x16P32 = 15,  // CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B
};
inline constexpr int kNumDTypes = 16;

enum class Interleave : uint8_t { kNone = 0, k16B = 1, k32B = 2 };

// Values 0..6 equal CUtensorMapSwizzle; k96B (sm_103a) has no driver enum on sm_90 and is
// numbered 7 here. The golden-case strings are "none", "32B", "64B", "128B",
// "128B_atom_32B", "128B_atom_32B_flip_8B", "128B_atom_64B", "96B".
enum class Swizzle : uint8_t {
  kNone = 0,
  k32B = 1,
  k64B = 2,
  k128B = 3,
  k128BAtom32B = 4,
  k128BAtom32BFlip8B = 5,
  k128BAtom64B = 6,
  k96B = 7,
};

enum class L2Promotion : uint8_t { kNone = 0, k64B = 1, k128B = 2, k256B = 3 };
enum class OobFill : uint8_t { kZero = 0, kNan = 1 };  // kNan = NAN_REQUEST_ZERO_FMA
enum class MapMode : uint8_t { kTiled = 0, kIm2col = 1, kIm2colWide = 2 };
enum class WideMode : uint8_t { kW = 0, kW128 = 1 };

// ---- Tensor map (decoded) -----------------------------------------------------------------
// All arrays innermost first. Entries at or beyond `rank` are unused and kept at their
// neutral value (dims 1, strides 0, box 1, element strides 1).
struct TensorMap {
  MapMode mode = MapMode::kTiled;
  uint64_t global_address = 0;
  int rank = 1;  // 1..5
  DType dtype = DType::kU8;
  std::array<uint64_t, kMaxRank> dims{1, 1, 1, 1, 1};             // 1 .. 2^32
  std::array<uint64_t, kMaxRank - 1> strides{0, 0, 0, 0};         // bytes, of dims 1..rank-1
  std::array<uint32_t, kMaxRank> box{1, 1, 1, 1, 1};              // tiled: 1..256
  std::array<uint32_t, kMaxRank> element_strides{1, 1, 1, 1, 1};  // 1..8
  Interleave interleave = Interleave::kNone;
  Swizzle swizzle = Swizzle::kNone;
  L2Promotion l2_promotion = L2Promotion::kNone;
  OobFill oob_fill = OobFill::kZero;
  // im2col / im2col-wide. Corners innermost first (W, H, D); im2col-wide uses entry 0 only.
  std::array<int32_t, kMaxRank - 2> lower{0, 0, 0};
  std::array<int32_t, kMaxRank - 2> upper{0, 0, 0};
  uint32_t channels_per_pixel = 1;  // 1..256
  uint32_t pixels_per_column = 1;   // 1..1024
  WideMode wide_mode = WideMode::kW;

  bool operator==(const TensorMap& o) const;
  bool operator!=(const TensorMap& o) const { return !(*this == o); }
};

// ---- Errors -------------------------------------------------------------------------------
// The error classes of shared/spec/golden-cases.md, in that order.
enum class ErrorClass : uint8_t {
  kNone = 0,
  kInvalidDescriptor,
  kMisaligned,
  kMisalignedCoordinate,
  kInvalidCoordinate,
  kUnsupportedReduction,
  kInvalidInstruction,
  kUnsupported,
  kBusError,
};

// A verdict: ok, or an error class plus the field it concerns and a human-readable reason.
struct Status {
  ErrorClass cls = ErrorClass::kNone;
  std::string field;    // e.g. "boxDim[0]", "coords[0]", "dstMem"
  std::string message;  // one sentence: what is wrong and why

  bool ok() const { return cls == ErrorClass::kNone; }
  static Status Ok() { return {}; }
  static Status Error(ErrorClass c, std::string f, std::string m) {
    return Status{c, std::move(f), std::move(m)};
  }
  std::string ToString() const;  // "invalid_descriptor: boxDim[0]: must be 1..256 (got 300)"
};

// ---- Instructions -------------------------------------------------------------------------
enum class Op : uint8_t { kLoad = 0, kStore, kReduce, kPrefetch };
enum class LoadMode : uint8_t {
  kTile = 0,
  kIm2col,
  kIm2colW,
  kIm2colW128,
  kTileGather4,
  kTileScatter4,
  kIm2colNoOffs,
};
enum class RedOp : uint8_t { kAdd = 0, kMin, kMax, kInc, kDec, kAnd, kOr, kXor };
enum class SmemSpace : uint8_t { kSharedCluster = 0, kSharedCta };

// One decoded cp{.reduce}.async.bulk{.prefetch}.tensor instruction, as the PTX front end
// or a golden case produces it. Shared-memory addresses are offsets inside a CTA's shared
// window; each window starts at an address that is 0 mod 1024 (golden-cases.md).
struct TensorInstr {
  Op op = Op::kLoad;
  LoadMode mode = LoadMode::kTile;
  int dim = 1;  // the .Nd qualifier
  RedOp redop = RedOp::kAdd;
  std::vector<int32_t> coords;        // tensorCoords; gather4/scatter4: {col, row0..row3}
  std::vector<uint16_t> im2col_info;  // offsets (im2col) or {wHalo, wOffset} (im2col::w*)
  SmemSpace smem_space = SmemSpace::kSharedCluster;
  uint32_t smem_addr = 0;  // dstMem (load) / srcMem (store, reduce)
  uint32_t mbar_addr = 0;  // load only
  int issuer_cta = 0;      // %cluster_ctarank of the issuing CTA
  int dst_cta = -1;        // non-multicast shared::cluster destination CTA; -1 = issuer
  bool multicast = false;
  uint16_t cta_mask = 0;
  int cta_group = 0;  // 0 = not given, 1 or 2
  std::optional<uint64_t> cache_policy;
  // The CTA whose shared memory holds `mbar` (loads); -1 = the destination CTA. Only
  // .cta_group::2 routes by it (tensor-semantics.md §10): each destination's complete-tx goes
  // to the CTA of its pair with mbar_cta's %cluster_ctarank parity (RouteCompleteTx).
  int mbar_cta = -1;
};

// ---- Completion -----------------------------------------------------------------------------
// One mbarrier complete-tx the engine signals: to CTA `cta`, on the mbarrier at `mbar_addr`
// (offset in that CTA's window), carrying `bytes`.
struct CompleteTx {
  int cta = 0;
  uint32_t mbar_addr = 0;
  uint32_t bytes = 0;
  bool operator==(const CompleteTx& o) const {
    return cta == o.cta && mbar_addr == o.mbar_addr && bytes == o.bytes;
  }
};

// ---- Memory interfaces ------------------------------------------------------------------------
// Global memory, byte addressed. Read/Write return false for a bus error.
class GlobalMemoryIf {
 public:
  virtual ~GlobalMemoryIf() = default;
  virtual bool Read(uint64_t addr, uint8_t* dst, size_t n) = 0;
  virtual bool Write(uint64_t addr, const uint8_t* src, size_t n) = 0;
};

// The shared-memory windows of a cluster: CTA `cta` (0 .. NumCtas()-1), offset `addr` in its
// window. Read/Write return false for an access outside the window.
class SharedMemoryIf {
 public:
  virtual ~SharedMemoryIf() = default;
  virtual int NumCtas() const = 0;
  virtual bool Read(int cta, uint32_t addr, uint8_t* dst, size_t n) = 0;
  virtual bool Write(int cta, uint32_t addr, const uint8_t* src, size_t n) = 0;
};

// ---- Names ----------------------------------------------------------------------------------
// The golden-case / PTX spellings. Parse functions return std::nullopt for an unknown name.
const char* ToString(DType t);  // "u8" ... "b6x16_p32"
const char* ToString(Interleave v);
const char* ToString(Swizzle v);
const char* ToString(L2Promotion v);
const char* ToString(OobFill v);
const char* ToString(ErrorClass v);  // "invalid_descriptor", ...; kNone -> "ok"
const char* ToString(Op v);
const char* ToString(LoadMode v);  // "tile", "im2col", "im2col::w", ...
const char* ToString(RedOp v);
std::optional<DType> ParseDType(const std::string& s);
std::optional<Interleave> ParseInterleave(const std::string& s);
std::optional<Swizzle> ParseSwizzle(const std::string& s);
std::optional<L2Promotion> ParseL2Promotion(const std::string& s);
std::optional<OobFill> ParseOobFill(const std::string& s);
std::optional<ErrorClass> ParseErrorClass(const std::string& s);
std::optional<Op> ParseOp(const std::string& s);
std::optional<LoadMode> ParseLoadMode(const std::string& s);
std::optional<RedOp> ParseRedOp(const std::string& s);

// Element sizes. ElementBits is 4 or 6 for the packed sub-byte types. ElementBytes is the
// "E" of the driver's encoder rules: whole-byte types their size, sub-byte types 1 (the
// encoder rules count them per byte; the packed layouts are in traversal.h / element.h and
// docs/descriptor.md).
int ElementBits(DType t);
bool IsSubByte(DType t);
bool IsFloat(DType t);  // f16, f32, f64, bf16, f32.ftz, tf32, tf32.ftz
int ElementBytes(DType t);

}  // namespace tma::model

#endif  // TMA_TYPES_H_
