// SPDX-License-Identifier: Apache-2.0
//
// SimTop: one tma_sim_top-shaped DUT behind TopPins (pins.h), clocked from C++.
//   Posedge()  the rising clock edge: the DUT samples the inputs of the last Settle() (rst_n
//              is applied first: it is asynchronous);
//   Settle()   the inputs now in pins go to the DUT, the clock falls, the outputs come back.
// A harness cycle is: components read the settled pins and write the next inputs into pins,
// Posedge(), Settle() (harness.h). The inputs written between Settle() and Posedge() reach the
// DUT only at the next Settle(), so every handshake is sampled at the edge on both sides.
//
// VerilatedTop<Model>: a Verilated C++ tma_sim_top of any DataBytes (one class per width,
// e.g. Vtma_sim_top_db16). It owns its VerilatedContext; an SVA failure is recorded
// (TakeAssertFailure), not fatal. Only the fields that changed meaning this cycle are copied:
// wide data only with its valid.
#ifndef TMA_SIM_SIM_TOP_H_
#define TMA_SIM_SIM_TOP_H_

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "sim/pins.h"

namespace tma::sim {

class SimTop {
 public:
  virtual ~SimTop() = default;
  virtual void Posedge() = 0;
  virtual void Settle() = 0;
  // True once after an RTL assertion failed (cleared by the call).
  virtual bool TakeAssertFailure() { return false; }
  // FST waves (a build with tracing), coverage (a build with coverage); false: not available.
  virtual bool OpenTrace(const std::string& /*file*/) { return false; }
  virtual bool WriteCoverage(const std::string& /*file*/) { return false; }
  virtual void Final() {}
  virtual std::string Name() const = 0;
  TopPins pins;
};

// Options of a Verilated top: rand_reset 0 starts every flop at zero, 2 at random values
// (seeded by seed), as VerilatedContext::randReset.
struct VerilatedOptions {
  int rand_reset = 0;
  int seed = 0;
};

}  // namespace tma::sim

#if defined(TMA_SIM_WITH_VERILATOR)
#include <verilated.h>
#if VM_TRACE
#include <verilated_fst_c.h>
#endif
#if VM_COVERAGE
#include <verilated_cov.h>
#endif

namespace tma::sim {

template <class Model>
class VerilatedTop : public SimTop {
 public:
  VerilatedTop(int data_bytes, const std::string& name, const VerilatedOptions& o = {})
      : ctx_(std::make_unique<VerilatedContext>()), name_(name) {
    ctx_->fatalOnError(false);  // an SVA $error is recorded (TakeAssertFailure), not an abort
    if (o.rand_reset != 0) {
      ctx_->randReset(o.rand_reset);
      ctx_->randSeed(o.seed);
    }
    Verilated::threadContextp(ctx_.get());  // its scopes register with the thread's context
    m_ = std::make_unique<Model>(ctx_.get(), "top");
    pins.data_bytes = data_bytes;
    m_->clk_i = 0;
    m_->rst_ni = 0;
    Push();
    m_->eval();
    Pull();
  }
  ~VerilatedTop() override {
    // The model's scopes unregister from the calling thread's context (Verilated::
    // threadContextp): it must be this model's, not one another model on this thread left
    // behind (possibly destroyed).
    Verilated::threadContextp(ctx_.get());
#if VM_TRACE
    if (tfp_) {
      tfp_->close();
    }
#endif
    m_->final();
  }
  Model& model() {
    return *m_;
  }
  std::string Name() const override {
    return name_;
  }

  void Posedge() override {
    Verilated::threadContextp(ctx_.get());  // $error / $stop of this model go to its context
    m_->rst_ni = pins.rst_n;
    m_->clk_i = 1;
    m_->eval();
    Dump();
  }
  void Settle() override {
    Verilated::threadContextp(ctx_.get());
    Push();
    m_->clk_i = 0;
    m_->eval();
    Dump();
    Pull();
  }
  bool TakeAssertFailure() override {
    const bool e = ctx_->gotError();
    ctx_->gotError(false);
    return e;
  }
  bool OpenTrace(const std::string& file) override {
#if VM_TRACE
    ctx_->traceEverOn(true);
    tfp_ = std::make_unique<VerilatedFstC>();
    m_->trace(tfp_.get(), 99);
    tfp_->open(file.c_str());
    return true;
#else
    (void)file;
    return false;
#endif
  }
  bool WriteCoverage(const std::string& file) override {
#if VM_COVERAGE
    ctx_->coveragep()->write(file.c_str());
    return true;
#else
    (void)file;
    return false;
#endif
  }

 private:
  void Dump() {
#if VM_TRACE
    if (tfp_) {
      ctx_->timeInc(1);
      tfp_->dump(ctx_->time());
    }
#endif
  }
  // A wide port (VlWide) or a scalar one from/to bytes.
  template <class W>
  static void ToWide(W& w, const uint8_t* src, int n) {
    if constexpr (sizeof(W) <= 8) {
      uint64_t v = 0;
      std::memcpy(&v, src, static_cast<size_t>(n));
      w = static_cast<W>(v);
    } else {
      std::memcpy(&w[0], src, static_cast<size_t>(n));
    }
  }
  template <class W>
  static void FromWide(const W& w, uint8_t* dst, int n) {
    if constexpr (sizeof(W) <= 8) {
      const uint64_t v = w;
      std::memcpy(dst, &v, static_cast<size_t>(n));
    } else {
      std::memcpy(dst, &w[0], static_cast<size_t>(n));
    }
  }

  // A strobe port (DataBytes bits: scalar up to 64, VlWide above).
  template <class W>
  static Strobe StrobeOf(const W& w) {
    if constexpr (sizeof(W) <= 8) {
      return static_cast<Strobe>(static_cast<uint64_t>(w));
    } else {
      Strobe s = 0;
      std::memcpy(&s, &w[0], sizeof(s));
      return s;
    }
  }

  void Push() {
    Model& t = *m_;
    const TopPins& p = pins;
    const int db = p.data_bytes;
    t.rst_ni = p.rst_n;
    t.cmd_valid_i = p.cmd_valid;
    if (p.cmd_valid) {
      const tma::pkg::cmd_t& c = p.cmd;
      t.cmd_op_i = c.op;
      t.cmd_mode_i = c.mode;
      t.cmd_redop_i = c.redop;
      t.cmd_dim_i = c.dim;
      t.cmd_desc_addr_i = c.desc_addr;
      tma::pkg::Pack(c.coords, t.cmd_coords_i.data());
      t.cmd_im2col_i = tma::pkg::PackU64(c.im2col);
      t.cmd_smem_addr_i = c.smem_addr;
      t.cmd_mbar_addr_i = c.mbar_addr;
      t.cmd_multicast_i = c.multicast;
      t.cmd_cta_mask_i = c.cta_mask;
      t.cmd_issuer_i = c.issuer;
      t.cmd_dst_cta_i = c.dst_cta;
      t.cmd_cta_group_i = c.cta_group;
      t.cmd_smem_cta_i = c.smem_cta;
      t.cmd_mbar_remote_i = c.mbar_remote;
      t.cmd_mbar_cta_i = c.mbar_cta;
      t.cmd_tag_i = c.tag;
    }
    t.desc_inval_i = p.desc_inval;
    t.arch_i = p.arch;
    t.cluster_i = p.cluster;
    t.m_axi_arready_i = p.arready;
    t.m_axi_rvalid_i = p.rvalid;
    if (p.rvalid) {
      t.m_axi_rid_i = p.rid;
      t.m_axi_rresp_i = p.rresp;
      t.m_axi_rlast_i = p.rlast;
      ToWide(t.m_axi_rdata_i, p.rdata, db);
    }
    t.m_axi_awready_i = p.awready;
    t.m_axi_wready_i = p.wready;
    t.m_axi_bvalid_i = p.bvalid;
    t.m_axi_bid_i = p.bid;
    t.m_axi_bresp_i = p.bresp;
    t.smem_wr_ready_i = p.smem_wr_ready;
    t.smem_rd_ready_i = p.smem_rd_ready;
    t.smem_rd_rvalid_i = p.smem_rd_rvalid;
    if (p.smem_rd_rvalid) {
      ToWide(t.smem_rd_rdata_i, p.smem_rd_rdata, db);
    }
    t.cpl_ready_i = p.cpl_ready;
    t.bg_cpl_ready_i = p.bg_cpl_ready;
  }

  void Pull() {
    const Model& t = *m_;
    TopPins& p = pins;
    const int db = p.data_bytes;
    p.cmd_ready = t.cmd_ready_o;
    p.arvalid = t.m_axi_arvalid_o;
    p.arid = t.m_axi_arid_o;
    p.araddr = t.m_axi_araddr_o;
    p.arlen = t.m_axi_arlen_o;
    p.arsize = t.m_axi_arsize_o;
    p.arburst = t.m_axi_arburst_o;
    p.arcache = t.m_axi_arcache_o;
    p.rready = t.m_axi_rready_o;
    p.awvalid = t.m_axi_awvalid_o;
    p.awid = t.m_axi_awid_o;
    p.awaddr = t.m_axi_awaddr_o;
    p.awlen = t.m_axi_awlen_o;
    p.awsize = t.m_axi_awsize_o;
    p.awburst = t.m_axi_awburst_o;
    p.awatop = t.m_axi_awatop_o;
    p.wvalid = t.m_axi_wvalid_o;
    p.wlast = t.m_axi_wlast_o;
    if (p.wvalid) {
      FromWide(t.m_axi_wdata_o, p.wdata, db);
      p.wstrb = StrobeOf(t.m_axi_wstrb_o);
    }
    p.bready = t.m_axi_bready_o;
    p.smem_wr_valid = t.smem_wr_valid_o;
    p.smem_wr_addr = t.smem_wr_addr_o;
    p.smem_wr_cta_mask = t.smem_wr_cta_mask_o;
    p.smem_wr_strb = StrobeOf(t.smem_wr_strb_o);
    if (p.smem_wr_valid) {
      FromWide(t.smem_wr_data_o, p.smem_wr_data, db);
    }
    p.smem_rd_valid = t.smem_rd_valid_o;
    p.smem_rd_addr = t.smem_rd_addr_o;
    p.smem_rd_cta = t.smem_rd_cta_o;
    p.cpl_valid = t.cpl_valid_o;
    p.cpl.kind = t.cpl_kind_o;
    p.cpl.cta = t.cpl_cta_o;
    p.cpl.mbar_addr = t.cpl_mbar_addr_o;
    p.cpl.bytes = t.cpl_bytes_o;
    p.cpl.err = t.cpl_error_o;
    p.cpl.tag = t.cpl_tag_o;
    p.bg_cpl_valid = t.bg_cpl_valid_o;
    p.bg_cpl.issuer = t.bg_cpl_issuer_o;
    p.bg_cpl.seq = t.bg_cpl_seq_o;
    p.bg_cpl.done = t.bg_cpl_done_o;
    p.bg_cpl.err = t.bg_cpl_err_o;
    p.busy = t.busy_o;
    p.err_count = t.err_count_o;
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> m_;
  std::string name_;
#if VM_TRACE
  std::unique_ptr<VerilatedFstC> tfp_;
#endif
};

}  // namespace tma::sim
#endif  // TMA_SIM_WITH_VERILATOR

#endif  // TMA_SIM_SIM_TOP_H_
