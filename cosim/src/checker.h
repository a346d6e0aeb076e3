// SPDX-License-Identifier: Apache-2.0
//
// The mbarrier / async-proxy checker (otma_checker): a mirror of the cluster's mbarriers on the
// model's ClusterMbarriers, fed by the host's init / arrive / expect_tx events and by the
// engines' complete_tx and shared-memory writes, plus the shared-memory stages TMA wrote and
// no consumer has released yet. The five report classes and the exact rules are in
// docs/cosim/abi.md ("Checker").
#ifndef OTMA_CHECKER_H_
#define OTMA_CHECKER_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "opentma/cosim.h"
#include "tma/mbarrier.h"

struct otma_checker {
 public:
  explicit otma_checker(const otma_checker_config& cfg);

  // Host events.
  void MbarInit(uint32_t rank, uint32_t mbar, uint32_t count);
  void ArriveExpectTx(uint32_t rank, uint32_t mbar, uint32_t tx);
  void ExpectTx(uint32_t rank, uint32_t mbar, uint32_t tx);
  void Release(uint32_t rank, uint32_t addr, uint32_t n);
  void Finish(uint64_t cycle);

  // Engine events. OpIssued records, per destination barrier, the phase the op was issued in.
  struct Dest {
    uint32_t rank;
    uint32_t mbar;
  };
  void OpIssued(otma_token op, const std::vector<Dest>& dests, bool multicast, uint32_t issuer,
                uint64_t cycle);
  void CompleteTx(otma_token op, uint32_t rank, uint32_t mbar, uint32_t bytes, uint64_t cycle);
  void OpRetired(otma_token op);
  void TmaSmemWrite(otma_token op, uint32_t rank, uint32_t addr, uint32_t n, uint64_t cycle);

  uint32_t Count(uint32_t cls) const;

 private:
  struct Key {
    uint32_t rank;
    uint32_t mbar;
    bool operator<(const Key& o) const { return rank != o.rank ? rank < o.rank : mbar < o.mbar; }
  };
  struct PhaseInfo {
    bool armed = false;       // an expect_tx was made in the current phase
    bool ever_armed = false;  // in any phase so far
  };
  struct InFlight {
    bool multicast = false;
    uint32_t issuer = 0;
    bool reported = false;
    std::map<Key, uint64_t> phase_at_issue;  // destinations still to deliver
  };
  void Report(uint32_t cls, uint32_t rank, uint32_t addr, otma_token op, uint64_t cycle,
              const std::string& msg);
  void AfterChange(const Key& k, uint64_t old_phase, uint64_t cycle);

  otma_checker_config cfg_;
  tma::model::ClusterMbarriers bars_;
  std::map<Key, PhaseInfo> phase_;
  std::map<otma_token, InFlight> ops_;
  // Unreleased TMA-written shared-memory ranges per rank: start -> (end, op).
  std::map<uint32_t, std::map<uint32_t, std::pair<uint32_t, otma_token>>> stages_;
  uint32_t counts_[OTMA_CHK_NUM_CLASSES] = {};
  uint64_t last_cycle_ = 0;
};

#endif  // OTMA_CHECKER_H_
