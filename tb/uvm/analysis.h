// SPDX-License-Identifier: Apache-2.0
//
// Analysis communication of the OpenTMA UVM-style layer: an analysis port broadcasts each
// write() to every subscriber (an AnalysisIf, e.g. a scoreboard export, or a callable);
// an AnalysisFifo is a TLM-1 style unbounded fifo subscriber with blocking get (SystemC
// thread context) and non-blocking try_get.
#ifndef TMA_TB_UVM_ANALYSIS_H_
#define TMA_TB_UVM_ANALYSIS_H_

#include <deque>
#include <functional>
#include <utility>
#include <vector>

#include <systemc>

namespace tma::tb::uvm {

template <class T>
class AnalysisIf {
 public:
  virtual ~AnalysisIf() = default;
  virtual void write(const T& t) = 0;
};

template <class T>
class AnalysisPort {
 public:
  void connect(AnalysisIf<T>* sub) {
    subs_.push_back([sub](const T& t) { sub->write(t); });
  }
  void connect(std::function<void(const T&)> fn) { subs_.push_back(std::move(fn)); }
  void write(const T& t) const {
    for (const auto& s : subs_) {
      s(t);
    }
  }
  size_t size() const { return subs_.size(); }

 private:
  std::vector<std::function<void(const T&)>> subs_;
};

// Forwards write() to a member function: AnalysisImp<Item, Scb> imp{this, &Scb::WriteCmd};
template <class T, class C>
class AnalysisImp : public AnalysisIf<T> {
 public:
  AnalysisImp(C* obj, void (C::*fn)(const T&)) : obj_(obj), fn_(fn) {}
  void write(const T& t) override { (obj_->*fn_)(t); }

 private:
  C* obj_;
  void (C::*fn_)(const T&);
};

template <class T>
class AnalysisFifo : public AnalysisIf<T> {
 public:
  void write(const T& t) override {
    q_.push_back(t);
    put_ev_.notify(sc_core::SC_ZERO_TIME);
  }
  bool try_get(T* out) {
    if (q_.empty()) {
      return false;
    }
    *out = std::move(q_.front());
    q_.pop_front();
    return true;
  }
  // Blocks the calling SystemC thread until an item is there.
  T get() {
    while (q_.empty()) {
      sc_core::wait(put_ev_);
    }
    T t = std::move(q_.front());
    q_.pop_front();
    return t;
  }
  bool is_empty() const { return q_.empty(); }
  size_t used() const { return q_.size(); }
  void flush() { q_.clear(); }

 private:
  std::deque<T> q_;
  sc_core::sc_event put_ev_;
};

}  // namespace tma::tb::uvm

#endif  // TMA_TB_UVM_ANALYSIS_H_
