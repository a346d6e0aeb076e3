// SPDX-License-Identifier: Apache-2.0
//
// Command sequences of the bench. Every sequence places its tensors and descriptors in the
// bench's global memory, gives each command its own shared-memory region, mbarrier and tag,
// and keeps at most `max_outstanding` commands in flight (the scoreboard retires them).
//   RandomTileSeq   random tile loads from the legal space (encoder rules of
//                   shared/spec/silicon-findings.md: ranks 1..5, all whole-byte types,
//                   swizzles, interleave, element strides, OOB on every side, multicast),
//                   with `illegal_pct` percent mutated into errors (misaligned coordinate,
//                   misaligned dstMem, invalid descriptor, bus error on data/descriptor).
//   RandomMixSeq    every load mode and op the RTL has (tile, im2col, interleaved, gather4,
//                   im2col::w, im2col::w::128, .cta_group::2; stores, reductions,
//                   prefetches), `illegal_pct` percent spoiled by a fault of the mode.
//   DirectedSeq     named feature lists: "tile2d" (the H100 vectors V1..V9 of
//                   tensor-semantics.md 14b), "ranks", "dtypes", "swizzle", "multicast",
//                   "errors" (also a multicast with ctaMask 0), "bus_error", "desc_cache";
//                   "all" is all of these. Not in "all": "rtl_buserr_fill", the reproducer
//                   of RTL finding 1 (docs/verification.md, RTL findings).
#ifndef TMA_TB_SEQ_TMA_SEQS_H_
#define TMA_TB_SEQ_TMA_SEQS_H_

#include <cstdint>
#include <random>
#include <string>

#include "agents/tma_items.h"
#include "env/tma_env.h"
#include "tma/types.h"
#include "uvm/uvm.h"

namespace tma::tb {

// Global-memory address allocators, shared by every sequence of a test: a descriptor address
// is never handed out twice, so no engine can hit a stale descriptor-cache entry (a
// sequence that rewrites a map in place pulses desc_inval_i instead).
struct SeqAlloc {
  uint64_t next_tensor = 0x100000000ull;
  uint64_t next_desc = 0x08000000ull;
};

struct SeqContext {
  PatternMemory* gmem = nullptr;
  SeqAlloc* alloc = nullptr;  // nullptr: the sequence's own
  TmaScoreboard* scb = nullptr;
  int num_ctas = 1;
  uint32_t window_bytes = 65536;
  uint64_t seed = 1;
  int max_outstanding = 4;
};

class TmaBaseSeq : public uvm::Sequence<TmaCommand> {
 public:
  void SetContext(const SeqContext& c);
  uint64_t issued() const { return issued_; }

 protected:
  // Places `map` (at a fresh global region unless reuse_desc) and issues a load of it.
  // instr.smem_addr is allocated unless `fixed_smem` >= 0 (an offset added to a fresh,
  // 1024-aligned region). Returns false if the map does not fit.
  struct IssueOpts {
    int64_t fixed_smem = -1;    // >= 0: offset added to a fresh 1024-aligned region
    bool reuse_desc = false;    // use the previous descriptor address
    bool rewrite_desc = false;  // with reuse_desc: write `map` there and pulse desc_inval
    uint32_t desc_err = 0;      // AXI error code for reads of the descriptor
    uint32_t data_err = 0;      // AXI error code for reads of the tensor
  };
  bool IssueLoad(tma::model::TensorMap map, tma::model::TensorInstr instr, const IssueOpts& o);
  bool IssueLoad(tma::model::TensorMap map, tma::model::TensorInstr instr) {
    return IssueLoad(std::move(map), std::move(instr), IssueOpts{});
  }
  // Fresh 1 MiB-spaced global region for a tensor.
  uint64_t NewTensorBase();
  void WaitAllRetired();
  SeqContext ctx_;
  std::mt19937_64 rng_;
  uint64_t last_desc_ = 0;

 private:
  uint8_t NextTag();
  uint32_t AllocSmem(uint32_t bytes, uint32_t align);
  SeqAlloc own_alloc_;
  uint32_t smem_next_ = 0;
  uint8_t tag_ = 0;
  uint64_t issued_ = 0;
};

class RandomTileSeq : public TmaBaseSeq {
 public:
  int count = 50;
  int illegal_pct = 0;
  int multicast_pct = 25;
  int interleave_pct = 10;
  int reuse_pct = 20;
  uint32_t max_tx_bytes = 4096;

 protected:
  void Body() override;
  // A random legal tile load (kept if ValidateTensorMap and CheckInstruction at sm_90 accept).
  bool RandomMap(tma::model::TensorMap* m, tma::model::TensorInstr* in);
};

// Every load mode the RTL has and the store / reduction / prefetch ops, with errors of every
// class the mode can raise: tile loads (RandomTileSeq's space), im2col (rank 3..5, corners,
// offsets, pixels per column), interleaved tile and im2col, and at sm_100+ (`arch`)
// tile::gather4, im2col::w, im2col::w::128, 128B-atom swizzles and .cta_group::2; at sm_90
// those forms are issued too (`unsupported`). Stores and reductions (`store_pct`,
// `reduce_pct`; random .redop) reuse a load's map and box with srcMem in the issuer's window
// (at sm_100+ `store_pct` + `reduce_pct` of the gather4 loads become tile::scatter4 stores);
// prefetches (`prefetch_pct`). `illegal_pct` percent are spoiled by a fault of the mode (F1,
// F2, F3, F4, .Nd, mode / map mismatch, bad descriptor, ctaMask 0, SLVERR / DECERR on the
// tensor or the descriptor).
class RandomMixSeq : public RandomTileSeq {
 public:
  int im2col_pct = 30;
  int sm100_pct = 30;  // gather4 / im2col::w / im2col::w::128 / 128B-atom tile (any arch)
  int store_pct = 15;
  int reduce_pct = 15;
  int prefetch_pct = 5;
  tma::model::Arch arch = tma::model::Arch::kSm90;

 protected:
  void Body() override;

 private:
  int Rand(int lo, int hi);  // inclusive; lo when hi <= lo
  bool Chance(int pct) { return Rand(0, 99) < pct; }
  void RandomTileCoords(tma::model::TensorInstr& ins, const tma::model::TensorMap& m, bool inside);
  void RandomDestination(tma::model::TensorInstr& ins);
  bool MakeIm2col(tma::model::TensorMap* m, tma::model::TensorInstr* in);
  bool MakeInterleaved(tma::model::TensorMap* m, tma::model::TensorInstr* in, bool im2col);
  bool MakeSm100(tma::model::TensorMap* m, tma::model::TensorInstr* in);
  void ToStoreOrReduce(tma::model::TensorMap* m, tma::model::TensorInstr* in, bool reduce);
  void ToScatter4(tma::model::TensorMap* m, tma::model::TensorInstr* in);
  // Spoils a command with a fault its mode can raise; returns the AXI error code to put on
  // the descriptor (desc_err) or the tensor (data_err) through `o`.
  void Spoil(tma::model::TensorMap* m, tma::model::TensorInstr* in, IssueOpts* o);
};

class DirectedSeq : public TmaBaseSeq {
 public:
  std::string which = "tile2d";

 protected:
  void Body() override;
};

}  // namespace tma::tb

#endif  // TMA_TB_SEQ_TMA_SEQS_H_
