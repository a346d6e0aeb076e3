// SPDX-License-Identifier: Apache-2.0
//
// Sequences of the OpenTMA UVM-style layer (pull model). A Sequence<REQ> runs its Body()
// in a SystemC thread and hands items to a Sequencer<REQ> with Send() (start_item +
// finish_item), which blocks until the driver calls ItemDone() for that item. Drivers pull
// with TryNextItem() (non-blocking, usable from a clocked method) or GetNextItem()
// (blocking, thread context). Several sequences may run on one sequencer; items are granted
// in arrival order (FIFO arbitration).
#ifndef TMA_TB_UVM_SEQUENCE_H_
#define TMA_TB_UVM_SEQUENCE_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <string>

#include <systemc>

#include "uvm/component.h"
#include "uvm/factory.h"

namespace tma::tb::uvm {

// Base of transaction items: an id, and a one-line text for reports.
class SequenceItem {
 public:
  virtual ~SequenceItem() = default;
  virtual std::string ToString() const { return "item#" + std::to_string(id); }
  uint64_t id = 0;
};

template <class REQ>
class Sequencer : public Component {
 public:
  Sequencer(const std::string& name, Component* parent) : Component(name, parent) {}
  std::string type_name() const override { return "Sequencer"; }

  // Sequence side: queue `item`, block until the driver is done with it.
  void Send(const REQ& item) {
    auto p = std::make_shared<Pending>();
    p->item = item;
    queue_.push_back(p);
    ++sent_;
    while (!p->done) {
      sc_core::wait(p->done_ev);
    }
  }
  // Driver side. TryNextItem: the next item if one is queued and none is in progress.
  bool TryNextItem(REQ* out) {
    if (current_ || queue_.empty()) {
      return false;
    }
    current_ = queue_.front();
    queue_.pop_front();
    *out = current_->item;
    return true;
  }
  // Blocking form (thread context).
  REQ GetNextItem() {
    REQ r;
    while (!TryNextItem(&r)) {
      sc_core::wait(sc_core::SC_ZERO_TIME);
    }
    return r;
  }
  // The driver finished the item handed out last; its Send() returns.
  void ItemDone() {
    if (!current_) {
      Error("SQRDONE", "ItemDone without an item in progress");
      return;
    }
    current_->done = true;
    current_->done_ev.notify(sc_core::SC_ZERO_TIME);
    current_.reset();
    ++done_;
  }
  bool HasItem() const { return !queue_.empty(); }
  bool Busy() const { return current_ != nullptr; }
  uint64_t sent() const { return sent_; }
  uint64_t done() const { return done_; }

 private:
  struct Pending {
    REQ item;
    bool done = false;
    sc_core::sc_event done_ev;
  };
  std::deque<std::shared_ptr<Pending>> queue_;
  std::shared_ptr<Pending> current_;
  uint64_t sent_ = 0;
  uint64_t done_ = 0;
};

template <class REQ>
class Sequence : public Object {
 public:
  std::string type_name() const override { return "Sequence"; }
  // Runs Body() in the calling thread with `sqr` as the target.
  void Start(Sequencer<REQ>* sqr) {
    sequencer_ = sqr;
    PreBody();
    Body();
    PostBody();
  }
  Sequencer<REQ>* sequencer() const { return sequencer_; }

 protected:
  virtual void PreBody() {}
  virtual void Body() = 0;
  virtual void PostBody() {}
  // start_item + finish_item.
  void Send(const REQ& item) { sequencer_->Send(item); }

 private:
  Sequencer<REQ>* sequencer_ = nullptr;
};

// ---- verification component bases ----
template <class REQ>
class Driver : public Component {
 public:
  Driver(const std::string& name, Component* parent) : Component(name, parent) {}
  std::string type_name() const override { return "Driver"; }
  Sequencer<REQ>* seq_item_port = nullptr;  // connected by the agent
};

class Monitor : public Component {
 public:
  using Component::Component;
  std::string type_name() const override { return "Monitor"; }
};

class Scoreboard : public Component {
 public:
  using Component::Component;
  std::string type_name() const override { return "Scoreboard"; }
};

// An agent is active (sequencer + driver + monitor) or passive (monitor only); the
// "is_active" config key (bool) decides, default active.
class Agent : public Component {
 public:
  using Component::Component;
  std::string type_name() const override { return "Agent"; }
  bool is_active = true;
};

}  // namespace tma::tb::uvm

#endif  // TMA_TB_UVM_SEQUENCE_H_
