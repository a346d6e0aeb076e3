// SPDX-License-Identifier: Apache-2.0
//
// Golden (known-answer) cases: the in-memory form of one line of a *.jsonl / *.jsonl.gz
// case file (shared/spec/golden-cases.md plus the extension keys of docs/golden-cases.md),
// the reader and writer, the memory generators (splitmix64 / const / values), sha256 and
// hex helpers, and the conversion of a case into the model's TensorMap + TensorInstr.
//
// Nothing here runs an engine; golden_replay.h does that.
#ifndef TMA_GOLDEN_H_
#define TMA_GOLDEN_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tma/bulk_copy.h"
#include "tma/types.h"

namespace tma::model {

// Where a replay places the case's global buffer (256-byte aligned, as the format requires).
// The tensor's global address is kGoldenGlobalBase + global.offset. A case that carries
// `descriptor_hex` places the buffer at (descriptor address - global.offset) instead.
inline constexpr uint64_t kGoldenGlobalBase = 0x10000000;

// A memory pattern: "splitmix64" (seed), "const" (value) or "values" (seed; elements of the
// tensor's floating-point type).
struct GoldenFill {
  enum class Kind : uint8_t { kSplitmix64, kConst, kValues };
  Kind kind = Kind::kConst;
  uint64_t seed = 0;   // splitmix64, values
  uint32_t value = 0;  // const (0..255)
};

struct GoldenGlobal {
  uint64_t bytes = 0;
  uint64_t offset = 0;  // tensor global address = buffer + offset
  GoldenFill fill;
};

struct GoldenSmem {
  uint32_t bytes = 0;  // each CTA's window
  uint32_t dst = 0;    // dstMem / srcMem offset in the window
  GoldenFill fill;
};

struct GoldenCluster {
  int ctas = 1;
  int issuer = 0;
  std::optional<uint16_t> cta_mask;  // present = .multicast::cluster
  int cta_group = 0;                 // 0 = not given
  std::optional<int> mbar_cta;       // extension: the CTA holding mbar (.cta_group::2 routing)
};

// The `bulk` extension object (docs/golden-cases.md): a non-tensor cp.async.bulk /
// cp.reduce.async.bulk / cp.async.bulk.prefetch.L2 instead of a tensor instruction. Global
// operands are offsets from the buffer start, shared operands offsets in a CTA's window.
struct GoldenBulk {
  BulkDir dir = BulkDir::kGlobalToSharedCta;  // prefetch: unused ("L2.global" in the file)
  uint32_t size = 0;
  uint64_t src = 0;
  uint64_t dst = 0;
  std::optional<BulkType> type;     // reduce
  bool noftz = false;               // reduce: .add.noftz
  std::optional<uint16_t> cp_mask;  // .cp_mask byte mask (global.shared::cta)
  // "size_check": "ptx": a size that is not a multiple of 16 is invalid_instruction (the PTX
  // text); default "silicon": it moves size & ~15 bytes (finding B1)
  bool ptx_size_check = false;
};

// The `tensor` object, kept as written (arrays may have the wrong length or out-of-range
// values in an invalid_descriptor case; CaseTensorMap checks them).
struct GoldenTensor {
  DType dtype = DType::kU8;
  int rank = 1;
  std::vector<uint64_t> dims;
  std::vector<uint64_t> strides;
  std::vector<uint32_t> element_strides;  // empty in the file = all 1
  Interleave interleave = Interleave::kNone;
  Swizzle swizzle = Swizzle::kNone;
  L2Promotion l2_promotion = L2Promotion::kNone;
  OobFill oob_fill = OobFill::kZero;
  std::vector<uint32_t> box;          // tile modes
  std::vector<int32_t> lower, upper;  // im2col modes
  uint32_t channels_per_pixel = 0;    // im2col modes
  uint32_t pixels_per_column = 0;     // im2col modes
  WideMode wide_mode = WideMode::kW;  // im2col::w*
};

struct GoldenExpect {
  std::optional<ErrorClass> error;
  // complete_tx_bytes: a number (every destination CTA) or an array indexed by CTA.
  std::vector<uint32_t> complete_tx_bytes;
  bool complete_tx_is_array = false;
  // smem / smem_sha256: one string, or an array with one entry per CTA.
  std::vector<std::string> smem;
  bool smem_is_array = false;
  std::vector<std::string> smem_sha256;
  bool smem_sha256_is_array = false;
  std::optional<std::vector<std::pair<uint64_t, std::string>>> global_diff;
  std::optional<std::string> global_sha256;
};

struct GoldenCase {
  std::string id;
  std::string source;
  std::string ptx;
  Op op = Op::kLoad;
  RedOp redop = RedOp::kAdd;
  LoadMode mode = LoadMode::kTile;
  GoldenTensor tensor;
  std::vector<int32_t> coords;
  std::vector<int32_t> im2col;
  std::optional<GoldenCluster> cluster;
  GoldenGlobal global;
  std::optional<GoldenSmem> smem;  // absent only for prefetch
  GoldenExpect expect;
  // ---- OpenTMA extension keys (docs/golden-cases.md) ----
  std::string arch = "sm_90";    // "sm_90", "sm_100a", ...
  std::optional<uint32_t> mbar;  // mbarrier offset; default DefaultMbar()
  SmemSpace smem_space = SmemSpace::kSharedCluster;
  std::optional<int> dst_cta;                 // non-multicast shared::cluster destination
  bool store_clip_element = false;            // "store_clip": "element" (default "granule")
  std::optional<std::string> descriptor_hex;  // 256 hex digits: use as the map
  std::optional<GoldenBulk> bulk;             // a non-tensor bulk operation (no tensor/coords)
  // Keys this reader does not know, kept so that a round trip preserves them.
  nlohmann::json extra = nlohmann::json::object();

  // Mbarrier offset used when the case gives none: the first 8-byte aligned offset past
  // the window (so the window's bytes never include the barrier).
  uint32_t Mbar() const;
  int NumCtas() const { return cluster ? cluster->ctas : 1; }
  int Issuer() const { return cluster ? cluster->issuer : 0; }
};

// ---- Reading and writing ------------------------------------------------------------------
// Parse one case object. On error returns false and sets *error to a sentence that names
// the case id (or says it has none) and the key.
bool ParseGoldenCase(const nlohmann::json& j, GoldenCase* out, std::string* error);
nlohmann::json GoldenCaseToJson(const GoldenCase& c);

// ---- Limits (docs/verification.md, "Limits") -----------------------------------------------
// What a case file may declare, checked before anything is allocated for it. The tools take
// --max-case-bytes / --max-line-bytes to raise them.
struct GoldenLimits {
  // global.bytes + CTAs x smem.bytes: the memory one replay allocates (it holds about three
  // images of it: the generated one, the engine's and the expected one).
  uint64_t max_case_bytes = uint64_t{256} << 20;
  // One line of a case file (one case's JSON text). Blank and comment lines are not kept.
  uint64_t max_line_bytes = uint64_t{64} << 20;
};
// Longest case id the reader accepts (ids are names; they go into replay commands and regexes).
inline constexpr size_t kGoldenMaxIdChars = 1024;
// False (and a sentence naming the limit and the option that raises it) when `c` declares more
// memory than `limits` allow.
bool CheckGoldenLimits(const GoldenCase& c, const GoldenLimits& limits, std::string* error);

// Read a .jsonl or .jsonl.gz file (gzip is detected from the content, not the name), one line
// at a time: memory is bounded by the longest line, whatever the file's size.
// Blank lines and lines starting with '#' are skipped. Errors carry "path:line: ".
// ForEachGoldenCase calls `fn` with each case as it is read; `fn` returns false to stop.
bool ForEachGoldenCase(const std::string& path, const GoldenLimits& limits,
                       const std::function<bool(GoldenCase&&)>& fn, std::string* error);
bool ReadGoldenFile(const std::string& path, std::vector<GoldenCase>* out, std::string* error,
                    const GoldenLimits& limits = GoldenLimits{});
// Write one case per line; gzip-compressed when the path ends in ".gz".
bool WriteGoldenFile(const std::string& path, const std::vector<GoldenCase>& cases,
                     std::string* error);

// ---- Generators -----------------------------------------------------------------------------
uint64_t SplitMix64(uint64_t x);
// Fill `bytes` bytes with the pattern. "values" needs a floating-point dtype (f16, bf16,
// f32, f32.ftz, tf32, tf32.ftz, f64); element i takes bytes [i*E, i*E+E), a trailing partial
// element is truncated. Returns false (and sets *error) for an unusable fill.
bool GenerateFill(const GoldenFill& fill, DType dtype, size_t bytes, std::vector<uint8_t>* out,
                  std::string* error);
// IEEE binary16 / bfloat16 from a double, round to nearest even (subnormals, inf, NaN kept).
uint16_t DoubleToF16(double v);
uint16_t DoubleToBf16(double v);

// ---- Hashing and hex ------------------------------------------------------------------------
std::string Sha256Hex(const uint8_t* data, size_t n);
std::string ToHex(const uint8_t* data, size_t n);  // lowercase, no separators
bool FromHex(const std::string& hex, std::vector<uint8_t>* out);

// ---- Conversion to the model's vocabulary -----------------------------------------------------
// The tensor map a case describes (ignoring descriptor_hex), with its global address at
// global_base + global.offset. Array lengths that disagree with `rank`, or a rank outside
// 1..5, give an invalid_descriptor status (what the driver would refuse).
Status CaseTensorMap(const GoldenCase& c, uint64_t global_base, TensorMap* map);
// The instruction a case describes. The .Nd qualifier comes from the ptx text when it has
// one ("...tensor.3d..."), else from tensor.rank.
TensorInstr CaseInstr(const GoldenCase& c);
// The CTAs a load writes: the multicast mask, else dst_cta, else the issuer. Empty for
// store / reduce / prefetch.
std::vector<int> DestinationCtas(const GoldenCase& c);
// Whether the case writes shared memory and signals mbarrier complete-tx: loads, and the
// bulk shared::cta -> shared::cluster copy and reduction.
bool CaseWritesSmem(const GoldenCase& c);
// The DType of a bulk reduction's .type (for the "values" fill): b32 -> u32, b64 -> u64.
DType BulkTypeDType(BulkType t);

}  // namespace tma::model

#endif  // TMA_GOLDEN_H_
