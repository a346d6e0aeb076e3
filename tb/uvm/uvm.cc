// SPDX-License-Identifier: Apache-2.0
//
// Implementation of the OpenTMA UVM-style layer (report server, component tree, phases,
// objections, config store, factory, coverage).
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "uvm/component.h"
#include "uvm/config.h"
#include "uvm/coverage.h"
#include "uvm/factory.h"
#include "uvm/report.h"

namespace tma::tb::uvm {

namespace {
bool KernelRunning() {
  return sc_core::sc_is_running();
}
}  // namespace

// ---- report server ----------------------------------------------------------------------
const char* ToString(Severity s) {
  switch (s) {
    case Severity::kInfo:
      return "INFO";
    case Severity::kWarning:
      return "WARNING";
    case Severity::kError:
      return "ERROR";
    case Severity::kFatal:
      return "FATAL";
  }
  return "?";
}

ReportServer& ReportServer::Get() {
  static ReportServer rs;
  return rs;
}

std::ostream& ReportServer::stream() const {
  return os_ != nullptr ? *os_ : std::cout;
}

void ReportServer::Report(Severity sev, const std::string& id, const std::string& msg,
                          int verbosity, const std::string& where) {
  if (sev == Severity::kInfo && !Enabled(verbosity)) {
    return;
  }
  ++counts_[static_cast<int>(sev)];
  ++id_counts_[id];
  std::ostream& os = stream();
  os << ToString(sev) << " @ " << sc_core::sc_time_stamp().to_string();
  if (!where.empty()) {
    os << " " << where;
  }
  os << " [" << id << "] " << msg << "\n";
  if (sev >= Severity::kError) {
    os.flush();
  }
  if (sev == Severity::kFatal) {
    quit_requested_ = true;
    if (KernelRunning()) {
      sc_core::sc_pause();
    } else {
      throw FatalError{msg};
    }
  } else if (sev == Severity::kError && max_quit_count_ > 0 && ErrorCount() >= max_quit_count_) {
    quit_requested_ = true;
    if (KernelRunning()) {
      sc_core::sc_pause();
    }
  }
}

int ReportServer::CountId(const std::string& id) const {
  auto it = id_counts_.find(id);
  return it == id_counts_.end() ? 0 : it->second;
}

void ReportServer::Reset() {
  for (int& c : counts_) {
    c = 0;
  }
  id_counts_.clear();
  quit_requested_ = false;
}

void ReportServer::Summarize() const {
  std::ostream& os = stream();
  os << "--- report summary ---\n";
  for (int s = 0; s < 4; ++s) {
    os << "  " << std::left << std::setw(8) << ToString(static_cast<Severity>(s)) << " : "
       << counts_[s] << "\n";
  }
  os << "  by id:";
  for (const auto& [id, n] : id_counts_) {
    os << " [" << id << "] " << n;
  }
  os << "\n";
}

// ---- component --------------------------------------------------------------------------
Component::Component(const std::string& name, Component* parent) : name_(name), parent_(parent) {
  if (parent_ != nullptr) {
    parent_->children_.push_back(this);
  }
}

Component::~Component() {
  // Owned children go first (they unregister from children_ themselves).
  while (!owned_.empty()) {
    owned_.pop_back();
  }
  if (parent_ != nullptr) {
    auto& v = parent_->children_;
    v.erase(std::remove(v.begin(), v.end(), this), v.end());
  }
}

std::string Component::full_name() const {
  if (parent_ == nullptr || parent_ == &Root::Get()) {
    return name_;
  }
  return parent_->full_name() + "." + name_;
}

Component* Component::FindChild(const std::string& name) const {
  for (Component* c : children_) {
    if (c->name() == name) {
      return c;
    }
  }
  return nullptr;
}

Component* Component::Adopt(std::unique_ptr<Component> c) {
  Component* raw = c.get();
  if (raw->parent_ != this) {
    Error("ADOPT", "component " + raw->name() + " was made with another parent");
  }
  owned_.push_back(std::move(c));
  return raw;
}

void Component::RaiseObjection(const std::string& why, int n) {
  Objection::Get().Raise(this, why, n);
}
void Component::DropObjection(const std::string& why, int n) {
  Objection::Get().Drop(this, why, n);
}

void Component::SpawnMethod(const std::string& name, std::function<void()> fn,
                            const sc_core::sc_event& ev) {
  sc_core::sc_spawn_options o;
  o.spawn_method();
  o.dont_initialize();
  o.set_sensitivity(&ev);
  std::string n = full_name() + "." + name;
  std::replace(n.begin(), n.end(), '.', '_');
  Root::Get().RegisterProcess(sc_core::sc_spawn(std::move(fn), n.c_str(), &o));
}

void Component::SpawnThread(const std::string& name, std::function<void()> fn) {
  std::string n = full_name() + "." + name;
  std::replace(n.begin(), n.end(), '.', '_');
  Root::Get().RegisterProcess(sc_core::sc_spawn(std::move(fn), n.c_str()));
}

void Component::Info(const std::string& id, const std::string& msg, int verbosity) const {
  ReportServer::Get().Report(Severity::kInfo, id, msg, verbosity, full_name());
}
void Component::Warning(const std::string& id, const std::string& msg) const {
  ReportServer::Get().Report(Severity::kWarning, id, msg, 0, full_name());
}
void Component::Error(const std::string& id, const std::string& msg) const {
  ReportServer::Get().Report(Severity::kError, id, msg, 0, full_name());
}
void Component::Fatal(const std::string& id, const std::string& msg) const {
  ReportServer::Get().Report(Severity::kFatal, id, msg, 0, full_name());
}

// ---- objections -------------------------------------------------------------------------
Objection& Objection::Get() {
  static Objection o;
  return o;
}

void Objection::Raise(const Component* c, const std::string& why, int n) {
  total_ += n;
  ever_raised_ = true;
  auto& e = per_component_[c->full_name()];
  e.first += n;
  if (!why.empty()) {
    e.second = why;
  }
}

void Objection::Drop(const Component* c, const std::string& why, int n) {
  auto& e = per_component_[c->full_name()];
  if (e.first < n) {
    ReportServer::Get().Report(Severity::kError, "OBJDROP",
                               "dropped more objections than raised (" + why + ")", 0,
                               c->full_name());
    n = e.first;
  }
  e.first -= n;
  total_ -= n;
  if (total_ == 0) {
    all_dropped_.notify(sc_core::SC_ZERO_TIME);
  }
}

std::string Objection::Holders() const {
  std::ostringstream os;
  for (const auto& [name, e] : per_component_) {
    if (e.first > 0) {
      os << " " << name << " (" << e.first << (e.second.empty() ? "" : ": " + e.second) << ")";
    }
  }
  return os.str();
}

void Objection::Reset() {
  total_ = 0;
  ever_raised_ = false;
  per_component_.clear();
}

// ---- root and phases --------------------------------------------------------------------
Root::Root() : Component("uvm_root", nullptr) {}

Root& Root::Get() {
  static Root* r = new Root();  // never destroyed: components may outlive static teardown
  return *r;
}

void Root::TopDown(Component* c, void (Component::*fn)(), const char* phase) {
  if (trace_on_) {
    trace_.push_back(std::string(phase) + ":" + c->full_name());
  }
  (c->*fn)();
  // Children may be added by build_phase: iterate over a snapshot taken after the call.
  std::vector<Component*> kids = c->children();
  for (Component* k : kids) {
    TopDown(k, fn, phase);
  }
}

void Root::BottomUp(Component* c, void (Component::*fn)(), const char* phase) {
  std::vector<Component*> kids = c->children();
  for (Component* k : kids) {
    BottomUp(k, fn, phase);
  }
  if (trace_on_) {
    trace_.push_back(std::string(phase) + ":" + c->full_name());
  }
  (c->*fn)();
}

void Root::Controller() {
  using sc_core::wait;
  sc_core::sc_event timeout_ev;
  timeout_ev.notify(timeout_);
  // Let every run_phase start (and raise) first.
  wait(sc_core::SC_ZERO_TIME);
  wait(sc_core::SC_ZERO_TIME);
  Objection& obj = Objection::Get();
  while (true) {
    if (obj.count() == 0) {
      if (drain_ != sc_core::SC_ZERO_TIME) {
        wait(drain_, timeout_ev);
      } else {
        wait(sc_core::SC_ZERO_TIME);
      }
      if (obj.count() == 0) {
        break;
      }
    }
    wait(obj.all_dropped() | timeout_ev);
    if (timeout_ev.triggered()) {
      timed_out_ = true;
      break;
    }
  }
  if (timed_out_) {
    Error("TIMEOUT", "watchdog: run phase still active at " + sc_core::sc_time_stamp().to_string() +
                         "; objections held by:" + obj.Holders());
  }
  KillProcesses();
  sc_core::sc_pause();
}

void Root::KillProcesses() {
  // Must run inside a SystemC process: the kernel kills only from process context.
  sc_core::sc_process_handle self = sc_core::sc_get_current_process_handle();
  for (auto& h : processes_) {
    if (h.valid() && !h.terminated() && h != self) {
      h.kill(sc_core::SC_INCLUDE_DESCENDANTS);
    }
  }
  processes_.clear();
}

int Root::RunPhases(Component* top) {
  in_run_ = false;
  timed_out_ = false;
  try {
    TopDown(top, &Component::build_phase, "build");
    BottomUp(top, &Component::connect_phase, "connect");
    BottomUp(top, &Component::end_of_elaboration_phase, "end_of_elaboration");
    BottomUp(top, &Component::start_of_simulation_phase, "start_of_simulation");
  } catch (const FatalError&) {
    ReportServer::Get().Summarize();
    return 1;
  }
  // run phase: one thread per component, plus the controller that ends the phase.
  std::vector<Component*> all;
  std::function<void(Component*)> collect = [&](Component* c) {
    all.push_back(c);
    for (Component* k : c->children()) {
      collect(k);
    }
  };
  collect(top);
  for (Component* c : all) {
    if (trace_on_) {
      trace_.push_back("run:" + c->full_name());
    }
    c->SpawnThread("run_phase", [c] { c->run_phase(); });
  }
  sc_core::sc_process_handle ctl = sc_core::sc_spawn([this] { Controller(); }, "uvm_root_ctl");
  in_run_ = true;
  sc_core::sc_start();
  in_run_ = false;
  // A fatal report pauses the kernel before the controller could end the run phase: kill
  // what is left (threads still waiting, clocked methods) from a reaper process.
  if (!processes_.empty() || !ctl.terminated()) {
    processes_.push_back(ctl);
    sc_core::sc_spawn([this] { KillProcesses(); }, "uvm_root_reaper");
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
  }
  try {
    BottomUp(top, &Component::extract_phase, "extract");
    BottomUp(top, &Component::check_phase, "check");
    BottomUp(top, &Component::report_phase, "report");
  } catch (const FatalError&) {
  }
  ReportServer::Get().Summarize();
  return ReportServer::Get().ExitCode();
}

int Root::RunTest(const std::string& test_name) {
  std::unique_ptr<Component> t = Factory::Get().CreateComponent(test_name, "uvm_test_top", this);
  if (!t) {
    ReportServer::Get().Report(Severity::kError, "NOTEST", "no test named '" + test_name + "'");
    return 1;
  }
  top_ = std::move(t);
  return RunPhases(top_.get());
}

void Root::Clear() {
  top_.reset();
  trace_.clear();
  processes_.clear();
  Objection::Get().Reset();
}

// ---- config -----------------------------------------------------------------------------
bool GlobMatch(const std::string& p, const std::string& t) {
  size_t pi = 0, ti = 0, star = std::string::npos, mark = 0;
  while (ti < t.size()) {
    if (pi < p.size() && (p[pi] == '?' || p[pi] == t[ti])) {
      ++pi;
      ++ti;
    } else if (pi < p.size() && p[pi] == '*') {
      star = pi++;
      mark = ti;
    } else if (star != std::string::npos) {
      pi = star + 1;
      ti = ++mark;
    } else {
      return false;
    }
  }
  while (pi < p.size() && p[pi] == '*') {
    ++pi;
  }
  return pi == p.size();
}

ConfigDb& ConfigDb::Get() {
  static ConfigDb db;
  return db;
}

const ConfigDb::Entry* ConfigDb::Find(const std::string& path, const std::string& key) const {
  const Entry* best = nullptr;
  long best_score = -1;
  for (const Entry& e : entries_) {
    if (e.key != key || !GlobMatch(e.pattern, path)) {
      continue;
    }
    long literal = static_cast<long>(
        std::count_if(e.pattern.begin(), e.pattern.end(), [](char ch) { return ch != '*'; }));
    if (literal >= best_score) {  // ties: the later Set wins
      best = &e;
      best_score = literal;
    }
  }
  return best;
}

// ---- factory ----------------------------------------------------------------------------
Factory& Factory::Get() {
  static Factory f;
  return f;
}

void Factory::RegisterComponent(const std::string& type, ComponentMaker m) {
  components_[type] = std::move(m);
}
void Factory::RegisterObject(const std::string& type, ObjectMaker m) {
  objects_[type] = std::move(m);
}
void Factory::SetTypeOverride(const std::string& original, const std::string& replacement) {
  overrides_[original] = replacement;
}

std::string Factory::Resolve(const std::string& type) const {
  std::string t = type;
  for (int guard = 0; guard < 16; ++guard) {
    auto it = overrides_.find(t);
    if (it == overrides_.end()) {
      break;
    }
    t = it->second;
  }
  return t;
}

std::unique_ptr<Component> Factory::CreateComponent(const std::string& type,
                                                    const std::string& name, Component* parent) {
  auto it = components_.find(Resolve(type));
  if (it == components_.end()) {
    ReportServer::Get().Report(Severity::kError, "FACTORY", "unknown component type " + type);
    return nullptr;
  }
  return it->second(name, parent);
}

std::unique_ptr<Object> Factory::CreateObject(const std::string& type) {
  auto it = objects_.find(Resolve(type));
  if (it == objects_.end()) {
    ReportServer::Get().Report(Severity::kError, "FACTORY", "unknown object type " + type);
    return nullptr;
  }
  return it->second();
}

std::vector<std::string> Factory::ComponentNames() const {
  std::vector<std::string> v;
  for (const auto& kv : components_) {
    v.push_back(kv.first);
  }
  return v;
}
std::vector<std::string> Factory::ObjectNames() const {
  std::vector<std::string> v;
  for (const auto& kv : objects_) {
    v.push_back(kv.first);
  }
  return v;
}

// ---- coverage ---------------------------------------------------------------------------
int Coverpoint::Covered() const {
  int n = 0;
  for (size_t i = 0; i < hits_.size(); ++i) {
    n += (!ignored_[i] && hits_[i] > 0) ? 1 : 0;
  }
  return n;
}
int Coverpoint::Goal() const {
  return static_cast<int>(std::count(ignored_.begin(), ignored_.end(), false));
}

void Cross::Ignore(const std::function<bool(int, int)>& pred) {
  for (int a = 0; a < a_; ++a) {
    for (int b = 0; b < b_; ++b) {
      if (pred(a, b)) {
        ignored_[a * b_ + b] = true;
      }
    }
  }
}
int Cross::Covered() const {
  int n = 0;
  for (size_t i = 0; i < hits_.size(); ++i) {
    n += (!ignored_[i] && hits_[i] > 0) ? 1 : 0;
  }
  return n;
}
int Cross::Goal() const {
  return static_cast<int>(std::count(ignored_.begin(), ignored_.end(), false));
}

int CoverGroup::AddPoint(const std::string& name, std::vector<std::string> bins) {
  points_.emplace_back(name, std::move(bins));
  return static_cast<int>(points_.size()) - 1;
}
int CoverGroup::AddCross(const std::string& name, int a, int b) {
  crosses_.push_back(CrossEntry{Cross(name, points_.at(a).size(), points_.at(b).size()), a, b});
  return static_cast<int>(crosses_.size()) - 1;
}

double CoverGroup::Percent() const {
  double sum = 0;
  int n = 0;
  for (const auto& p : points_) {
    sum += p.Percent();
    ++n;
  }
  for (const auto& c : crosses_) {
    sum += c.cross.Percent();
    ++n;
  }
  return n ? sum / n : 100.0;
}

void CoverGroup::Print(std::ostream& os, bool detail) const {
  os << "coverage " << name_ << ": " << std::fixed << std::setprecision(1) << Percent()
     << "% (mean of " << points_.size() + crosses_.size() << " items)\n";
  os << "  " << std::left << std::setw(28) << "item" << std::right << std::setw(10) << "hit/goal"
     << std::setw(8) << "%"
     << "  missing\n";
  for (const auto& p : points_) {
    std::ostringstream hg;
    hg << p.Covered() << "/" << p.Goal();
    os << "  " << std::left << std::setw(28) << p.name() << std::right << std::setw(10) << hg.str()
       << std::setw(7) << std::setprecision(1) << p.Percent() << "% ";
    for (int b = 0; b < p.size(); ++b) {
      if (!p.ignored(b) && p.hits(b) == 0) {
        os << " " << p.bin(b);
      }
    }
    os << "\n";
    if (detail) {
      for (int b = 0; b < p.size(); ++b) {
        os << "      " << std::left << std::setw(26) << p.bin(b) << std::right << std::setw(10)
           << p.hits(b) << (p.ignored(b) ? "  (ignored)" : "") << "\n";
      }
    }
  }
  for (const auto& c : crosses_) {
    std::ostringstream hg;
    hg << c.cross.Covered() << "/" << c.cross.Goal();
    os << "  " << std::left << std::setw(28) << c.cross.name() << std::right << std::setw(10)
       << hg.str() << std::setw(7) << std::setprecision(1) << c.cross.Percent() << "%\n";
  }
}

void CoverGroup::WriteBins(std::ostream& os) const {
  for (const auto& p : points_) {
    for (int b = 0; b < p.size(); ++b) {
      os << "point\t" << p.name() << "\t" << b << "\t" << p.hits(b) << "\t" << p.ignored(b) << "\t"
         << p.bin(b) << "\n";
    }
  }
  for (const auto& c : crosses_) {
    for (int i = 0; i < c.cross.size(); ++i) {
      os << "cross\t" << c.cross.name() << "\t" << i << "\t" << c.cross.hits(i) << "\t"
         << c.cross.ignored(i) << "\t" << points_.at(c.a).bin(i / points_.at(c.b).size()) << "/"
         << points_.at(c.b).bin(i % points_.at(c.b).size()) << "\n";
    }
  }
}

}  // namespace tma::tb::uvm
