// SPDX-License-Identifier: Apache-2.0
//
// The bench tests (tma_tests.h).
#include "tests/tma_tests.h"

#include "tma/memory.h"

namespace tma::tb {

using uvm::ConfigDb;

void TmaBaseTest::build_phase() {
  SetKnobs();
  env = Create<TmaEnv>("env");
}

SeqContext TmaBaseTest::Context() const {
  SeqContext c;
  const auto& db = ConfigDb::Get();
  db.Lookup(this, "gmem", &c.gmem);
  tma::model::ClusterSharedMemory* smem = nullptr;
  db.Lookup(this, "smem", &smem);
  c.num_ctas = smem ? smem->NumCtas() : 1;
  c.window_bytes = smem ? smem->WindowBytes() : 65536;
  c.scb = env->scb;
  c.alloc = &alloc_;
  c.seed = db.GetOr<uint64_t>(this, "seed", 1);
  c.max_outstanding = db.GetOr<int>(this, "max_outstanding", 4);
  return c;
}

void TmaBaseTest::RunDirected(const std::string& which) {
  DirectedSeq s;
  s.which = which;
  s.SetContext(Context());
  s.Start(env->cmd->sequencer);
}

void TmaBaseTest::RunRandom(int count, int illegal_pct) {
  RandomTileSeq s;
  s.count = count;
  s.illegal_pct = illegal_pct;
  s.SetContext(Context());
  s.Start(env->cmd->sequencer);
}

void TmaBaseTest::RunMixed(int count, int illegal_pct) {
  RandomMixSeq s;
  s.count = count;
  s.illegal_pct = illegal_pct;
  s.arch = static_cast<tma::model::Arch>(
      ConfigDb::Get().GetOr<int>(this, "arch", static_cast<int>(tma::model::Arch::kSm90)));
  s.SetContext(Context());
  s.Start(env->cmd->sequencer);
}

void TmaBaseTest::run_phase() {
  RaiseObjection("test");
  TmaIf* vif = nullptr;
  ConfigDb::Get().Lookup(this, "vif", &vif);
  vif->rst_n.write(false);
  sc_core::wait(4, sc_core::SC_NS);
  vif->rst_n.write(true);
  sc_core::wait(2, sc_core::SC_NS);
  RunSequences();
  while (env->scb->outstanding() > 0) {
    env->scb->WaitRetired();
  }
  sc_core::wait(20, sc_core::SC_NS);  // stray completions or writes would show up here
  DropObjection("test");
}

void TmaBaseTest::report_phase() {
  // Numbers the regression collects (tools/regress parses "TB-STATS key=value ...").
  uvm::ReportServer::Get().stream()
      << "TB-STATS checked=" << env->scb->checked << " bytes=" << env->scb->bytes_checked
      << " skipped=" << env->scb->skipped << " errors_expected=" << env->scb->errors_expected
      << " mismatches=" << env->scb->mismatches << " coverage=" << env->cov->Percent() << "\n";
  // A test with stimulus that checked no command proves nothing (the skip policy).
  if (env->scb->checked == 0 && HasStimulus()) {
    Error("NOTHING_CHECKED",
          "no command was checked (" + std::to_string(env->scb->skipped) + " skipped)");
  }
}

namespace {
class smoke : public TmaBaseTest {
 public:
  using TmaBaseTest::TmaBaseTest;
  void RunSequences() override { RunDirected("tile2d"); }
};
class directed : public TmaBaseTest {
 public:
  using TmaBaseTest::TmaBaseTest;
  void SetKnobs() override {
    ConfigDb::Get().Set<int>("*", "arready_pct", 70);
    ConfigDb::Get().Set<int>("*", "smem_ready_pct", 70);
    ConfigDb::Get().Set<int>("*", "max_latency", 12);
  }
  void RunSequences() override {
    RunDirected(ConfigDb::Get().GetOr<std::string>(this, "directed_list", "all"));
  }
};
class random : public TmaBaseTest {
 public:
  using TmaBaseTest::TmaBaseTest;
  void RunSequences() override { RunRandom(ConfigDb::Get().GetOr<int>(this, "count", 200), 0); }
};
class stress : public TmaBaseTest {
 public:
  using TmaBaseTest::TmaBaseTest;
  void SetKnobs() override {
    auto& db = ConfigDb::Get();
    db.Set<int>("*", "cmd_valid_pct", 50);
    db.Set<int>("*", "arready_pct", 40);
    db.Set<int>("*", "rvalid_pct", 60);
    db.Set<int>("*", "smem_ready_pct", 40);
    db.Set<int>("*", "cpl_ready_pct", 30);
    db.Set<int>("*", "min_latency", 1);
    db.Set<int>("*", "max_latency", 40);
    db.Set<int>("*", "max_outstanding", 8);
  }
  void RunSequences() override { RunRandom(ConfigDb::Get().GetOr<int>(this, "count", 150), 5); }
};
class errors : public TmaBaseTest {
 public:
  using TmaBaseTest::TmaBaseTest;
  void SetKnobs() override { ConfigDb::Get().Set<int>("*", "cpl_ready_pct", 50); }
  void RunSequences() override {
    RunDirected("errors");
    RunDirected("bus_error");
    RunRandom(ConfigDb::Get().GetOr<int>(this, "count", 100), 30);
  }
};
class perf : public TmaBaseTest {
 public:
  using TmaBaseTest::TmaBaseTest;
  void SetKnobs() override { ConfigDb::Get().Set<int>("*", "max_outstanding", 8); }
  void RunSequences() override { RunRandom(ConfigDb::Get().GetOr<int>(this, "count", 2000), 0); }
};
// Every load mode, stores, reductions and prefetches (RandomMixSeq), a tenth spoiled, under
// moderate back-pressure on every port; run at each arch and cluster size (--arch, --ctas).
class mixed : public TmaBaseTest {
 public:
  using TmaBaseTest::TmaBaseTest;
  void SetKnobs() override {
    auto& db = ConfigDb::Get();
    db.Set<int>("*", "cmd_valid_pct", 80);
    db.Set<int>("*", "arready_pct", 70);
    db.Set<int>("*", "rvalid_pct", 80);
    db.Set<int>("*", "smem_ready_pct", 70);
    db.Set<int>("*", "cpl_ready_pct", 70);
    db.Set<int>("*", "max_latency", 24);
    db.Set<int>("*", "max_outstanding", 6);
  }
  void RunSequences() override { RunMixed(ConfigDb::Get().GetOr<int>(this, "count", 200), 10); }
};
// The same space with 45 % of the commands spoiled: every error class of every mode.
class mixed_errors : public TmaBaseTest {
 public:
  using TmaBaseTest::TmaBaseTest;
  void SetKnobs() override { ConfigDb::Get().Set<int>("*", "cpl_ready_pct", 60); }
  void RunSequences() override { RunMixed(ConfigDb::Get().GetOr<int>(this, "count", 150), 45); }
};
// No stimulus: `count` idle cycles after reset (the bench's per-cycle cost, tools/regress).
class idle : public TmaBaseTest {
 public:
  using TmaBaseTest::TmaBaseTest;
  bool HasStimulus() const override { return false; }
  void RunSequences() override {
    sc_core::wait(ConfigDb::Get().GetOr<int>(this, "count", 100000), sc_core::SC_NS);
  }
};
const uvm::ComponentRegistrar<smoke> kRegSmoke("smoke");
const uvm::ComponentRegistrar<idle> kRegIdle("idle");
const uvm::ComponentRegistrar<directed> kRegDirected("directed");
const uvm::ComponentRegistrar<random> kRegRandom("random");
const uvm::ComponentRegistrar<stress> kRegStress("stress");
const uvm::ComponentRegistrar<errors> kRegErrors("errors");
const uvm::ComponentRegistrar<perf> kRegPerf("perf");
const uvm::ComponentRegistrar<mixed> kRegMixed("mixed");
const uvm::ComponentRegistrar<mixed_errors> kRegMixedErrors("mixed_errors");
}  // namespace

}  // namespace tma::tb
