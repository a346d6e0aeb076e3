// SPDX-License-Identifier: Apache-2.0
//
// Replaying golden cases through an engine and comparing the result with the case's `expect`.
// An engine is anything that can run one case on a global memory and the shared windows of a
// cluster: the reference model (ModelEngine), and later the Verilated RTL behind the SystemC
// bench (tb/), which plugs in by deriving from CaseEngine.
#ifndef TMA_GOLDEN_REPLAY_H_
#define TMA_GOLDEN_REPLAY_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tma/golden.h"
#include "tma/tensor_copy.h"
#include "tma/types.h"

namespace tma::model {

// What an engine reports for one case.
struct CaseOutcome {
  // false: this engine cannot run the case at all (a feature it does not claim, an arch it
  // does not model). The replay counts it as SKIP, never as pass. A case the engine ran and
  // answered with an `unsupported` status the case does not expect is FAIL.
  bool supported = true;
  std::string skip_reason;
  Status status;  // ok, or the error class the engine raised instead of the operation
  std::vector<CompleteTx> complete_tx;
};

class CaseEngine {
 public:
  virtual ~CaseEngine() = default;
  virtual std::string Name() const = 0;
  // Run `c` on memories already filled from the case's generators: `global` holds the buffer
  // at CaseGlobalBase(c), `smem` has c.NumCtas() windows of c.smem->bytes (prefetch: 1 x 0).
  virtual CaseOutcome Run(const GoldenCase& c, GlobalMemoryIf& global, SharedMemoryIf& smem) = 0;
};

// The reference model (tensor_copy.h). ExecOptions come from the case: arch, store_clip.
class ModelEngine : public CaseEngine {
 public:
  std::string Name() const override { return "model"; }
  CaseOutcome Run(const GoldenCase& c, GlobalMemoryIf& global, SharedMemoryIf& smem) override;
  // Called for every memory write and complete-tx (`tma exec --log-effects`).
  void set_on_effect(std::function<void(const Effect&)> fn) { on_effect_ = std::move(fn); }

 private:
  std::function<void(const Effect&)> on_effect_;
};

// Where a replay puts the global buffer: kGoldenGlobalBase, or, for a case with
// descriptor_hex, the descriptor's address minus global.offset.
uint64_t CaseGlobalBase(const GoldenCase& c);
// The map a case uses: decoded from descriptor_hex when present, else CaseTensorMap.
Status CaseMap(const GoldenCase& c, TensorMap* map);

// A flat global buffer [base, base + size); any access outside is a bus error.
class FlatGlobalMemory : public GlobalMemoryIf {
 public:
  FlatGlobalMemory(uint64_t base, std::vector<uint8_t> bytes)
      : base_(base), bytes_(std::move(bytes)) {}
  bool Read(uint64_t addr, uint8_t* dst, size_t n) override;
  bool Write(uint64_t addr, const uint8_t* src, size_t n) override;
  uint64_t base() const { return base_; }
  const std::vector<uint8_t>& bytes() const { return bytes_; }

 private:
  uint64_t base_;
  std::vector<uint8_t> bytes_;
};

// N windows of equal size; accesses outside a window fail.
class FlatSharedMemory : public SharedMemoryIf {
 public:
  FlatSharedMemory(int ctas, const std::vector<uint8_t>& initial)
      : windows_(static_cast<size_t>(ctas), initial) {}
  int NumCtas() const override { return static_cast<int>(windows_.size()); }
  bool Read(int cta, uint32_t addr, uint8_t* dst, size_t n) override;
  bool Write(int cta, uint32_t addr, const uint8_t* src, size_t n) override;
  const std::vector<uint8_t>& window(int cta) const {
    return windows_.at(static_cast<size_t>(cta));
  }

 private:
  std::vector<std::vector<uint8_t>> windows_;
};

// The first byte that differs, located.
struct ByteMismatch {
  enum class Where { kSmem, kGlobal } where = Where::kSmem;
  int cta = 0;          // kSmem
  uint64_t offset = 0;  // from the window start / the buffer start
  int expected = -1;    // -1: unknown (sha256 comparison only)
  int actual = -1;
  std::string element;  // "element box (i0,i1) tensor (x0,x1)" or why none
};

enum class Verdict { kPass, kFail, kSkip };
const char* ToString(Verdict v);  // "PASS", "FAIL", "SKIP"

struct ReplayResult {
  Verdict verdict = Verdict::kPass;
  std::string reason;                      // first failure, or the skip reason
  std::vector<std::string> details;        // every check that failed, one line each
  std::optional<ByteMismatch> first_byte;  // the first differing byte, when data differ
};

// Builds the memories from the generators, runs the engine, compares with c.expect.
ReplayResult ReplayCase(const GoldenCase& c, CaseEngine& engine);

// The element that owns byte `offset` of CTA window / global buffer, as text (uses the
// model's traversal: ForEachElement + SwizzleAddress). "" when no element covers it.
std::string DescribeSmemByte(const GoldenCase& c, uint64_t offset);
std::string DescribeGlobalByte(const GoldenCase& c, uint64_t offset);

}  // namespace tma::model

#endif  // TMA_GOLDEN_REPLAY_H_
