// SPDX-License-Identifier: Apache-2.0
//
// RTL mode: the ops run on one Verilated tma_sim_top per engine, clocked by otma_tick, on the
// simulation harness (sim/): the command port (sim::CmdPort), the AXI4 read and write slaves
// (sim::AxiReadSlave in AR order, sim::AxiWriteSlave), the shared-memory ports (sim::SmemPort:
// write beats applied with their strobes to each CTA of the mask, read port data the cycle
// after the request) and the completion port (sim::CplPort). The slaves and the shared-memory
// port reach the host's memories through gmem_read / gmem_write / smem_read / smem_write as the
// beats happen, so a write lands at the RTL cycle it is made.
//
//   * Global-memory timing. With host.mem_req set, every AXI burst goes through the host's
//     memory system: a read burst, the cycle its AR is accepted, and a write burst, the cycle
//     its last W beat arrives (its bytes are written then), become otma_mem_req requests of
//     req_bytes each (config.req_bytes, aligned; kind READ / WRITE; op: the oldest in flight
//     of the kinds that make such traffic, as the AXI ports carry no op tag). A descriptor
//     fetch (ID AxiIdDesc) from the host's memory is one OTMA_REQ_DESC request of 128 bytes
//     (the RTL reads the map in several bursts: those of one 128-byte line while its request
//     is unanswered wait for that request); the private descriptor area needs none. A burst's first
//     R beat (reads) or its B (writes) waits until otma_mem_resp has answered every request of it;
//     an answer other than OTMA_OK makes it SLVERR (the RTL's bus_error). A request the host
//     refuses is offered again each cycle, in order. Reductions' old-data reads (ID AxiIdRed) are
//     READ requests and their results WRITE requests. Without mem_req the slaves answer at once
//     (first R beat the cycle after the AR, B the cycle the last W beat arrives): zero latency.
//   * READ_DONE (stores, reductions): the cycle the shared-memory read port serves the op's
//     last read request, so cp.async.bulk.wait_group.read returns before the op's writes are
//     acknowledged. The store path reads the sources of its commands in command order; an op's
//     read count comes from the model's rows (PredictSmemReads). An op whose reads did not
//     reach that count gets READ_DONE with DONE (and a log line).
//
//   * otma_submit offers the op on the command port with a free 8-bit tag (OTMA_E_BUSY while
//     the previous command has not been taken or every tag is in flight); the engine takes it
//     at a later edge, and any number of ops are in flight together.
//   * otma_tick(n) runs n RTL clocks (none while the engine is idle: its state cannot change);
//     each completion is delivered the cycle the port takes it: complete_tx per destination
//     CTA as the RTL signals it, op_done(DONE) with the last one (loads), with CplDone
//     (prefetches: nothing to signal; stores and reductions: DONE, READ_DONE before it as
//     above), or op_done(FAULT, class) with the RTL's error completion.
//   * otma_next_event: 1 while a command waits or an op is in flight or the RTL says busy,
//     else UINT64_MAX (the Verilated engine cannot skip cycles while it works).
//     otma_drain also returns when requests to the host are unanswered and the pins have been
//     quiet for kDrainQuiet cycles (only otma_mem_resp can make progress then).
//   * Descriptors: an op that gives raw bytes or decoded params has its 128 bytes placed in a
//     private descriptor area of the engine's address space (one 128-byte slot per distinct
//     map, outside every address the host's gmem_read answers), which the RTL fetches and
//     caches; an op that gives only desc_va makes the RTL fetch the host's map, and
//     otma_invalidate_desc pulses desc_inval with the next command (fence.proxy.tensormap).
//   * Claims: an op goes to the RTL only when the RTL claims it (sim::RtlSkipReason, the ONE
//     list built from rtl/data/tma_numbering.json rtl_claims); any other op answers
//     OTMA_E_UNSUPPORTED with op_done(FAULT): bulk copies and reductions, tensormap.replace,
//     sm_100+ reductions, b6x16_p32 stores. The engine's arch and cluster size drive
//     tma_sim_top's arch_i and cluster_i, so the RTL judges CTA numbers beyond the cluster (F6).
//   * A harness rule broken by the RTL (an AXI or shared-memory protocol error, an RTL
//     assertion, a completion nobody waits for) is logged and faults the ops in flight with
//     OTMA_E_TX_WATCHDOG; so does a watchdog_cycles stretch without any activity on the pins.
#include "rtl_backend.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine.h"
#include "sim/axi_read_slave.h"
#include "sim/axi_write_slave.h"
#include "sim/cmd_port.h"
#include "sim/cpl_port.h"
#include "sim/harness.h"
#include "sim/rtl_support.h"
#include "sim/smem_port.h"
#include "sim/tops.h"
#include "tma/descriptor.h"
#include "tma/golden.h"
#include "tma/mbarrier.h"
#include "tma/tensor_copy.h"
#include "tma/traversal.h"

namespace otma_impl {
namespace {

namespace m = tma::model;

// Candidate bases of the private descriptor area (the first the host does not map is used).
constexpr uint64_t kDescBase[] = {0x7ff000000000ull, 0x3ff000000000ull, 0x000000100000ull};
constexpr uint32_t kDescSlots = 1024;
constexpr int kTags = 256;
constexpr uint64_t kDrainQuiet = 16;

// The shared-memory read requests the RTL's store path makes for a store or reduction: each box
// row with in-bounds bytes reads the DataBytes-aligned beats covering [row, row + in-bounds
// bytes) (stores have no negative coordinate, so the in-bounds units are a prefix of the row;
// rounding the length up to a 16-byte granule adds no beat). 0 when the op has no traversal.
uint64_t PredictSmemReads(const m::TensorMap& map, const m::TensorInstr& in, uint32_t db) {
  const m::TraversalPlan p = m::PlanTraversal(map, in);
  if (!p.ok) {
    return 0;
  }
  uint64_t beats = 0;
  m::ForEachRow(map, in, p, [&](const m::RowVisit& r) {
    if (r.row_oob || r.x0 >= p.x0_bound) {
      return;
    }
    const int64_t step = p.x0_step > 0 ? p.x0_step : 1;
    const uint64_t units =
        std::min<uint64_t>(p.units, static_cast<uint64_t>((p.x0_bound - r.x0 + step - 1) / step));
    const uint64_t bytes = units * p.layout.unit_sbytes;
    const uint64_t a = (in.smem_addr + r.smem_offset) % db;
    beats += (a + bytes + db - 1) / db;
  });
  return beats;
}

// One op the RTL has taken (or is about to take).
struct InFlight {
  otma_token token = 0;
  uint32_t kind = 0;
  bool group = false;  // store / reduction: READ_DONE then DONE on CplDone
  size_t want_tx = 0;  // loads: complete-tx completions to wait for
  size_t got_tx = 0;
  std::vector<int> dst_ctas;  // loads: shared-memory destinations (checker attribution)
  uint32_t smem_lo = 0, smem_hi = 0;
  uint64_t reads_want = 0;  // stores / reductions: shared-memory read requests (predicted)
  uint64_t reads_got = 0;
  bool read_done = false;
  // Loads / prefetches: the global sectors the op reads (otma_expand's list) not yet requested.
  // The engine overlaps commands (the next command's reads may start before the previous one
  // completes), so a data read is the op's whose remaining sectors hold its address.
  std::unordered_map<uint64_t, uint32_t> sectors_left;
};

class VerilatedBackend;

// Global memory as the RTL sees it: the descriptor area, then the host's memory.
class RtlGlobal : public m::GlobalMemoryIf {
 public:
  explicit RtlGlobal(VerilatedBackend* b) : b_(b) {}
  bool Read(uint64_t addr, uint8_t* dst, size_t n) override;
  bool Write(uint64_t addr, const uint8_t* src, size_t n) override;

 private:
  VerilatedBackend* b_;
};

// The cluster's shared memory: the host's windows, each write reported to the checker.
class RtlShared : public m::SharedMemoryIf {
 public:
  explicit RtlShared(VerilatedBackend* b) : b_(b) {}
  int NumCtas() const override;
  bool Read(int cta, uint32_t addr, uint8_t* dst, size_t n) override;
  bool Write(int cta, uint32_t addr, const uint8_t* src, size_t n) override;

 private:
  VerilatedBackend* b_;
};

class VerilatedBackend : public RtlBackend {
 public:
  VerilatedBackend(std::unique_ptr<tma::sim::SimTop> top, int data_bytes)
      : build_(tma::sim::RtlBuild::Default(data_bytes)),
        top_(std::move(top)),
        h_(top_.get()),
        gmem_(this),
        smem_(this),
        src_(&gmem_),
        axr_(&src_, &rng_, Noter()),
        axw_(&gmem_, &rng_, Noter()),
        smp_(&smem_, &rng_, Noter()),
        cmd_(&rng_, nullptr),
        cpl_(&rng_, [this](const tma::sim::EngineCompletion& c) { cpls_.push_back(c); }) {
    axr_.config().in_order = true;
    h_.Add(&cmd_);
    h_.Add(&axr_);
    h_.Add(&axw_);
    h_.Add(&smp_);
    h_.Add(&cpl_);
    smp_.set_read_observer([this](uint32_t, uint32_t) { OnSmemRead(); });
    h_.pins().cmd_valid = false;
    h_.Reset(3);
    top_->TakeAssertFailure();
  }
  ~VerilatedBackend() override { top_->Final(); }

  otma_status Submit(otma_engine& e, const otma_op& op, otma_token t) override;
  otma_status Tick(otma_engine& e, uint64_t cycles) override;
  uint64_t NextEvent() const override { return Active() ? 1 : UINT64_MAX; }
  uint64_t Drain(otma_engine& e) override;
  otma_status MemResp(uint64_t tag, otma_status bus) override;
  void Invalidate(uint64_t) override { inval_next_ = true; }
  uint32_t InFlightOps() const override { return live_; }

  // ---- memories (RtlGlobal / RtlShared) --------------------------------------------------------
  bool GRead(uint64_t addr, uint8_t* dst, size_t n) {
    if (desc_base_ != 0 && addr >= desc_base_ && addr + n <= desc_base_ + kDescSlots * 128ull) {
      const uint64_t off = addr - desc_base_;
      const size_t slot = static_cast<size_t>(off / 128);
      if (slot >= slots_.size() || off % 128 + n > 128) {
        return false;
      }
      std::memcpy(dst, slots_[slot].data() + off % 128, n);
      return true;
    }
    return e_->host.gmem_read != nullptr &&
           e_->host.gmem_read(e_->host.user, addr, dst, static_cast<uint32_t>(n)) == 0;
  }
  bool GWrite(uint64_t addr, const uint8_t* src, size_t n) {
    if (desc_base_ != 0 && addr < desc_base_ + kDescSlots * 128ull && addr + n > desc_base_) {
      return false;  // the descriptor area is read-only
    }
    if (e_->host.gmem_write == nullptr) {
      return true;
    }
    return e_->host.gmem_write(e_->host.user, addr, src, static_cast<uint32_t>(n)) == 0;
  }
  bool SRead(int cta, uint32_t addr, uint8_t* dst, size_t n) {
    if (e_->host.smem_read == nullptr) {
      std::memset(dst, 0, n);
      return true;
    }
    return e_->host.smem_read(e_->host.user, static_cast<uint32_t>(cta), addr, dst,
                              static_cast<uint32_t>(n)) == 0;
  }
  bool SWrite(int cta, uint32_t addr, const uint8_t* src, size_t n) {
    if (e_->checker != nullptr) {
      e_->checker->TmaSmemWrite(Writer(cta, addr), static_cast<uint32_t>(cta), addr,
                                static_cast<uint32_t>(n), e_->cycle);
    }
    if (e_->host.smem_write == nullptr) {
      return true;
    }
    return e_->host.smem_write(e_->host.user, static_cast<uint32_t>(cta), addr, src,
                               static_cast<uint32_t>(n)) == 0;
  }
  int num_ctas() const { return e_->num_ctas; }

 private:
  tma::sim::ErrorFn Noter() {
    return [this](const std::string& id, const std::string& msg) {
      if (note_.empty()) {
        note_ = id + ": " + msg;
      }
    };
  }
  bool Active() const { return live_ > 0 || cmd_.driving() || top_->pins.busy; }
  bool InDescArea(uint64_t addr) const {
    return desc_base_ != 0 && addr >= desc_base_ && addr < desc_base_ + kDescSlots * 128ull;
  }
  // The oldest op in flight (smallest token) that `want` accepts, else the oldest; -1 if none.
  template <typename Pred>
  int Oldest(Pred want) const {
    int best = -1, any = -1;
    for (int k = 0; k < kTags; ++k) {
      const auto& f = ops_[static_cast<size_t>(k)];
      if (!f) {
        continue;
      }
      if (any < 0 || f->token < ops_[static_cast<size_t>(any)]->token) {
        any = k;
      }
      if (want(*f) && (best < 0 || f->token < ops_[static_cast<size_t>(best)]->token)) {
        best = k;
      }
    }
    return best >= 0 ? best : any;
  }
  // The host's memory system in front of the AXI slaves (host.mem_req).
  void UseHostMemory();
  uint64_t GateRequest(bool write, uint32_t id, uint64_t addr, uint64_t bytes);
  int GateResponse(uint64_t handle);
  uint64_t SendReq(const otma_mem_req& r, uint64_t handle);  // answers the request's tag
  void OnSmemRead();
  // The load in flight whose destination window holds (cta, addr): the writer of that byte.
  otma_token Writer(int cta, uint32_t addr) const {
    for (const auto& f : ops_) {
      if (f && addr >= f->smem_lo && addr < f->smem_hi) {
        for (int d : f->dst_ctas) {
          if (d == cta) {
            return f->token;
          }
        }
      }
    }
    return 0;
  }
  // The descriptor address of an op: its map's slot, or desc_va.
  otma_status DescAddr(const otma_op& op, const m::TensorMap* map, uint64_t* addr);
  void Step();
  void Complete(const tma::sim::EngineCompletion& c);
  void Finish(uint8_t tag, uint32_t ev, otma_status s);
  void FaultAll(otma_status s, const std::string& why);

  tma::sim::RtlBuild build_;
  std::unique_ptr<tma::sim::SimTop> top_;
  tma::sim::Harness h_;
  tma::sim::MtRandom rng_;  // every knob at 100 %: never drawn
  RtlGlobal gmem_;
  RtlShared smem_;
  tma::sim::GlobalMemorySource src_;
  tma::sim::AxiReadSlave axr_;
  tma::sim::AxiWriteSlave axw_;
  tma::sim::SmemPort smp_;
  tma::sim::CmdPort cmd_;
  tma::sim::CplPort cpl_;
  otma_engine* e_ = nullptr;
  std::vector<tma::sim::EngineCompletion> cpls_;
  std::array<std::optional<InFlight>, kTags> ops_;
  uint32_t live_ = 0;
  int next_tag_ = 0;
  uint64_t desc_base_ = 0;
  std::vector<std::array<uint8_t, 128>> slots_;
  std::map<std::array<uint8_t, 128>, uint32_t> slot_of_;
  bool inval_next_ = false;
  uint64_t last_activity_ = 0;
  uint64_t activity_sig_ = 0;
  std::string note_;
  // host.mem_req: per burst (handle) the requests not yet answered and the response code.
  struct GateEntry {
    uint32_t left = 0;
    int resp = 0;
  };
  bool host_memory_ = false;
  std::unordered_map<uint64_t, GateEntry> gate_;
  std::unordered_map<uint64_t, std::vector<uint64_t>> piece_;  // mem_req tag -> burst handles
  std::unordered_map<uint64_t, uint64_t> desc_line_;     // 128-byte line -> its DESC request tag
  std::deque<std::pair<otma_mem_req, uint64_t>> retry_;  // refused by the host
  uint64_t next_handle_ = 1, next_req_tag_ = 1, host_resps_ = 0;
  std::vector<int> read_done_q_;  // ops whose last shared-memory read was made this cycle
  std::deque<std::pair<int, otma_token>> reading_;  // stores / reductions (tag, token) in order
};

void VerilatedBackend::UseHostMemory() {
  host_memory_ = true;
  tma::sim::AxiMemoryGate rd;
  rd.request = [this](uint32_t id, uint64_t a, uint64_t n) { return GateRequest(false, id, a, n); };
  rd.response = [this](uint64_t h) { return GateResponse(h); };
  tma::sim::AxiMemoryGate wr = rd;
  wr.request = [this](uint32_t id, uint64_t a, uint64_t n) { return GateRequest(true, id, a, n); };
  axr_.set_gate(std::move(rd));
  axw_.set_gate(std::move(wr));
}

uint64_t VerilatedBackend::GateRequest(bool write, uint32_t id, uint64_t addr, uint64_t bytes) {
  const uint64_t h = next_handle_++;
  gate_[h] = GateEntry{};
  if (!write && InDescArea(addr)) {
    return h;  // the op's own descriptor bytes: not the host's memory
  }
  const bool desc = !write && id == tma::pkg::AxiIdDesc;
  const int k = Oldest([&](const InFlight& f) {
    if (desc) {
      return true;
    }
    if (write || id == tma::pkg::AxiIdRed) {
      return f.kind == OTMA_OP_TENSOR_REDUCE || (write && f.kind == OTMA_OP_TENSOR_STORE);
    }
    return f.kind == OTMA_OP_TENSOR_LOAD || f.kind == OTMA_OP_TENSOR_PREFETCH;
  });
  const otma_token op = k >= 0 ? ops_[static_cast<size_t>(k)]->token : 0;
  if (desc) {
    const uint64_t line = addr & ~127ull;
    auto it = desc_line_.find(line);
    if (it != desc_line_.end() && piece_.count(it->second) != 0) {
      piece_[it->second].push_back(h);  // the line's request is still unanswered
      ++gate_[h].left;
    } else {
      desc_line_[line] = SendReq(otma_mem_req{0, line, 128, OTMA_REQ_DESC, op}, h);
    }
    return h;
  }
  const uint64_t rb = e_->req_bytes;
  // (a tensor prefetch's data reads: PREFETCH requests, as otma_expand lists them)
  const bool pf = k >= 0 && ops_[static_cast<size_t>(k)]->kind == OTMA_OP_TENSOR_PREFETCH;
  const uint32_t kind = write ? OTMA_REQ_WRITE : pf ? OTMA_REQ_PREFETCH : OTMA_REQ_READ;
  for (uint64_t a = addr & ~(rb - 1); a < addr + bytes; a += rb) {
    otma_token sector_op = op;
    if (!write && id != tma::pkg::AxiIdRed) {
      // The oldest load / prefetch in flight that still expects this sector (Oldest falls back
      // to any op when none does, hence the second test).
      const auto expects = [a](const InFlight& f) {
        const auto it = f.sectors_left.find(a);
        return it != f.sectors_left.end() && it->second > 0;
      };
      const int j = Oldest(expects);
      if (j >= 0 && expects(*ops_[static_cast<size_t>(j)])) {
        --ops_[static_cast<size_t>(j)]->sectors_left[a];
        sector_op = ops_[static_cast<size_t>(j)]->token;
      }
    }
    SendReq(otma_mem_req{0, a, static_cast<uint32_t>(rb), kind, sector_op}, h);
  }
  return h;
}

uint64_t VerilatedBackend::SendReq(const otma_mem_req& r0, uint64_t handle) {
  otma_mem_req r = r0;
  r.tag = next_req_tag_++;
  piece_[r.tag] = {handle};
  ++gate_[handle].left;
  if (!retry_.empty() || e_->host.mem_req(e_->host.user, &r) != 0) {
    retry_.emplace_back(r, handle);  // offered again each cycle, in order
  }
  return r.tag;
}

int VerilatedBackend::GateResponse(uint64_t handle) {
  auto it = gate_.find(handle);
  if (it == gate_.end()) {
    return 2;
  }
  if (it->second.left > 0) {
    return -1;
  }
  const int resp = it->second.resp;
  gate_.erase(it);
  return resp;
}

otma_status VerilatedBackend::MemResp(uint64_t tag, otma_status bus) {
  auto it = piece_.find(tag);
  if (it == piece_.end()) {
    return OTMA_E_UNKNOWN_TAG;
  }
  for (const auto& q : retry_) {
    if (q.first.tag == tag) {
      return OTMA_E_UNKNOWN_TAG;  // the host has not accepted it yet
    }
  }
  for (uint64_t h : it->second) {
    GateEntry& g = gate_[h];
    --g.left;
    if (bus != OTMA_OK) {
      g.resp = 2;
    }
  }
  piece_.erase(it);
  ++host_resps_;
  return OTMA_OK;
}

void VerilatedBackend::OnSmemRead() {
  // The store path serves its commands' sources in command order: the read belongs to the
  // oldest store or reduction in flight whose reads are not all made.
  while (!reading_.empty()) {
    const auto& f = ops_[static_cast<size_t>(reading_.front().first)];
    if (f && f->token == reading_.front().second && !f->read_done) {
      break;
    }
    reading_.pop_front();
  }
  if (reading_.empty()) {
    return;
  }
  const int k = reading_.front().first;
  InFlight& f = *ops_[static_cast<size_t>(k)];
  if (++f.reads_got == f.reads_want) {
    f.read_done = true;
    read_done_q_.push_back(k);
  }
}

bool RtlGlobal::Read(uint64_t addr, uint8_t* dst, size_t n) {
  return b_->GRead(addr, dst, n);
}
bool RtlGlobal::Write(uint64_t addr, const uint8_t* src, size_t n) {
  return b_->GWrite(addr, src, n);
}
int RtlShared::NumCtas() const {
  return b_->num_ctas();
}
bool RtlShared::Read(int cta, uint32_t addr, uint8_t* dst, size_t n) {
  return b_->SRead(cta, addr, dst, n);
}
bool RtlShared::Write(int cta, uint32_t addr, const uint8_t* src, size_t n) {
  return b_->SWrite(cta, addr, src, n);
}

otma_status VerilatedBackend::DescAddr(const otma_op& op, const m::TensorMap* map, uint64_t* addr) {
  if (op.desc_bytes == nullptr && op.desc == nullptr) {
    *addr = op.desc_va;
    return OTMA_OK;
  }
  std::array<uint8_t, 128> b;
  if (op.desc_bytes != nullptr) {
    std::memcpy(b.data(), op.desc_bytes, 128);
  } else {
    const m::DescriptorBytes d = m::EncodeDescriptor(*map);
    std::memcpy(b.data(), d.data(), 128);
  }
  if (desc_base_ == 0) {
    // The first candidate base none of whose slots' ends the host maps.
    for (uint64_t base : kDescBase) {
      uint8_t probe = 0;
      desc_base_ = 0;
      const bool lo =
          e_->host.gmem_read != nullptr && e_->host.gmem_read(e_->host.user, base, &probe, 1) == 0;
      const bool hi =
          e_->host.gmem_read != nullptr &&
          e_->host.gmem_read(e_->host.user, base + kDescSlots * 128ull - 1, &probe, 1) == 0;
      if (!lo && !hi) {
        desc_base_ = base;
        break;
      }
    }
    if (desc_base_ == 0) {
      e_->Log(2, "RTL: every candidate descriptor area is mapped by the host");
      return OTMA_E_NO_BACKEND;
    }
  }
  auto it = slot_of_.find(b);
  if (it == slot_of_.end()) {
    if (slots_.size() >= kDescSlots) {
      // Every slot holds a map: start over once no op in flight can still fetch one, with the
      // RTL's descriptor cache cleared by the same command.
      if (live_ > 0) {
        return OTMA_E_BUSY;
      }
      slots_.clear();
      slot_of_.clear();
      inval_next_ = true;
    }
    it = slot_of_.emplace(b, static_cast<uint32_t>(slots_.size())).first;
    slots_.push_back(b);
  }
  *addr = desc_base_ + 128ull * it->second;
  return OTMA_OK;
}

otma_status VerilatedBackend::Submit(otma_engine& e, const otma_op& op, otma_token t) {
  e_ = &e;
  auto refuse = [&](otma_status s, const std::string& why) {
    if (s == OTMA_E_UNSUPPORTED) {
      e.Log(1, "RTL does not run op " + std::to_string(t) + ": " + why);
    }
    e.Done(t, OTMA_EV_FAULT, s);
    return s;
  };
  const bool tensor = op.kind >= OTMA_OP_TENSOR_LOAD && op.kind <= OTMA_OP_TENSOR_PREFETCH;
  if (!tensor) {
    return refuse(OTMA_E_UNSUPPORTED,
                  "the RTL does not implement the non-tensor bulk operations and "
                  "tensormap.replace");
  }
  if (cmd_.driving()) {
    return OTMA_E_BUSY;  // the command port has not taken the previous command yet
  }
  int tag = -1;
  for (int k = 0; k < kTags; ++k) {
    const int c = (next_tag_ + k) % kTags;
    if (!ops_[static_cast<size_t>(c)]) {
      tag = c;
      break;
    }
  }
  if (tag < 0) {
    return OTMA_E_BUSY;
  }
  const m::TensorInstr in = ToTensorInstr(op);
  // The map decides the claim (element type, swizzle) and nothing else: the RTL fetches and
  // checks the map itself, so a map that cannot be read or decoded still goes to the RTL (which
  // answers its class).
  m::TensorMap map;
  const m::Status ms = e.ResolveMap(op, true, &map);
  m::GoldenCase c;
  c.op = in.op;
  c.mode = in.mode;
  c.arch = m::ToString(e.arch);
  c.tensor.dtype = ms.ok() ? map.dtype : m::DType::kU8;
  c.tensor.swizzle = ms.ok() ? map.swizzle : m::Swizzle::kNone;
  m::GoldenCluster cl;
  cl.ctas = e.num_ctas;
  cl.cta_group = in.cta_group;
  c.cluster = cl;
  if (const std::string why = tma::sim::RtlSkipReason(c, build_); !why.empty()) {
    return refuse(OTMA_E_UNSUPPORTED, why);
  }
  // The engine's arch and cluster size are tma_sim_top's arch_i and cluster_i (0 = 16): the RTL
  // checks the encoder rules of that arch, the CTA operands and the multicast mask (F6) itself.
  // Both are fixed per engine, so they change only while the RTL is idle.
  if (!host_memory_ && e.host.mem_req != nullptr) {
    UseHostMemory();
  }
  h_.pins().arch = static_cast<uint8_t>(e.arch);
  h_.pins().cluster = static_cast<uint8_t>(e.num_ctas & 15);
  if (in.issuer_cta >= 16 || in.dst_cta >= 16 || in.mbar_cta >= 16) {
    // Not encodable in the command's 4-bit CTA fields: the model's verdict.
    m::Status st = m::Status::Error(m::ErrorClass::kInvalidInstruction, "cta",
                                    "a CTA number at or above the cluster size");
    if (ms.ok()) {
      const m::Status chk = m::CheckInstruction(map, in, e.arch, e.num_ctas);
      if (!chk.ok()) {
        st = chk;
      }
    }
    return refuse(FromModel(st), "F6: " + st.ToString());
  }
  uint64_t daddr = 0;
  if (const otma_status s = DescAddr(op, ms.ok() ? &map : nullptr, &daddr); s != OTMA_OK) {
    return s == OTMA_E_BUSY ? s : refuse(s, "no descriptor area");
  }
  InFlight f;
  f.token = t;
  f.kind = op.kind;
  f.group = op.kind == OTMA_OP_TENSOR_STORE || op.kind == OTMA_OP_TENSOR_REDUCE;
  if (f.group && ms.ok()) {
    f.reads_want = PredictSmemReads(map, in, static_cast<uint32_t>(top_->pins.data_bytes));
  }
  if (op.kind == OTMA_OP_TENSOR_LOAD || op.kind == OTMA_OP_TENSOR_PREFETCH) {
    std::vector<otma_mem_req> sectors;
    if (e.Expand(op, &sectors, nullptr, nullptr) == OTMA_OK) {
      for (const otma_mem_req& r : sectors) {
        ++f.sectors_left[r.addr];
      }
    }
  }
  if (op.kind == OTMA_OP_TENSOR_LOAD) {
    for (const m::CompleteTx& x :
         m::CompleteTxEvents(in.multicast, in.cta_mask, in.dst_cta < 0 ? in.issuer_cta : in.dst_cta,
                             in.mbar_cta, in.cta_group, in.mbar_addr, 0)) {
      ++f.want_tx;
      (void)x;
    }
    const std::vector<int> dst =
        in.multicast ? std::vector<int>{}
                     : std::vector<int>{in.dst_cta < 0 ? in.issuer_cta : in.dst_cta};
    f.dst_ctas = dst;
    if (in.multicast) {
      for (int k = 0; k < 16; ++k) {
        if ((in.cta_mask >> k) & 1) {
          f.dst_ctas.push_back(k);
        }
      }
    }
    f.smem_lo = in.smem_addr;
    f.smem_hi = in.smem_addr + (ms.ok() ? m::CompleteTxBytes(map, in) : 0);
  }
  tma::sim::EngineCommand cmd;
  cmd.instr = in;
  cmd.desc_addr = daddr;
  cmd.tag = static_cast<uint8_t>(tag);
  cmd.inval_before = inval_next_;
  inval_next_ = false;
  cmd_.Offer(cmd, &h_.pins());
  h_.Apply();
  next_tag_ = (tag + 1) % kTags;
  if (f.group) {
    reading_.emplace_back(tag, t);
  }
  ops_[static_cast<size_t>(tag)] = std::move(f);
  ++live_;
  e.NotifyIssued(op, t);
  if (ops_[static_cast<size_t>(tag)]->group) {
    e.TrackGroup(op, t);
  }
  if (live_ == 1) {
    last_activity_ = e.cycle;
  }
  return OTMA_OK;
}

void VerilatedBackend::Finish(uint8_t tag, uint32_t ev, otma_status s) {
  std::optional<InFlight>& f = ops_[tag];
  const InFlight op = std::move(*f);
  f.reset();
  --live_;
  if (ev == OTMA_EV_DONE && op.group && !op.read_done) {
    if (op.reads_got != op.reads_want) {
      e_->Log(1, "RTL: op " + std::to_string(op.token) + " made " + std::to_string(op.reads_got) +
                     " shared-memory reads, " + std::to_string(op.reads_want) +
                     " predicted: READ_DONE with DONE");
    }
    e_->Done(op.token, OTMA_EV_READ_DONE, OTMA_OK);
  }
  e_->Done(op.token, ev, s);
}

void VerilatedBackend::FaultAll(otma_status s, const std::string& why) {
  e_->Log(2, "RTL: " + why);
  for (int k = 0; k < kTags; ++k) {
    if (ops_[static_cast<size_t>(k)]) {
      Finish(static_cast<uint8_t>(k), OTMA_EV_FAULT, s);
    }
  }
}

void VerilatedBackend::Complete(const tma::sim::EngineCompletion& c) {
  std::optional<InFlight>& f = ops_[c.tag];
  if (!f) {
    FaultAll(OTMA_E_TX_WATCHDOG,
             "a completion with tag " + std::to_string(c.tag) + " no op in flight carries");
    return;
  }
  if (c.kind == tma::pkg::CplTx) {
    if (f->kind != OTMA_OP_TENSOR_LOAD || f->got_tx >= f->want_tx) {
      FaultAll(OTMA_E_TX_WATCHDOG,
               "a complete-tx for op " + std::to_string(f->token) + " that expects no more");
      return;
    }
    ++f->got_tx;
    e_->Signal(f->token, {m::CompleteTx{c.cta, c.mbar_addr, c.bytes}});
    if (f->got_tx == f->want_tx) {
      Finish(c.tag, OTMA_EV_DONE, OTMA_OK);
    }
  } else if (c.kind == tma::pkg::CplError) {
    if (f->got_tx > 0) {
      FaultAll(OTMA_E_TX_WATCHDOG,
               "an error completion after complete-tx for op " + std::to_string(f->token));
      return;
    }
    Finish(c.tag, OTMA_EV_FAULT, -static_cast<otma_status>(c.error));
  } else {
    if (f->kind == OTMA_OP_TENSOR_LOAD) {
      FaultAll(OTMA_E_TX_WATCHDOG, "a done completion for load op " + std::to_string(f->token));
      return;
    }
    Finish(c.tag, OTMA_EV_DONE, OTMA_OK);
  }
}

void VerilatedBackend::Step() {
  while (!retry_.empty() && e_->host.mem_req(e_->host.user, &retry_.front().first) == 0) {
    retry_.pop_front();
  }
  h_.Step();
  ++e_->cycle;
  const uint64_t sig =
      axr_.beats() + axw_.beats() + smp_.beats() + cpl_.received() + cmd_.accepted() + host_resps_;
  if (sig != activity_sig_) {
    activity_sig_ = sig;
    last_activity_ = e_->cycle;
  }
  for (int k : read_done_q_) {
    const auto& f = ops_[static_cast<size_t>(k)];
    if (f && f->read_done) {
      e_->Done(f->token, OTMA_EV_READ_DONE, OTMA_OK);
    }
  }
  read_done_q_.clear();
  for (const tma::sim::EngineCompletion& c : cpls_) {
    Complete(c);
  }
  cpls_.clear();
  if (top_->TakeAssertFailure() && note_.empty()) {
    note_ = "an RTL assertion failed (see the log)";
  }
  if (!note_.empty()) {
    const std::string n = std::move(note_);
    note_.clear();
    FaultAll(OTMA_E_TX_WATCHDOG, n);
  }
  if (live_ > 0 && e_->cycle - last_activity_ > e_->cfg.watchdog_cycles) {
    FaultAll(OTMA_E_TX_WATCHDOG, "no activity for " + std::to_string(e_->cfg.watchdog_cycles) +
                                     " cycles with ops in flight");
  }
}

otma_status VerilatedBackend::Tick(otma_engine& e, uint64_t cycles) {
  e_ = &e;
  for (uint64_t i = 0; i < cycles; ++i) {
    if (!Active()) {
      e.cycle += cycles - i;  // idle: the RTL's state cannot change
      break;
    }
    Step();
  }
  return OTMA_OK;
}

uint64_t VerilatedBackend::Drain(otma_engine& e) {
  e_ = &e;
  const uint64_t start = e.cycle;
  while (Active() && e.cycle - last_activity_ <= e.cfg.watchdog_cycles) {
    if (!piece_.empty() && e.cycle - last_activity_ >= kDrainQuiet) {
      break;  // only the host's memory responses can make progress
    }
    Step();
  }
  return e.cycle - start;
}

}  // namespace

std::unique_ptr<RtlBackend> MakeRtlBackend(const otma_config& cfg) {
  const int db = cfg.rtl_data_bytes == 0 ? 16 : static_cast<int>(cfg.rtl_data_bytes);
  std::unique_ptr<tma::sim::SimTop> top = tma::sim::MakeSimTop(db);
  if (!top) {
    return nullptr;
  }
  return std::make_unique<VerilatedBackend>(std::move(top), db);
}

}  // namespace otma_impl
