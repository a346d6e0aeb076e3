// SPDX-License-Identifier: Apache-2.0
//
// The tensor-copy engine of the reference model: checks one cp{.reduce}.async.bulk{.prefetch}
// .tensor instruction for every fault (no data moved), and executes it on a global memory and
// the shared windows of a cluster, exact to the bit (silicon-findings.md wins over
// tensor-semantics.md). An error writes nothing and signals no complete-tx.
#ifndef TMA_TENSOR_COPY_H_
#define TMA_TENSOR_COPY_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tma/encoder.h"
#include "tma/types.h"

namespace tma::model {

// One observable effect, in the order the model performs them.
struct Effect {
  enum class Kind { kSmemWrite, kGlobalWrite, kCompleteTx } kind = Kind::kSmemWrite;
  int cta = 0;        // kSmemWrite / kCompleteTx: the CTA
  uint64_t addr = 0;  // smem offset in the CTA's window, global address, or mbarrier offset
  std::vector<uint8_t> bytes;  // data written
  uint32_t tx_bytes = 0;       // kCompleteTx
  // One line:  "smem_write cta=1 addr=0x00000180 len=16 data=00112233..."
  //            "global_write addr=0x0000000000001000 len=16 data=..."
  //            "complete_tx cta=0 mbar=0x00000008 bytes=1024"
  std::string ToString() const;
};

struct ExecOptions {
  Arch arch = Arch::kSm90;
  // false = silicon D7: stores and reductions write whole 16-byte granules along dim 0 (an
  // element past dims[0] sharing a granule with an in-bounds one is written); true = only the
  // in-bounds elements (the PTX reading).
  bool element_exact_store_clip = false;
  std::function<void(const Effect&)> on_effect;  // "log every effect" mode
};

struct ExecResult {
  Status status;
  std::vector<CompleteTx> complete_tx;
  uint64_t global_bytes_read = 0;     // data bytes read from global memory (loads, reductions)
  uint64_t global_bytes_written = 0;  // stores, reductions
  uint64_t smem_bytes_written = 0;    // loads, summed over destination CTAs
};

// Every fault of `ins` on `m`, no data movement, in this order: invalid_descriptor
// (ValidateTensorMap), invalid_instruction / unsupported (qualifier, operand and mode
// combinations; multicast mask bits >= num_ctas, F6), misaligned (F2), misaligned_coordinate
// (F1), invalid_coordinate (F3, F4, offset ranges), unsupported_reduction (F5).
Status CheckInstruction(const TensorMap& m, const TensorInstr& ins, Arch arch,
                        int num_ctas = kMaxCtas);

// Executes `ins`. Loads read every in-bounds byte first (a bus error writes nothing), then write
// the box to each destination CTA and signal one complete-tx per CTA; stores and reductions
// read shared memory and probe every global destination before the first write; prefetch only
// checks. The cluster size is s.NumCtas().
ExecResult ExecuteTensor(const TensorMap& m, const TensorInstr& ins, GlobalMemoryIf& g,
                         SharedMemoryIf& s, const ExecOptions& o = {});

// Reads the 128-byte map at `tensor_map_addr` from `g` (bus_error if it cannot), decodes it
// (invalid_descriptor if it names nothing) and executes.
ExecResult ExecuteTensorAt(uint64_t tensor_map_addr, const TensorInstr& ins, GlobalMemoryIf& g,
                           SharedMemoryIf& s, const ExecOptions& o = {});

}  // namespace tma::model

#endif  // TMA_TENSOR_COPY_H_
