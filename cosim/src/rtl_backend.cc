// SPDX-License-Identifier: Apache-2.0
//
// RTL mode: each tensor load / prefetch runs on the Verilated tma_sim_top through the golden
// replay's RTL engine (tb/golden/rtl_engine.h): the op becomes a one-operation golden case whose
// descriptor is the op's 128 bytes; the AXI read slave answers from the host's global memory
// (gmem_read), the shared-memory port writes through smem_write (per destination rank), and
// the engine's complete-tx completions go to complete_tx. The op runs to its completion inside
// otma_submit; the engine's cycle count grows by the RTL cycles it took. The engine's arch and
// cluster size become the case's, so tma_sim_top's arch_i and cluster_i. Ops the RTL does not
// implement (sim/rtl_support.h: stores, reductions, bulk copies, tensormap.replace, scatter4)
// answer OTMA_E_UNSUPPORTED with op_done(FAULT): a host lists them as skipped.
#include "rtl_backend.h"

#include <string>

#include "adapters.h"
#include "engine.h"
#include "tb/golden/rtl_engine.h"
#include "tma/golden.h"

namespace otma_impl {
namespace {

class VerilatedBackend : public RtlBackend {
 public:
  explicit VerilatedBackend(int data_bytes) : rtl_(data_bytes) {}
  bool Ok() const { return rtl_.Ok(); }

  otma_status Submit(otma_engine& e, const otma_op& op, otma_token t) override {
    if (op.kind != OTMA_OP_TENSOR_LOAD && op.kind != OTMA_OP_TENSOR_PREFETCH) {
      e.Done(t, OTMA_EV_FAULT, OTMA_E_UNSUPPORTED);
      return OTMA_E_UNSUPPORTED;
    }
    m::TensorMap map;
    m::Status st = e.ResolveMap(op, true, &map);
    if (!st.ok()) {
      const otma_status s = FromModel(st);
      e.Done(t, OTMA_EV_FAULT, s);
      return s;
    }
    const m::DescriptorBytes d = m::EncodeDescriptor(map);
    const m::TensorInstr in = ToTensorInstr(op);
    m::GoldenCase c;
    c.id = "cosim-op-" + std::to_string(t);
    c.op = in.op;
    c.mode = in.mode;
    c.ptx = "cp.async.bulk.tensor." + std::to_string(in.dim) + "d";
    c.tensor.dtype = map.dtype;
    c.tensor.swizzle = map.swizzle;
    c.tensor.rank = in.dim;
    c.coords = in.coords;
    for (uint16_t v : in.im2col_info) {
      c.im2col.push_back(v);
    }
    m::GoldenCluster cl;
    cl.ctas = e.num_ctas;
    cl.issuer = in.issuer_cta;
    if (in.multicast) {
      cl.cta_mask = in.cta_mask;
    }
    cl.cta_group = in.cta_group;
    if (in.mbar_cta >= 0) {
      cl.mbar_cta = in.mbar_cta;
    }
    c.cluster = cl;
    if (in.op == m::Op::kLoad) {
      m::GoldenSmem sm;
      sm.bytes = 232448;
      sm.dst = in.smem_addr;
      c.smem = sm;
    }
    c.mbar = in.mbar_addr;
    c.smem_space = in.smem_space;
    if (in.dst_cta >= 0) {
      c.dst_cta = in.dst_cta;
    }
    c.descriptor_hex = m::ToHex(d.data(), d.size());
    c.arch = m::ToString(e.arch);
    std::vector<PendingWrite> none;
    uint64_t smem_bytes = 0;
    Recorder rec;
    HostGlobal g(e, false, false, rec, none);
    HostShared s(e, t, false, false, none, smem_bytes);
    const uint64_t c0 = rtl_.cycles();
    const m::CaseOutcome out = rtl_.Run(c, g, s);
    e.cycle += rtl_.cycles() - c0;
    if (!out.supported) {
      e.Log(1, "RTL skips op " + std::to_string(t) + ": " + out.skip_reason);
      e.Done(t, OTMA_EV_FAULT, OTMA_E_UNSUPPORTED);
      return OTMA_E_UNSUPPORTED;
    }
    if (!rtl_.last_note().empty()) {
      e.Log(2, "RTL op " + std::to_string(t) + ": " + rtl_.last_note());
      e.Done(t, OTMA_EV_FAULT, OTMA_E_TX_WATCHDOG);
      return OTMA_E_TX_WATCHDOG;
    }
    if (!out.status.ok()) {
      const otma_status s2 = FromModel(out.status);
      e.Done(t, OTMA_EV_FAULT, s2);
      return s2;
    }
    e.Signal(t, out.complete_tx);
    e.Done(t, OTMA_EV_DONE, OTMA_OK);
    return OTMA_OK;
  }
  otma_status Tick(otma_engine& e, uint64_t cycles) override {
    e.cycle += cycles;  // ops complete inside Submit: nothing runs between them
    return OTMA_OK;
  }
  uint64_t NextEvent() const override { return UINT64_MAX; }
  uint64_t Drain(otma_engine&) override { return 0; }

 private:
  tma::tb::RtlCaseEngine rtl_;
};

}  // namespace

std::unique_ptr<RtlBackend> MakeRtlBackend(const otma_config& cfg) {
  const int db = cfg.rtl_data_bytes == 0 ? 16 : static_cast<int>(cfg.rtl_data_bytes);
  auto b = std::make_unique<VerilatedBackend>(db);
  if (!b->Ok()) {
    return nullptr;
  }
  return b;
}

}  // namespace otma_impl
