// SPDX-License-Identifier: Apache-2.0
//
// Unit tests of the testbench's UVM-style layer (tb/uvm/): report counts and exit code,
// config store, factory, phase order, objections and the watchdog, sequences (pull model),
// analysis ports and fifos, coverage percentages. Several tests run the SystemC kernel; the
// root pauses it at the end of each run phase, so they can share one process.
#include "uvm/uvm.h"

#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace tma::tb::uvm {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

class Fresh : public ::testing::Test {
 protected:
  void SetUp() override {
    ReportServer::Get().Reset();
    ReportServer::Get().SetStream(&log_);
    ReportServer::Get().SetVerbosity(kMedium);
    ConfigDb::Get().Clear();
    Factory::Get().ClearOverrides();
    Root::Get().Clear();
    Root::Get().EnableTrace(false);
    Root::Get().SetTimeout(sc_time(10, sc_core::SC_US));
  }
  void TearDown() override {
    Root::Get().Clear();
    ReportServer::Get().SetStream(nullptr);
  }
  std::ostringstream log_;
};

// ---- report server ----
TEST_F(Fresh, ReportCountsAndExitCode) {
  auto& rs = ReportServer::Get();
  TMA_UVM_INFO("A", "shown", kLow);
  TMA_UVM_INFO("A", "hidden " << 1, kHigh);  // above kMedium: neither printed nor counted
  TMA_UVM_WARNING("B", "careful");
  EXPECT_EQ(rs.Count(Severity::kInfo), 1);
  EXPECT_EQ(rs.Count(Severity::kWarning), 1);
  EXPECT_EQ(rs.ExitCode(), 0) << "warnings alone must not fail a run";
  EXPECT_EQ(log_.str().find("hidden"), std::string::npos);
  TMA_UVM_ERROR("C", "broken " << 42);
  EXPECT_EQ(rs.Count(Severity::kError), 1);
  EXPECT_EQ(rs.CountId("C"), 1);
  EXPECT_EQ(rs.CountId("A"), 1);
  EXPECT_EQ(rs.ExitCode(), 1);
  EXPECT_NE(log_.str().find("ERROR"), std::string::npos);
  EXPECT_NE(log_.str().find("[C] broken 42"), std::string::npos);
  rs.SetVerbosity(kDebug);
  TMA_UVM_INFO("A", "now shown", kHigh);
  EXPECT_EQ(rs.Count(Severity::kInfo), 2);
}

TEST_F(Fresh, FatalOutsideSimulationThrows) {
  EXPECT_THROW(TMA_UVM_FATAL("F", "stop"), FatalError);
  EXPECT_EQ(ReportServer::Get().Count(Severity::kFatal), 1);
  EXPECT_EQ(ReportServer::Get().ExitCode(), 1);
}

// ---- config store ----
TEST_F(Fresh, ConfigGlobAndSpecificity) {
  EXPECT_TRUE(GlobMatch("*", "a.b.c"));
  EXPECT_TRUE(GlobMatch("a.*.c", "a.b.c"));
  EXPECT_TRUE(GlobMatch("*agent*", "top.env.axi_agent.drv"));
  EXPECT_FALSE(GlobMatch("a.*.d", "a.b.c"));
  EXPECT_FALSE(GlobMatch("a.b", "a.b.c"));
  auto& db = ConfigDb::Get();
  db.Set<int>("*", "latency", 1);
  db.Set<int>("top.env.axi*", "latency", 7);
  db.Set<int>("*", "latency", 2);  // less specific than the axi entry even though later
  int v = 0;
  ASSERT_TRUE(db.Lookup("top.env.axi_agent", "latency", &v));
  EXPECT_EQ(v, 7);
  ASSERT_TRUE(db.Lookup("top.env.cmd_agent", "latency", &v));
  EXPECT_EQ(v, 2);
  EXPECT_FALSE(db.Lookup("top", "missing", &v));
  std::string s;
  EXPECT_FALSE(db.Lookup("top", "latency", &s));  // wrong type: reported, not returned
  EXPECT_EQ(ReportServer::Get().CountId("CFGTYPE"), 1);
}

// ---- factory ----
class Leaf : public Component {
 public:
  using Component::Component;
  std::string type_name() const override { return "Leaf"; }
};
class BetterLeaf : public Leaf {
 public:
  using Leaf::Leaf;
  std::string type_name() const override { return "BetterLeaf"; }
};
TMA_UVM_COMPONENT_REGISTER(Leaf);
TMA_UVM_COMPONENT_REGISTER(BetterLeaf);

class Thing : public Object {
 public:
  std::string type_name() const override { return "Thing"; }
};
TMA_UVM_OBJECT_REGISTER(Thing);

TEST_F(Fresh, FactoryCreatesAndOverrides) {
  auto& f = Factory::Get();
  auto a = f.CreateComponent("Leaf", "a", nullptr);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->type_name(), "Leaf");
  f.SetTypeOverride("Leaf", "BetterLeaf");
  auto b = f.CreateComponent("Leaf", "b", nullptr);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->type_name(), "BetterLeaf");
  EXPECT_TRUE(f.Create<Thing>("Thing"));
  EXPECT_FALSE(f.CreateComponent("NoSuchThing", "c", nullptr));
  EXPECT_EQ(ReportServer::Get().ExitCode(), 1);
}

// ---- phases ----
class Node : public Component {
 public:
  Node(const std::string& n, Component* p, int depth = 0) : Component(n, p), depth_(depth) {}
  void build_phase() override {
    if (depth_ > 0) {
      Create<Node>("l", depth_ - 1);
      Create<Node>("r", depth_ - 1);
    }
  }
  void run_phase() override {
    if (depth_ == 2) {
      RaiseObjection("work");
      sc_core::wait(100, SC_NS);
      end_ = sc_core::sc_time_stamp();
      DropObjection("work");
    }
  }
  sc_time end_;

 private:
  int depth_;
};

TEST_F(Fresh, PhaseOrderAndObjections) {
  Root::Get().EnableTrace(true);
  Node top("top", &Root::Get(), 2);
  sc_time t0 = sc_core::sc_time_stamp();
  EXPECT_EQ(Root::Get().RunPhases(&top), 0);
  EXPECT_EQ(top.end_ - t0, sc_time(100, SC_NS));
  EXPECT_EQ(sc_core::sc_time_stamp(), top.end_) << "run phase ends when the objection drops";
  std::vector<std::string> want_build = {"build:top",     "build:top.l", "build:top.l.l",
                                         "build:top.l.r", "build:top.r", "build:top.r.l",
                                         "build:top.r.r"};
  const auto& tr = Root::Get().trace();
  ASSERT_GE(tr.size(), 7u * 8);
  for (size_t i = 0; i < want_build.size(); ++i) {
    EXPECT_EQ(tr[i], want_build[i]);
  }
  // connect is bottom-up: children before their parent.
  EXPECT_EQ(tr[7], "connect:top.l.l");
  EXPECT_EQ(tr[9], "connect:top.l");
  EXPECT_EQ(tr[13], "connect:top");
  // Phase blocks come in the UVM order.
  std::vector<std::string> phases;
  for (const auto& e : tr) {
    std::string p = e.substr(0, e.find(':'));
    if (phases.empty() || phases.back() != p) {
      phases.push_back(p);
    }
  }
  EXPECT_EQ(phases,
            (std::vector<std::string>{"build", "connect", "end_of_elaboration",
                                      "start_of_simulation", "run", "extract", "check", "report"}));
}

class Stuck : public Component {
  sc_core::sc_event never_;

 public:
  using Component::Component;
  void run_phase() override {
    RaiseObjection("never dropped");
    sc_core::wait(never_);  // forever
  }
};

TEST_F(Fresh, WatchdogEndsAHungRunPhaseWithAnError) {
  Root::Get().SetTimeout(sc_time(1, sc_core::SC_US));
  Stuck s("stuck", &Root::Get());
  sc_time t0 = sc_core::sc_time_stamp();
  EXPECT_EQ(Root::Get().RunPhases(&s), 1);
  EXPECT_EQ(sc_core::sc_time_stamp() - t0, sc_time(1, sc_core::SC_US));
  EXPECT_EQ(ReportServer::Get().CountId("TIMEOUT"), 1);
  EXPECT_NE(log_.str().find("never dropped"), std::string::npos) << log_.str();
}

class CheckFails : public Component {
 public:
  using Component::Component;
  void check_phase() override { Error("MISMATCH", "expected 1 got 2"); }
};

TEST_F(Fresh, AnErrorInCheckPhaseFailsTheRun) {
  CheckFails c("c", &Root::Get());
  EXPECT_EQ(Root::Get().RunPhases(&c), 1);
  EXPECT_EQ(ReportServer::Get().Count(Severity::kError), 1);
}

// ---- sequences ----
struct Item : SequenceItem {
  int value = 0;
};

class CountSeq : public Sequence<Item> {
 public:
  explicit CountSeq(int n) : n_(n) {}
  void Body() override {
    for (int i = 0; i < n_; ++i) {
      Item it;
      it.id = i;
      it.value = 10 * i;
      Send(it);
      done_at.push_back(sc_core::sc_time_stamp());
    }
  }
  std::vector<sc_time> done_at;

 private:
  int n_;
};

class SeqEnv : public Component {
 public:
  using Component::Component;
  void build_phase() override { sqr = Create<Sequencer<Item>>("sqr"); }
  void run_phase() override {
    RaiseObjection("seq");
    SpawnThread("driver", [this] {
      while (true) {
        Item it = sqr->GetNextItem();
        sc_core::wait(10, SC_NS);
        got.push_back(it.value);
        sqr->ItemDone();
      }
    });
    start = sc_core::sc_time_stamp();
    seq.Start(sqr);
    DropObjection("seq");
  }
  Sequencer<Item>* sqr = nullptr;
  CountSeq seq{5};
  std::vector<int> got;
  sc_time start;
};

TEST_F(Fresh, SequenceSendBlocksUntilItemDone) {
  SeqEnv env("env", &Root::Get());
  EXPECT_EQ(Root::Get().RunPhases(&env), 0);
  EXPECT_EQ(env.got, (std::vector<int>{0, 10, 20, 30, 40}));
  ASSERT_EQ(env.seq.done_at.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(env.seq.done_at[i] - env.start, sc_time(10 * (i + 1), SC_NS));
  }
  EXPECT_EQ(env.sqr->sent(), 5u);
  EXPECT_EQ(env.sqr->done(), 5u);
}

TEST_F(Fresh, ItemDoneWithoutItemIsAnError) {
  Sequencer<Item> s("s", nullptr);
  Item it;
  EXPECT_FALSE(s.TryNextItem(&it));
  s.ItemDone();
  EXPECT_EQ(ReportServer::Get().CountId("SQRDONE"), 1);
}

// ---- analysis ----
class Sink {
 public:
  void Take(const int& v) { got.push_back(v); }
  std::vector<int> got;
};

TEST_F(Fresh, AnalysisPortBroadcasts) {
  AnalysisPort<int> port;
  Sink sink;
  AnalysisImp<int, Sink> imp(&sink, &Sink::Take);
  AnalysisFifo<int> fifo;
  int sum = 0;
  port.connect(&imp);
  port.connect(&fifo);
  port.connect([&sum](const int& v) { sum += v; });
  port.write(3);
  port.write(4);
  EXPECT_EQ(sink.got, (std::vector<int>{3, 4}));
  EXPECT_EQ(sum, 7);
  EXPECT_EQ(fifo.used(), 2u);
  int v = 0;
  ASSERT_TRUE(fifo.try_get(&v));
  EXPECT_EQ(v, 3);
  ASSERT_TRUE(fifo.try_get(&v));
  EXPECT_EQ(v, 4);
  EXPECT_FALSE(fifo.try_get(&v));
}

// ---- coverage ----
TEST_F(Fresh, CoveragePercentages) {
  CoverGroup cg("cg");
  int a = cg.AddPoint("a", {"x", "y", "z", "w"});
  int b = cg.AddPoint("b", {"p", "q"});
  int c = cg.AddCross("a_x_b", a, b);
  cg.point(a).Ignore(3);  // 3 bins count
  cg.cross(c).Ignore([](int i, int) { return i == 3; });
  cg.point(a).Sample(0);
  cg.point(a).Sample(0);
  cg.point(a).Sample(2);
  cg.point(a).Sample(9);  // out of range: ignored
  cg.point(b).Sample(1);
  cg.cross(c).Sample(0, 1);
  cg.cross(c).Sample(2, 1);
  cg.cross(c).Sample(3, 0);  // ignored bin
  EXPECT_EQ(cg.point(a).Covered(), 2);
  EXPECT_EQ(cg.point(a).Goal(), 3);
  EXPECT_EQ(cg.point(a).hits(0), 2u);
  EXPECT_DOUBLE_EQ(cg.point(b).Percent(), 50.0);
  EXPECT_EQ(cg.cross(c).Goal(), 6);
  EXPECT_EQ(cg.cross(c).Covered(), 2);
  EXPECT_DOUBLE_EQ(cg.Percent(), (200.0 / 3 + 50.0 + 100.0 / 3) / 3);
  std::ostringstream os;
  cg.Print(os);
  EXPECT_NE(os.str().find("missing"), std::string::npos);
  EXPECT_NE(os.str().find(" y"), std::string::npos) << os.str();
}

}  // namespace
}  // namespace tma::tb::uvm

// libsystemc.so references sc_main; gtest_main's main() runs the tests instead.
int sc_main(int /*argc*/, char** /*argv*/) {
  return 0;
}
