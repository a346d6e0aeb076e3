// SPDX-License-Identifier: Apache-2.0
//
// EngineHarness<Model, kDataBytes>: tma_sim_top (the Verilated Model, at kDataBytes) in the
// harness of sim/, with the components the engine benches of tests/rtl/engine share: the
// command port (fed by a source callback), the AXI4 read slave over global memory, the AXI4
// write slave (over the same memory, or a separate one the stores write), the shared-memory
// port over a cluster's windows, the completion port (to an observer) and, when wanted, the
// bulk async-group completion port. A monitor given as `first` is clocked before every other
// component (it sees the pins as the DUT sampled them). Every component's protocol error is a
// test failure. Components are clocked in the order: first, command, read, write, shared
// memory, completion, group completion.
#ifndef TMA_TESTS_RTL_ENGINE_ENGINE_HARNESS_H_
#define TMA_TESTS_RTL_ENGINE_ENGINE_HARNESS_H_

#include <cstdint>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "sim/axi_read_slave.h"
#include "sim/axi_write_slave.h"
#include "sim/cmd_port.h"
#include "sim/cpl_port.h"
#include "sim/harness.h"
#include "sim/sim_top.h"
#include "sim/smem_port.h"
#include "tma/memory.h"

namespace tma::tb {

struct EngineHarnessOptions {
  uint32_t seed = 1;              // the Verilated model's random seed is seed % 0x7fffffff + 1
  uint32_t rng_seed = 1;          // the components' random stream
  int ctas = 4;                   // the Verilated tops have NumCtas 4
  uint32_t window = 65536;        // each CTA's shared window
  uint8_t poison = 0xA5;          // the windows' initial bytes
  bool write_memory = false;      // stores write wmem() (loads read gmem()); else gmem()
  sim::Clocked* first = nullptr;  // clocked before every other component (a monitor)
  bool groups = false;            // the bulk async-group completion port
};

template <class Model, int kDataBytes>
class EngineHarness {
 public:
  EngineHarness(const EngineHarnessOptions& o, sim::CmdPort::Source next,
                sim::CplPort::Observer cpl, sim::BgCplPort::Observer groups = nullptr)
      : top_(kDataBytes, "dut",
             sim::VerilatedOptions{2, static_cast<int>(o.seed % 0x7fffffffu) + 1}),
        h_(&top_),
        rng_(o.rng_seed),
        smem_(o.ctas, o.window, o.poison),
        src_(&gmem_),
        cmd_(&rng_, std::move(next)),
        axi_(&src_, &rng_, Fail()),
        axw_(o.write_memory ? &wmem_ : &gmem_, &rng_, Fail()),
        sport_(&smem_, &rng_, Fail()),
        bgp_(&rng_, std::move(groups)),
        cpl_(&rng_, std::move(cpl)) {
    if (o.first)
      h_.Add(o.first);
    h_.Add(&cmd_);
    h_.Add(&axi_);
    h_.Add(&axw_);
    h_.Add(&sport_);
    h_.Add(&cpl_);
    if (o.groups)
      h_.Add(&bgp_);
  }

  sim::Harness& h() { return h_; }
  sim::TopPins& pins() { return h_.pins(); }
  model::SparseGlobalMemory& gmem() { return gmem_; }
  // What the stores wrote when write_memory is set (else unused: they write gmem()).
  model::SparseGlobalMemory& wmem() { return wmem_; }
  model::ClusterSharedMemory& smem() { return smem_; }
  const model::ClusterSharedMemory& smem() const { return smem_; }
  sim::CmdPort& cmd() { return cmd_; }
  sim::AxiReadSlave& axi() { return axi_; }
  sim::AxiWriteSlave& axw() { return axw_; }
  sim::SmemPort& sport() { return sport_; }
  sim::CplPort& cpl() { return cpl_; }
  // Sets every random ready and valid of the harness side to `pct` percent.
  void SetStress(int pct) {
    axi_.config().arready_pct = pct;
    axi_.config().rvalid_pct = pct;
    axw_.config().awready_pct = pct;
    axw_.config().wready_pct = pct;
    axw_.config().bvalid_pct = pct;
    sport_.set_ready_pct(pct);
    cpl_.set_ready_pct(pct);
  }
  // No command being offered, the engine not busy, no AXI burst outstanding.
  bool Quiet() { return !cmd_.driving() && !h_.pins().busy && axi_.idle() && axw_.idle(); }
  bool TakeAssertFailure() { return top_.TakeAssertFailure(); }

 private:
  static sim::ErrorFn Fail() {
    return [](const std::string& id, const std::string& msg) {
      ADD_FAILURE() << "harness protocol check " << id << ": " << msg;
    };
  }

  sim::VerilatedTop<Model> top_;
  sim::Harness h_;
  sim::MtRandom rng_;
  model::SparseGlobalMemory gmem_;
  model::SparseGlobalMemory wmem_;
  model::ClusterSharedMemory smem_;
  sim::GlobalMemorySource src_;
  sim::CmdPort cmd_;
  sim::AxiReadSlave axi_;
  sim::AxiWriteSlave axw_;
  sim::SmemPort sport_;
  sim::BgCplPort bgp_;
  sim::CplPort cpl_;
};

}  // namespace tma::tb

#endif  // TMA_TESTS_RTL_ENGINE_ENGINE_HARNESS_H_
