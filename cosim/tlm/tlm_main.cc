// SPDX-License-Identifier: Apache-2.0
//
// tma-cosim-tlm: the trace host of `tma cosim` (cosim/host) with every engine behind the TLM-2.0
// skin (A10). A platform of 16 otma::tlm::Engine modules (the largest cluster), each with its
// own global- and shared-memory targets over the replay's memories (DMI into the replay's
// buffers and windows, b_transport otherwise), is elaborated once; an SC_THREAD replays the
// traces, submitting every op as a TLM write on the engine's command socket. All engines share
// the driver's quantum keeper (global quantum 1 us); the cluster's clock is 1.98 GHz (the H100
// SM clock of the captures). Same options and exit status as tma-cosim (--mode, --check).
#include <CLI/CLI.hpp>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "otma_tlm.h"
#include "replay.h"

namespace {

using otma::tlm::Backing;
using otma::tlm::Engine;
using otma::tlm::Memory;

constexpr int kMaxCtas = 16;

class GlobalBacking : public Backing {
 public:
  GlobalBacking(const otma_host& h, const otma_trace::MemoryView& m) : h_(h), m_(m) {}
  bool Read(uint64_t a, uint8_t* d, uint32_t n) override {
    return h_.gmem_read(h_.user, a, d, n) == 0;
  }
  bool Write(uint64_t a, const uint8_t* s, uint32_t n) override {
    return h_.gmem_write(h_.user, a, s, n) == 0;
  }
  bool Region(uint64_t a, uint8_t** base, uint64_t* start, uint64_t* bytes) override {
    return m_.GlobalRegion(a, base, start, bytes);
  }
  void CompleteTx(uint64_t, uint32_t) override {}

 private:
  otma_host h_;
  const otma_trace::MemoryView& m_;
};

class SharedBacking : public Backing {
 public:
  SharedBacking(const otma_host& h, const otma_trace::MemoryView& m) : h_(h), m_(m) {}
  bool Read(uint64_t a, uint8_t* d, uint32_t n) override {
    return h_.smem_read(h_.user, Rank(a), Off(a), d, n) == 0;
  }
  bool Write(uint64_t a, const uint8_t* s, uint32_t n) override {
    return h_.smem_write(h_.user, Rank(a), Off(a), s, n) == 0;
  }
  bool Region(uint64_t a, uint8_t** base, uint64_t* start, uint64_t* bytes) override {
    uint32_t n = 0;
    uint8_t* w = m_.Window(Rank(a), &n);
    if (w == nullptr)
      return false;
    *base = w;
    *start = static_cast<uint64_t>(Rank(a)) << 24;
    *bytes = n;
    return true;
  }
  void CompleteTx(uint64_t a, uint32_t bytes) override {
    h_.complete_tx(h_.user, Rank(a), Off(a), bytes);
  }

 private:
  static uint32_t Rank(uint64_t a) { return static_cast<uint32_t>(a >> 24); }
  static uint32_t Off(uint64_t a) { return static_cast<uint32_t>(a & 0xFFFFFF); }
  otma_host h_;
  const otma_trace::MemoryView& m_;
};

struct Platform : sc_core::sc_module {
  std::vector<std::unique_ptr<Engine>> engines;
  std::vector<std::unique_ptr<Memory>> gmems, smems;
  std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket<Platform>>> cmds;
  tlm_utils::tlm_quantumkeeper qk;
  std::vector<std::string> traces;
  otma_trace::Options opt;
  std::vector<otma_trace::Result> results;
  int rc = 0;

  SC_HAS_PROCESS(Platform);
  explicit Platform(sc_core::sc_module_name n) : sc_module(n) {
    const sc_core::sc_time clk(1.0 / 1.98, sc_core::SC_NS);
    for (int k = 0; k < kMaxCtas; ++k) {
      const std::string s = std::to_string(k);
      engines.push_back(std::make_unique<Engine>(("engine" + s).c_str(), clk));
      gmems.push_back(std::make_unique<Memory>(("gmem" + s).c_str(), sc_core::SC_ZERO_TIME));
      smems.push_back(std::make_unique<Memory>(("smem" + s).c_str(), sc_core::SC_ZERO_TIME));
      cmds.push_back(
          std::make_unique<tlm_utils::simple_initiator_socket<Platform>>(("cmd" + s).c_str()));
      engines[k]->gmem.bind(gmems[k]->socket);
      engines[k]->smem.bind(smems[k]->socket);
      cmds[k]->bind(engines[k]->cmd);
      engines[k]->set_quantum_keeper(&qk);
    }
    tlm_utils::tlm_quantumkeeper::set_global_quantum(sc_core::sc_time(1, sc_core::SC_US));
    qk.reset();
    SC_THREAD(Run);
  }
  void Run();
};

class TlmPort : public otma_trace::EnginePort {
 public:
  TlmPort(Platform& p, uint32_t rank, const otma_host& h, const otma_trace::MemoryView& m)
      : p_(p), rank_(rank), g_(h, m), s_(h, m) {
    p_.gmems[rank]->set_backing(&g_);
    p_.smems[rank]->set_backing(&s_);
  }
  ~TlmPort() override {
    p_.gmems[rank_]->set_backing(nullptr);
    p_.smems[rank_]->set_backing(nullptr);
  }
  otma_status Submit(const otma_op& op, otma_token* t) override {
    tlm::tlm_generic_payload pl;
    otma::tlm::CmdExt ext;
    otma_op copy = op;
    pl.set_command(tlm::TLM_WRITE_COMMAND);
    pl.set_address(0);
    pl.set_data_ptr(reinterpret_cast<unsigned char*>(&copy));
    pl.set_data_length(sizeof copy);
    pl.set_streaming_width(sizeof copy);
    pl.set_extension(&ext);
    sc_core::sc_time delay = p_.qk.get_local_time();
    (*p_.cmds[rank_])->b_transport(pl, delay);
    p_.qk.set(delay);
    if (p_.qk.need_sync())
      p_.qk.sync();
    pl.clear_extension(&ext);
    if (pl.get_response_status() != tlm::TLM_OK_RESPONSE)
      return OTMA_E_ARGUMENT;
    if (t != nullptr)
      *t = ext.token;
    return ext.status;
  }
  void Tick(uint64_t n) override { p_.engines[rank_]->Tick(n, rank_ == 0); }
  uint64_t NextEvent() override { return otma_next_event(e()); }
  otma_status MemResp(uint64_t tag, otma_status st) override { return otma_mem_resp(e(), tag, st); }
  void BulkCommit(uint32_t warp) override { otma_bulk_commit(e(), warp); }
  bool BulkWait(uint32_t warp, uint32_t n, bool read) override {
    return otma_bulk_wait(e(), warp, n, read ? 1 : 0) != 0;
  }
  uint64_t Cycle() override { return otma_cycle(e()); }

 private:
  otma_engine* e() { return p_.engines[rank_]->engine(); }
  Platform& p_;
  uint32_t rank_;
  GlobalBacking g_;
  SharedBacking s_;
};

void Platform::Run() {
  opt.port_name = "tlm";
  opt.port = [this](const otma_config& cfg, const otma_host& host, uint32_t rank,
                    const otma_trace::MemoryView& mem,
                    std::string* err) -> std::unique_ptr<otma_trace::EnginePort> {
    if (rank >= engines.size()) {
      *err = "cluster larger than the platform";
      return nullptr;
    }
    const otma_status st = engines[rank]->Reset(cfg, host);
    if (st != OTMA_OK) {
      *err = otma_status_str(st);
      return nullptr;
    }
    return std::make_unique<TlmPort>(*this, rank, host, mem);
  };
  for (const std::string& t : traces) {
    otma_trace::Result r;
    std::string err;
    if (!otma_trace::ReplayTrace(t, opt, &r, &err)) {
      std::cerr << "tma-cosim-tlm: " << err << "\n";
      rc = 2;
      sc_core::sc_stop();
      return;
    }
    if (!r.ok())
      rc = 1;
    results.push_back(std::move(r));
  }
  qk.sync();
  sc_core::sc_stop();
}

}  // namespace

int sc_main(int argc, char** argv) {
  CLI::App app{"Replay captured TMA traces through the TLM-2.0 skin of the co-simulation library"};
  std::vector<std::string> traces;
  std::string mode = "functional";
  bool check = false;
  app.add_option("--trace,traces", traces, "otma-trace v1 files")->required();
  app.add_option("--mode", mode, "functional | timed | rtl")
      ->check(CLI::IsMember({"functional", "timed", "rtl"}));
  app.add_flag("--check", check, "mbarrier / async-proxy checker on");
  CLI11_PARSE(app, argc, argv);
  Platform p("platform");
  p.traces = traces;
  p.opt.mode = mode == "timed" ? OTMA_MODE_TIMED
               : mode == "rtl" ? OTMA_MODE_RTL
                               : OTMA_MODE_FUNCTIONAL;
  p.opt.check = check;
  sc_core::sc_start();
  otma_trace::PrintSummary(p.results, p.opt, std::cout);
  uint64_t dmi = 0, tr = 0;
  for (const auto& e : p.engines) {
    dmi += e->dmi_hits();
    tr += e->transports();
  }
  std::cout << "tlm: " << dmi << " DMI accesses, " << tr << " b_transport accesses, simulated "
            << sc_core::sc_time_stamp().to_string() << "\n";
  std::cout << "tma-cosim-tlm: " << (p.rc == 0 ? "PASS" : "FAIL") << "\n";
  return p.rc;
}
