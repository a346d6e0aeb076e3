// SPDX-License-Identifier: Apache-2.0
//
// Component tree of the OpenTMA UVM-style layer: named components with a parent and
// children, the phase callbacks (build top-down; connect, end_of_elaboration,
// start_of_simulation bottom-up; run as one SystemC thread per component; extract, check,
// report bottom-up), and objections that keep the run phase alive.
// Components are plain C++ objects (not sc_modules), so they can be built in build_phase
// at any time; they reach SystemC through sc_spawn'ed threads and methods.
#ifndef TMA_TB_UVM_COMPONENT_H_
#define TMA_TB_UVM_COMPONENT_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <systemc>

#include "uvm/report.h"

namespace tma::tb::uvm {

class Component {
 public:
  Component(const std::string& name, Component* parent);
  virtual ~Component();
  Component(const Component&) = delete;
  Component& operator=(const Component&) = delete;

  const std::string& name() const { return name_; }
  // Dot-separated path from the root: "uvm_test_top.env.axi_agent.driver".
  std::string full_name() const;
  Component* parent() const { return parent_; }
  const std::vector<Component*>& children() const { return children_; }
  Component* FindChild(const std::string& name) const;
  virtual std::string type_name() const { return "Component"; }

  // Builds a child owned by this component: Create<Foo>("foo", args...) calls
  // Foo("foo", this, args...).
  template <class T, class... A>
  T* Create(const std::string& name, A&&... args) {
    auto p = std::make_unique<T>(name, this, std::forward<A>(args)...);
    T* raw = p.get();
    owned_.push_back(std::move(p));
    return raw;
  }
  // Takes ownership of a child made elsewhere (e.g. by the factory).
  Component* Adopt(std::unique_ptr<Component> c);

  // ---- phases (override what you need) ----
  virtual void build_phase() {}
  virtual void connect_phase() {}
  virtual void end_of_elaboration_phase() {}
  virtual void start_of_simulation_phase() {}
  virtual void run_phase() {}  // runs in its own SC_THREAD; killed when the phase ends
  virtual void extract_phase() {}
  virtual void check_phase() {}
  virtual void report_phase() {}

  // ---- objections (shared by the whole tree; the run phase ends when none is raised) ----
  void RaiseObjection(const std::string& why = "", int n = 1);
  void DropObjection(const std::string& why = "", int n = 1);

  // ---- process helpers: processes spawned here are killed at the end of the run phase ----
  // An SC_METHOD-like process, statically sensitive to `ev`, not run at time 0.
  void SpawnMethod(const std::string& name, std::function<void()> fn, const sc_core::sc_event& ev);
  void SpawnThread(const std::string& name, std::function<void()> fn);

  // ---- reporting with this component's path as the location ----
  void Info(const std::string& id, const std::string& msg, int verbosity = kMedium) const;
  void Warning(const std::string& id, const std::string& msg) const;
  void Error(const std::string& id, const std::string& msg) const;
  void Fatal(const std::string& id, const std::string& msg) const;

 private:
  friend class Root;
  std::string name_;
  Component* parent_;
  std::vector<Component*> children_;
  std::vector<std::unique_ptr<Component>> owned_;
};

// The objection counter of the run phase.
class Objection {
 public:
  static Objection& Get();
  void Raise(const Component* c, const std::string& why, int n);
  void Drop(const Component* c, const std::string& why, int n);
  int count() const { return total_; }
  bool ever_raised() const { return ever_raised_; }
  const sc_core::sc_event& all_dropped() const { return all_dropped_; }
  // Who holds objections now ("a.b (2): why").
  std::string Holders() const;
  void Reset();

 private:
  Objection() = default;
  int total_ = 0;
  bool ever_raised_ = false;
  std::map<std::string, std::pair<int, std::string>> per_component_;
  sc_core::sc_event all_dropped_{"tma_uvm_all_dropped"};
};

// The implicit top of every tree. RunTest builds the named test through the factory as
// "uvm_test_top", runs every phase and returns the report server's exit code.
class Root : public Component {
 public:
  static Root& Get();

  // Runs all phases of an already-built top component (the test). Returns the exit code.
  int RunPhases(Component* top);
  // Creates `test_name` from the factory under the root and runs it.
  int RunTest(const std::string& test_name);

  // Watchdog: the run phase is stopped with a fatal if objections are still raised then.
  void SetTimeout(const sc_core::sc_time& t) { timeout_ = t; }
  // After the last drop, wait this long before ending the run phase (0: next delta).
  void SetDrainTime(const sc_core::sc_time& t) { drain_ = t; }
  // Which phases ran, in order, as "<phase>:<full_name>" (for tests and debugging).
  const std::vector<std::string>& trace() const { return trace_; }
  void EnableTrace(bool on) { trace_on_ = on; }
  void RegisterProcess(const sc_core::sc_process_handle& h) { processes_.push_back(h); }
  bool in_run_phase() const { return in_run_; }
  // Destroys the test and forgets per-run state (a later RunTest starts afresh).
  void Clear();

 private:
  Root();
  void TopDown(Component* c, void (Component::*fn)(), const char* phase);
  void BottomUp(Component* c, void (Component::*fn)(), const char* phase);
  void Controller();
  void KillProcesses();
  sc_core::sc_time timeout_ = sc_core::sc_time(1, sc_core::SC_SEC);
  sc_core::sc_time drain_ = sc_core::SC_ZERO_TIME;
  std::vector<std::string> trace_;
  bool trace_on_ = false;
  bool in_run_ = false;
  bool timed_out_ = false;
  std::vector<sc_core::sc_process_handle> processes_;
  std::unique_ptr<Component> top_;
};

}  // namespace tma::tb::uvm

#endif  // TMA_TB_UVM_COMPONENT_H_
