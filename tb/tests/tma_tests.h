// SPDX-License-Identifier: Apache-2.0
//
// Bench tests, created by name through the factory (tma-tb --test=NAME):
//   smoke        directed H100 vectors V1..V9 (tile2d)
//   directed     every directed list (tile2d, ranks, dtypes, swizzle, multicast, errors,
//                bus_error, desc_cache), or the one named by config "directed_list"
//                (tma-tb --directed=NAME; also the RTL-finding reproducers rtl_*)
//   random       random legal tile loads ("count", default 200), full-speed handshakes
//   stress       random loads with backpressure on every channel and AXI latency 1..40
//   errors       directed errors and bus errors, then random loads with 30% illegal
//   perf         long random run without backpressure (cycles per second)
//   idle         no stimulus, "count" cycles (the per-cycle cost of bench + DUT)
#ifndef TMA_TB_TESTS_TMA_TESTS_H_
#define TMA_TB_TESTS_TMA_TESTS_H_

#include <string>

#include "env/tma_env.h"
#include "seq/tma_seqs.h"
#include "uvm/uvm.h"

namespace tma::tb {

class TmaBaseTest : public uvm::Component {
 public:
  TmaBaseTest(const std::string& name, uvm::Component* parent) : uvm::Component(name, parent) {}
  void build_phase() override;
  void run_phase() override;
  void report_phase() override;
  TmaEnv* env = nullptr;

 protected:
  virtual void SetKnobs() {}      // config defaults of this test (pattern "*")
  virtual void RunSequences() {}  // the stimulus
  // False for a test without commands (idle): every other one fails when it checked none.
  virtual bool HasStimulus() const { return true; }
  SeqContext Context() const;
  void RunDirected(const std::string& which);
  void RunRandom(int count, int illegal_pct);
  // Every mode and op (RandomMixSeq) at the bench's arch (config "arch").
  void RunMixed(int count, int illegal_pct);
  mutable SeqAlloc alloc_;  // shared by all sequences of the test
};

}  // namespace tma::tb

#endif  // TMA_TB_TESTS_TMA_TESTS_H_
