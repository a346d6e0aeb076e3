// SPDX-License-Identifier: Apache-2.0
//
// mbarrier objects with transaction counts (PTX §9.7.13.15, digested in
// shared/spec/tensor-semantics.md §11.1) and the set of mbarriers of a cluster that the
// engine's CompleteTx events land on, including the .cta_group::2 peer routing (§10).
//
// The model is exact about the state PTX defines (phase, pending arrivals, expected arrivals,
// tx-count) and turns every case PTX calls undefined into a diagnosed error, leaving the
// barrier unchanged: tx-count leaving -(2^20-1)..2^20-1, more arrivals than are pending,
// counts out of range, use before init or after inval, stale phase tokens.
#ifndef TMA_MBARRIER_H_
#define TMA_MBARRIER_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tma/types.h"

namespace tma::model {

inline constexpr int64_t kMbarTxLimit = (int64_t{1} << 20) - 1;     // |tx-count| <= 2^20-1
inline constexpr int64_t kMbarCountLimit = (int64_t{1} << 20) - 1;  // arrivals 1..2^20-1
inline constexpr uint32_t kMbarAlign = 8;                           // 8-byte object

enum class MbarError : uint8_t {
  kOk = 0,
  kNotInitialized,  // any operation before init
  kInvalidated,     // any operation but init after inval
  kBadCount,        // init / arrive / tx count out of range
  kTxOverflow,      // expect-tx would take tx-count above 2^20-1
  kTxUnderflow,     // complete-tx would take tx-count below -(2^20-1)
  kArriveOverflow,  // more arrivals than are pending in the current phase
  kStaleToken,      // wait on a phase older than the immediately preceding one
  kStuck,           // Diagnose(): why the current phase cannot complete
  kNoBarrier,       // ClusterMbarriers: no mbarrier at that (cta, offset)
  kMisaligned,      // ClusterMbarriers: offset not 8-byte aligned
  kBadCta,          // ClusterMbarriers / routing: CTA outside the cluster or the pair
};
const char* ToString(MbarError e);  // "tx_overflow", ...

// The verdict of an mbarrier operation: ok, or an error code and one sentence.
struct MbarStatus {
  MbarError code = MbarError::kOk;
  std::string message;

  bool ok() const { return code == MbarError::kOk; }
  static MbarStatus Ok() { return {}; }
  static MbarStatus Error(MbarError c, std::string m) { return MbarStatus{c, std::move(m)}; }
  std::string ToString() const;  // "tx_overflow: expect-tx(5) would take tx-count to ..."
};

// The opaque state an arrive returns: the phase the arrival was made in.
struct MbarToken {
  uint64_t phase = 0;
  bool operator==(const MbarToken& o) const { return phase == o.phase; }
};

struct MbarArriveResult {
  MbarStatus status;
  MbarToken token;  // valid when status.ok()
};

struct MbarWaitResult {
  MbarStatus status;
  bool complete = false;  // the waited-on phase has completed
};

class Mbarrier {
 public:
  // init(count): phase 0, pending = expected = count, tx-count 0. count 1..2^20-1.
  MbarStatus Init(int64_t count);
  // expect-tx(n): tx-count += n, n 0..2^20-1.
  MbarStatus ExpectTx(int64_t n);
  // complete-tx(n): tx-count -= n, n 0..2^20-1; completes the phase when it reaches zero and
  // no arrivals are pending.
  MbarStatus CompleteTx(int64_t n);
  // arrive-on(count): pending -= count, count 1..2^20-1. The token names the phase the
  // arrival was made in (the phase before a completion this arrival may trigger).
  MbarArriveResult Arrive(int64_t count = 1);
  // arrive.expect_tx: expect-tx(n), then arrive-on(1); either both happen or neither.
  MbarArriveResult ArriveExpectTx(int64_t n);
  // test_wait with a token: false while the token's phase is current, true once it
  // completed; a token older than the immediately preceding phase is kStaleToken.
  MbarWaitResult TestWait(MbarToken token) const;
  // test_wait.parity: true when the phase of parity `parity` (0 even, 1 odd), which must be
  // the current or the immediately preceding phase, has completed: current parity != parity.
  MbarWaitResult TestWaitParity(int parity) const;
  // try_wait.parity: as TestWaitParity; in this untimed model a try_wait that would block
  // returns false at once (the caller loops), as PTX allows a time-limit expiry.
  MbarWaitResult TryWaitParity(int parity) const { return TestWaitParity(parity); }
  MbarStatus Inval();

  // Why the current phase has not completed, assuming nobody arrives or signals again (the
  // caller declares all producers done): kStuck with the reason, or kNotInitialized /
  // kInvalidated. A phase that has just started with no arrivals is stuck as well.
  MbarStatus Diagnose() const;
  // True when the current phase can only complete through another expect-tx: every arrival
  // is in and complete-tx has already delivered more bytes than were expected.
  bool OverDelivered() const { return valid_ && pending_ == 0 && tx_ < 0; }

  bool initialized() const { return valid_; }
  bool invalidated() const { return invalidated_; }
  uint64_t phase() const { return phase_; }  // completed phases since init
  int parity() const { return static_cast<int>(phase_ & 1); }
  int64_t pending() const { return pending_; }
  int64_t expected() const { return expected_; }
  int64_t tx_count() const { return tx_; }

 private:
  MbarStatus CheckUsable(const char* op) const;
  void MaybeComplete();

  bool valid_ = false;
  bool invalidated_ = false;
  uint64_t phase_ = 0;
  int64_t pending_ = 0;
  int64_t expected_ = 0;
  int64_t tx_ = 0;
};

// ---- cta_group routing (tensor-semantics §10, seed 001 lines 107-113 and 152-160) -------------
// CTA pairs are ranks {2k, 2k+1}; a CTA's peer is rank ^ 1.
inline int PeerCta(int cta) {
  return cta ^ 1;
}

// The CTA whose mbarrier receives the complete-tx for data that landed in `dst_cta`, when
// `mbar` resides in the shared memory of `mbar_cta`. cta_group 0 or 1: the destination CTA
// itself. cta_group 2: the CTA of dst_cta's pair with the %cluster_ctarank parity of mbar_cta,
// i.e. (dst_cta & ~1) | (mbar_cta & 1).
int RouteCompleteTx(int dst_cta, int mbar_cta, int cta_group);

// The complete-tx events of a (possibly multicast) load that wrote `bytes` bytes into each
// destination CTA: one per set bit of `cta_mask` (or one for `dst_cta` when not multicast),
// routed with RouteCompleteTx, to the mbarrier at `mbar_addr`. Events for the same CTA are
// kept separate (a cta_group::2 pair signals one barrier twice), in ascending destination order.
std::vector<CompleteTx> CompleteTxEvents(bool multicast, uint16_t cta_mask, int dst_cta,
                                         int mbar_cta, int cta_group, uint32_t mbar_addr,
                                         uint32_t bytes);

// ---- The mbarriers of a cluster -------------------------------------------------------------
class ClusterMbarriers {
 public:
  explicit ClusterMbarriers(int num_ctas = 1) : num_ctas_(num_ctas) {}

  int num_ctas() const { return num_ctas_; }
  // mbarrier.init at (cta, offset): offset 8-byte aligned, cta inside the cluster.
  MbarStatus Init(int cta, uint32_t addr, int64_t count);
  // The barrier at (cta, addr), or nullptr if none was ever initialised there.
  Mbarrier* Find(int cta, uint32_t addr);
  const Mbarrier* Find(int cta, uint32_t addr) const;
  // One engine complete-tx event; kNoBarrier if nothing was initialised there.
  MbarStatus Apply(const CompleteTx& ev);
  // All events in order; stops at and returns the first error.
  MbarStatus ApplyAll(const std::vector<CompleteTx>& events);
  // Diagnose() of every barrier whose current phase has arrivals or tx outstanding (or that
  // over-delivered), as "cta C mbar 0xADDR: reason" lines; empty when all are at rest.
  std::vector<std::string> DiagnoseAll() const;

 private:
  MbarStatus CheckLocation(int cta, uint32_t addr) const;

  int num_ctas_;
  std::map<std::pair<int, uint32_t>, Mbarrier> bars_;
};

}  // namespace tma::model

#endif  // TMA_MBARRIER_H_
