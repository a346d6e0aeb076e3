// SPDX-License-Identifier: Apache-2.0
//
// SystemC bench for the Verilated SystemC models of tma_fifo (Depth 4, Width 32) and
// tma_stream_arb (NumIn 3, Width 16, LockIn 1). A 100 MHz sc_clock drives both; each bench
// thread applies inputs after the falling edge, samples the settled outputs 1 ns later, and
// checks them with a scoreboard (the reference queue for the FIFO, the per-input sources for
// the arbiter) while sources and sinks stall at random. Exits non-zero on any mismatch, on an
// SVA firing, or if not every item arrived.

#include <cstdint>
#include <cstdio>
#include <deque>
#include <random>
#include <vector>

#include <systemc>
#include <verilated.h>

#include "VArbScN3.h"
#include "VFifoScD4.h"

namespace tma::tb {
namespace {

int g_errors = 0;

#define SC_CHECK(cond, what)                                                                   \
  do {                                                                                         \
    if (!(cond)) {                                                                             \
      if (g_errors++ < 10) {                                                                   \
        std::printf("MISMATCH at %s: %s (%s)\n", sc_core::sc_time_stamp().to_string().c_str(), \
                    what, #cond);                                                              \
      }                                                                                        \
    }                                                                                          \
  } while (0)

// FIFO bench: random source and sink stalls, occasional flushes, scoreboard = reference queue.
class FifoBench : public sc_core::sc_module {
 public:
  static constexpr unsigned kDepth = 4;
  static constexpr unsigned kItems = 2000;

  sc_core::sc_in<bool> clk_i{"clk_i"};
  sc_core::sc_signal<bool> rst_ni{"rst_ni"}, clr_i{"clr_i"};
  sc_core::sc_signal<bool> in_valid_i{"in_valid_i"}, in_ready_o{"in_ready_o"};
  sc_core::sc_signal<bool> out_valid_o{"out_valid_o"}, out_ready_i{"out_ready_i"};
  sc_core::sc_signal<uint32_t> in_data_i{"in_data_i"}, out_data_o{"out_data_o"};
  sc_core::sc_signal<uint32_t> usage_o{"usage_o"};
  VFifoScD4 dut{"fifo_dut"};
  unsigned popped = 0;

  SC_HAS_PROCESS(FifoBench);
  explicit FifoBench(sc_core::sc_module_name name) : sc_module(name) {
    dut.clk_i(clk_i);
    dut.rst_ni(rst_ni);
    dut.clr_i(clr_i);
    dut.in_valid_i(in_valid_i);
    dut.in_ready_o(in_ready_o);
    dut.in_data_i(in_data_i);
    dut.out_valid_o(out_valid_o);
    dut.out_ready_i(out_ready_i);
    dut.out_data_o(out_data_o);
    dut.usage_o(usage_o);
    SC_THREAD(Run);
  }

 private:
  void Run() {
    std::mt19937 rng(2024);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    rst_ni.write(false);
    for (int i = 0; i < 3; ++i) {
      wait(clk_i.negedge_event());
    }
    rst_ni.write(true);
    std::deque<uint32_t> stored;
    bool src_valid = false;
    uint32_t src_data = 0;
    unsigned sent = 0;
    while (popped < kItems) {
      wait(clk_i.negedge_event());
      // Duty cycles change every 500 cycles to sweep from starved to back-pressured.
      const double phase = (sc_core::sc_time_stamp().value() / 5000000) % 3 * 0.4 + 0.2;
      if (!src_valid && sent < kItems && u(rng) < phase) {
        src_valid = true;
        src_data = static_cast<uint32_t>(rng());
      }
      const bool ready = u(rng) < 1.2 - phase;
      const bool clr = u(rng) < 0.01;
      in_valid_i.write(src_valid);
      in_data_i.write(src_data);
      out_ready_i.write(ready);
      clr_i.write(clr);
      wait(1, sc_core::SC_NS);
      const bool exp_in_ready = !clr && stored.size() < kDepth;
      const bool exp_out_valid = !clr && !stored.empty();
      SC_CHECK(in_ready_o.read() == exp_in_ready, "fifo in_ready_o");
      SC_CHECK(out_valid_o.read() == exp_out_valid, "fifo out_valid_o");
      SC_CHECK(usage_o.read() == stored.size(), "fifo usage_o");
      if (exp_out_valid) {
        SC_CHECK(out_data_o.read() == stored.front(), "fifo out_data_o");
      }
      if (src_valid && exp_in_ready) {
        stored.push_back(src_data);
        src_valid = false;
        ++sent;
      }
      if (exp_out_valid && ready) {
        stored.pop_front();
        ++popped;
      }
      if (clr) {
        popped += stored.size();  // flushed items count as gone
        stored.clear();
      }
    }
  }
};

// Arbiter bench: three sources tagged (i << 12 | seq), random stalls, grant/lock/fairness checks.
class ArbBench : public sc_core::sc_module {
 public:
  static constexpr unsigned kNumIn = 3;
  static constexpr unsigned kItems = 700;

  sc_core::sc_in<bool> clk_i{"clk_i"};
  sc_core::sc_signal<bool> rst_ni{"rst_ni"};
  sc_core::sc_signal<uint32_t> in_valid_i{"in_valid_i"}, in_ready_o{"in_ready_o"};
  sc_core::sc_signal<uint64_t> in_data_i{"in_data_i"};
  sc_core::sc_signal<bool> out_valid_o{"out_valid_o"}, out_ready_i{"out_ready_i"};
  sc_core::sc_signal<uint32_t> out_data_o{"out_data_o"}, out_idx_o{"out_idx_o"};
  VArbScN3 dut{"arb_dut"};
  unsigned grants = 0;
  unsigned max_wait = 0;

  SC_HAS_PROCESS(ArbBench);
  explicit ArbBench(sc_core::sc_module_name name) : sc_module(name) {
    dut.clk_i(clk_i);
    dut.rst_ni(rst_ni);
    dut.in_valid_i(in_valid_i);
    dut.in_ready_o(in_ready_o);
    dut.in_data_i(in_data_i);
    dut.out_valid_o(out_valid_o);
    dut.out_ready_i(out_ready_i);
    dut.out_data_o(out_data_o);
    dut.out_idx_o(out_idx_o);
    SC_THREAD(Run);
  }

 private:
  void Run() {
    std::mt19937 rng(77);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    rst_ni.write(false);
    for (int i = 0; i < 3; ++i) {
      wait(clk_i.negedge_event());
    }
    rst_ni.write(true);
    bool valid[kNumIn] = {};
    unsigned seq[kNumIn] = {}, wait_grants[kNumIn] = {};
    bool prev_stalled = false;
    uint32_t prev_idx = 0, prev_data = 0;
    while (grants < kNumIn * kItems) {
      wait(clk_i.negedge_event());
      uint32_t vbits = 0;
      uint64_t flat = 0;
      for (unsigned i = 0; i < kNumIn; ++i) {
        if (!valid[i] && seq[i] < kItems && u(rng) < 0.3 + 0.2 * i) {
          valid[i] = true;
        }
        vbits |= valid[i] ? 1u << i : 0u;
        flat |= static_cast<uint64_t>((i << 12 | seq[i]) & 0xffff) << (16 * i);
      }
      const bool ready = u(rng) < 0.6;
      in_valid_i.write(vbits);
      in_data_i.write(flat);
      out_ready_i.write(ready);
      wait(1, sc_core::SC_NS);
      const bool out_valid = out_valid_o.read();
      const uint32_t idx = out_idx_o.read();
      const uint32_t data = out_data_o.read();
      SC_CHECK(out_valid == (vbits != 0), "arb out_valid_o");
      if (prev_stalled) {
        SC_CHECK(out_valid && idx == prev_idx && data == prev_data, "arb stalled grant held");
      }
      if (out_valid) {
        SC_CHECK(idx < kNumIn && valid[idx], "arb grant to a valid input");
        SC_CHECK(idx < kNumIn && data == (idx << 12 | seq[idx]), "arb out_data_o");
        SC_CHECK((in_ready_o.read() & vbits) == (ready ? (1u << idx) & vbits : 0u),
                 "arb in_ready_o");
      }
      prev_stalled = out_valid && !ready;
      prev_idx = idx;
      prev_data = data;
      if (out_valid && ready && idx < kNumIn) {
        ++grants;
        for (unsigned i = 0; i < kNumIn; ++i) {
          if (i != idx && valid[i] && ++wait_grants[i] > max_wait) {
            max_wait = wait_grants[i];
          }
        }
        wait_grants[idx] = 0;
        valid[idx] = false;
        ++seq[idx];
      }
    }
  }
};

}  // namespace
}  // namespace tma::tb

int sc_main(int argc, char* argv[]) {
  using tma::tb::ArbBench;
  using tma::tb::FifoBench;
  Verilated::commandArgs(argc, argv);
  Verilated::defaultContextp()->fatalOnError(false);  // count SVA failures, do not abort
  Verilated::defaultContextp()->randReset(2);
  sc_core::sc_clock clk("clk", 10, sc_core::SC_NS);
  FifoBench fifo("fifo_bench");
  ArbBench arb("arb_bench");
  fifo.clk_i(clk);
  arb.clk_i(clk);
  sc_core::sc_start(500, sc_core::SC_US);  // 50k cycles; both benches need far fewer
  const bool sva = Verilated::defaultContextp()->gotError();
  std::printf("fifo: %u/%u items; arb: %u/%u grants, max wait %u grants; mismatches %d; SVA %s\n",
              fifo.popped, FifoBench::kItems, arb.grants, ArbBench::kNumIn * ArbBench::kItems,
              arb.max_wait, tma::tb::g_errors, sva ? "FIRED" : "quiet");
  const bool ok = tma::tb::g_errors == 0 && !sva && fifo.popped >= FifoBench::kItems &&
                  arb.grants == ArbBench::kNumIn * ArbBench::kItems &&
                  arb.max_wait <= ArbBench::kNumIn - 1;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
