// SPDX-License-Identifier: Apache-2.0
//
// The non-tensor bulk operations of seed 004 (PTX §9.7.9.25.4): cp.async.bulk in its four
// directions (with .multicast::cluster and .cp_mask), cp.reduce.async.bulk to shared::cluster
// and to global with every redOp x type of the seed's table, and cp.async.bulk.prefetch.L2.
//
// Shared-memory operands are (CTA, offset in that CTA's window), as in TensorInstr; global
// operands are byte addresses. Each operation validates its operands first (nothing is touched
// when it fails), then moves the data through GlobalMemoryIf / SharedMemoryIf and returns the
// complete-tx events its mbarrier completion signals (feed them to ClusterMbarriers).
//
// Size (silicon finding B1, docs/silicon-notes.md): a size that is not a multiple of 16 does
// not trap on silicon; it moves size & ~15 bytes and completes that many. That is the default
// here; `ptx_size_check` gives the PTX text's reading (invalid_instruction).
#ifndef TMA_BULK_COPY_H_
#define TMA_BULK_COPY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tma/types.h"

namespace tma::model {

// The .dst.src pair.
enum class BulkDir : uint8_t {
  kGlobalToSharedCta = 0,     // .shared::cta.global, mbarrier
  kGlobalToSharedCluster,     // .shared::cluster.global, mbarrier, optional multicast
  kSharedCtaToSharedCluster,  // .shared::cluster.shared::cta, mbarrier on the destination CTA
  kSharedCtaToGlobal,         // .global.shared::cta, bulk_group, optional .cp_mask
};
const char* ToString(BulkDir d);  // "shared::cta.global", ...

// The .type of cp.reduce.async.bulk.
enum class BulkType : uint8_t { kB32 = 0, kU32, kS32, kB64, kU64, kS64, kF16, kBF16, kF32, kF64 };
inline constexpr int kNumBulkTypes = 10;
const char* ToString(BulkType t);  // "b32", ... (PTX spelling without the dot)
std::optional<BulkType> ParseBulkType(const std::string& s);
int BulkTypeBytes(BulkType t);

struct BulkCopyInstr {
  BulkDir dir = BulkDir::kGlobalToSharedCta;
  uint64_t dst = 0;  // global address, or offset in the destination CTA's window
  uint64_t src = 0;  // global address, or offset in the issuer's window
  uint32_t size = 0;
  uint32_t mbar_addr = 0;  // mbarrier directions: offset in the destination CTA's window
  int issuer_cta = 0;      // %cluster_ctarank of the issuing CTA
  int dst_cta = -1;        // .shared::cluster destination (not multicast); -1 = issuer
  bool multicast = false;
  uint16_t cta_mask = 0;
  std::optional<uint64_t> cache_policy;  // a hint: no effect on data
  std::optional<uint16_t> byte_mask;     // .cp_mask: bit i = byte i of every 16-byte chunk
  bool ptx_size_check = false;           // size % 16 != 0: invalid_instruction (else B1)
};

struct BulkReduceInstr {
  BulkDir dir = BulkDir::kSharedCtaToGlobal;  // or kSharedCtaToSharedCluster
  RedOp redop = RedOp::kAdd;
  BulkType type = BulkType::kU32;
  bool noftz = false;  // .add.noftz (required for f16 / bf16 add)
  uint64_t dst = 0;
  uint32_t src = 0;
  uint32_t size = 0;
  uint32_t mbar_addr = 0;  // shared::cluster form
  int issuer_cta = 0;
  int dst_cta = -1;  // shared::cluster form; -1 = issuer
  std::optional<uint64_t> cache_policy;
  bool ptx_size_check = false;  // size % 16 != 0: invalid_instruction (else B1)
};

struct BulkPrefetchInstr {
  uint64_t src = 0;
  uint32_t size = 0;
  std::optional<uint64_t> cache_policy;
  bool ptx_size_check = false;  // size % 16 != 0: invalid_instruction (else B1)
};

struct BulkResult {
  Status status;
  std::vector<CompleteTx> complete_tx;  // mbarrier completion (one per destination CTA)
  bool bulk_group = false;              // tracked by the issuer's bulk async-group instead
};

// Seed 004 line 338-349: the redOp x type table of cp.reduce.async.bulk for the given
// destination, plus the .noftz rules of lines 293-303 and 333-336 (f16/bf16 add requires
// .noftz; .noftz only on .add of f16/bf16 to .global). kUnsupportedReduction otherwise,
// field "redOp.type" (or ".noftz").
Status BulkReduceSupported(BulkDir dir, RedOp op, BulkType type, bool noftz);

// The bytes a bulk operation of `size` moves: size, or (silicon B1) size & ~15.
uint32_t BulkMovedBytes(uint32_t size, bool ptx_size_check);

// Operand checks only (what Execute* does before touching memory).
Status CheckBulkCopy(const BulkCopyInstr& in, int num_ctas);
Status CheckBulkReduce(const BulkReduceInstr& in, int num_ctas);
Status CheckBulkPrefetch(const BulkPrefetchInstr& in);

BulkResult ExecuteBulkCopy(const BulkCopyInstr& in, GlobalMemoryIf& gmem, SharedMemoryIf& smem);
// Element by element dst <- redOp(dst, src) with ReduceElement (reduce.h); f32 add flushes
// subnormal inputs and results to sign-preserving zero (seed 004 line 334), bf16/f16 add
// keep them (.noftz), f64 add is IEEE round-to-nearest-even.
BulkResult ExecuteBulkReduce(const BulkReduceInstr& in, GlobalMemoryIf& gmem, SharedMemoryIf& smem);
// A hint: validates the operands, touches nothing, signals nothing.
BulkResult ExecuteBulkPrefetch(const BulkPrefetchInstr& in);

}  // namespace tma::model

#endif  // TMA_BULK_COPY_H_
