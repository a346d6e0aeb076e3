// SPDX-License-Identifier: Apache-2.0
//
// The Verilated tma_soc_top with its AXI4-Lite manager and AXI4 memory (soc_harness.h).
#include "sim/soc/soc_harness.h"

#include <cstdio>
#include <cstring>
#include <string>

#include <verilated.h>

#include "Vtma_soc_top.h"
#include "Vtma_soc_top_ptx.h"

namespace tma::sim {

namespace fw = tma::fw;

// One of the two builds (soc_harness.h SocVariant): the same ports, so each access is a
// template over the model's class, called on the one that exists (Run).
struct SocHarness::Model {
  VerilatedContext ctx;
  std::unique_ptr<Vtma_soc_top> top;
  std::unique_ptr<Vtma_soc_top_ptx> ptx;
  template <class F>
  auto Run(F&& f) {
    return ptx ? f(*ptx) : f(*top);
  }
};

namespace {
constexpr uint64_t kPage = 4096;
constexpr uint32_t kOkay = 0, kSlvErr = 2;
}  // namespace

SocHarness::SocHarness(SocVariant variant)
    : m_(std::make_unique<Model>()),
      axw_(&mem_, &rng_, [this](const std::string& id, const std::string& msg) {
        std::fprintf(stderr, "soc harness: AXI4 write: %s: %s\n", id.c_str(), msg.c_str());
        axi_error_ = true;
      }) {
  wpins_.data_bytes = kSocDataBytes;
  m_->ctx.fatalOnError(false);  // an SVA $error is recorded (TakeAssertFailure), not an abort
  // The model's scopes register with the thread's context (Verilated::threadContextp): this
  // harness's, whichever other harness this thread made before.
  Verilated::threadContextp(&m_->ctx);
  if (variant == SocVariant::kPtxReadings) {
    m_->ptx = std::make_unique<Vtma_soc_top_ptx>(&m_->ctx, "soc");
  } else {
    m_->top = std::make_unique<Vtma_soc_top>(&m_->ctx, "soc");
  }
  Reset();
}

SocHarness::~SocHarness() {
  // ... and unregister from it: it must be this harness's, not one another harness left behind
  // (possibly destroyed).
  Verilated::threadContextp(&m_->ctx);
  m_->Run([](auto& t) {
    t.final();
    return 0;
  });
}

bool SocHarness::TakeAssertFailure() {
  const bool e = m_->ctx.gotError() || axi_error_;
  m_->ctx.gotError(false);
  axi_error_ = false;
  return e;
}

bool SocHarness::irq() const {
  return m_->Run([](auto& t) { return t.irq_o != 0; });
}

void SocHarness::Reset(int cycles) {
  ar_q_.clear();
  axw_.Clear();
  wpins_.rst_n = false;
  wpins_.awready = wpins_.wready = wpins_.bvalid = false;
  awv_ = wv_ = arv_ = false;
  m_->Run([&](auto& t) {
    t.rst_ni = 0;
    t.clk_i = 0;
    InputsOf(t);
    t.eval();
    for (int i = 0; i < cycles; ++i) {
      EdgeOf(t);
    }
    t.rst_ni = 1;
    EdgeOf(t);
    return 0;
  });
}

// ---- Memory ----
bool SocHarness::ByteRead(uint64_t a, uint8_t* v) {
  auto it = pages_.find(a / kPage);
  if (it != pages_.end()) {
    *v = it->second[a % kPage];
    return true;
  }
  return backing_ != nullptr && backing_->Read(a, v, 1);
}

bool SocHarness::ByteWrite(uint64_t a, uint8_t v) {
  auto it = pages_.find(a / kPage);
  if (it != pages_.end()) {
    it->second[a % kPage] = v;
    return true;
  }
  return backing_ != nullptr && backing_->Write(a, &v, 1);
}

bool SocHarness::Memory::Read(uint64_t addr, uint8_t* dst, size_t n) {
  bool ok = true;
  for (size_t i = 0; i < n; ++i) {
    ok &= h_->ByteRead(addr + i, dst + i);
  }
  return ok;
}

bool SocHarness::Memory::Write(uint64_t addr, const uint8_t* src, size_t n) {
  bool ok = true;
  for (size_t i = 0; i < n; ++i) {
    ok &= h_->ByteWrite(addr + i, src[i]);
  }
  return ok;
}

void SocHarness::MemWrite(uint64_t addr, const uint8_t* src, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    std::vector<uint8_t>& p = pages_[(addr + i) / kPage];
    if (p.empty()) {
      p.assign(kPage, 0);
    }
    p[(addr + i) % kPage] = src[i];
  }
}

void SocHarness::MemRead(uint64_t addr, uint8_t* dst, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (!ByteRead(addr + i, dst + i)) {
      dst[i] = 0;
    }
  }
}

// ---- Clocking ----
// Inputs of the cycle: the subordinate's channel outputs from its queues, the AXI-Lite
// manager's requests.
void SocHarness::Inputs() {
  m_->Run([this](auto& t) {
    InputsOf(t);
    return 0;
  });
}

template <class Top>
void SocHarness::InputsOf(Top& t) {
  const int db = kSocDataBytes;
  t.m_axi_arready_i = ar_q_.size() < 64;
  const bool stall = r_stall_every_ > 0 && cycle_ % static_cast<uint64_t>(r_stall_every_) == 0;
  t.m_axi_rvalid_i = !ar_q_.empty() && !stall;
  if (t.m_axi_rvalid_i) {
    const Burst& b = ar_q_.front();
    uint8_t data[64] = {};
    bool ok = true;
    const uint64_t base = (b.addr & ~uint64_t(db - 1)) + uint64_t(b.beat) * db;
    for (int i = 0; i < db; ++i) {
      ok &= ByteRead(base + i, &data[i]);
    }
    std::memcpy(&t.m_axi_rdata_i[0], data, db);
    t.m_axi_rid_i = b.id;
    t.m_axi_rresp_i = ok ? kOkay : kSlvErr;
    t.m_axi_rlast_i = b.beat == b.len;
  }
  t.m_axi_awready_i = wpins_.awready;
  t.m_axi_wready_i = wpins_.wready;
  t.m_axi_bvalid_i = wpins_.bvalid;
  t.m_axi_bid_i = wpins_.bid;
  t.m_axi_bresp_i = wpins_.bresp;
  t.s_axil_awvalid_i = awv_;
  t.s_axil_awaddr_i = awaddr_;
  t.s_axil_awprot_i = 0;
  t.s_axil_wvalid_i = wv_;
  t.s_axil_wdata_i = wdata_;
  t.s_axil_wstrb_i = 0xf;
  t.s_axil_arvalid_i = arv_;
  t.s_axil_araddr_i = araddr_;
  t.s_axil_arprot_i = 0;
}

void SocHarness::Edge() {
  m_->Run([this](auto& t) {
    EdgeOf(t);
    return 0;
  });
}

template <class Top>
void SocHarness::EdgeOf(Top& t) {
  // Handshakes sampled at this edge (inputs and settled outputs of the cycle); none in reset.
  const bool run = t.rst_ni;
  const bool ar = run && t.m_axi_arvalid_o && t.m_axi_arready_i;
  const Burst nb{t.m_axi_arid_o, t.m_axi_araddr_o, t.m_axi_arlen_o, t.m_axi_arsize_o, 0};
  const bool r = run && t.m_axi_rvalid_i && t.m_axi_rready_o;
  // The write channels of the cycle to the write slave: it takes the handshakes of this cycle
  // and sets its outputs of the next (driven by Inputs after the edge).
  wpins_.rst_n = run;
  wpins_.awvalid = t.m_axi_awvalid_o;
  wpins_.awid = static_cast<uint8_t>(t.m_axi_awid_o);
  wpins_.awaddr = t.m_axi_awaddr_o;
  wpins_.awlen = static_cast<uint8_t>(t.m_axi_awlen_o);
  wpins_.awsize = static_cast<uint8_t>(t.m_axi_awsize_o);
  wpins_.awburst = static_cast<uint8_t>(t.m_axi_awburst_o);
  wpins_.wvalid = t.m_axi_wvalid_o;
  std::memcpy(wpins_.wdata, &t.m_axi_wdata_o[0], kSocDataBytes);
  wpins_.wstrb = t.m_axi_wstrb_o;
  wpins_.wlast = t.m_axi_wlast_o;
  wpins_.bready = t.m_axi_bready_o;
  axw_.Tick(wpins_, cycle_);
  if (t.s_axil_awvalid_i && t.s_axil_awready_o) {
    awv_ = false;
  }
  if (t.s_axil_wvalid_i && t.s_axil_wready_o) {
    wv_ = false;
  }
  if (t.s_axil_arvalid_i && t.s_axil_arready_o) {
    arv_ = false;
  }
  t.clk_i = 1;
  t.eval();
  ++cycle_;
  // The subordinate's state after the edge.
  if (r) {
    Burst& f = ar_q_.front();
    if (f.beat == f.len) {
      ar_q_.pop_front();
    } else {
      ++f.beat;
    }
  }
  if (ar) {
    ar_q_.push_back(nb);
    ++ar_bursts_;
  }
  InputsOf(t);
  t.clk_i = 0;
  t.eval();
}

void SocHarness::Step(int n) {
  m_->Run([&](auto& t) {
    for (int i = 0; i < n; ++i) {
      EdgeOf(t);
    }
    return 0;
  });
}

// ---- AXI-Lite manager ----
bool SocHarness::AxilWrite(uint32_t addr, uint32_t value) {
  awv_ = wv_ = true;
  awaddr_ = addr;
  wdata_ = value;
  return m_->Run([this](auto& t) {
    InputsOf(t);
    t.eval();
    t.s_axil_bready_i = 0;
    for (uint64_t i = 0; i < axil_timeout; ++i) {
      if (!awv_ && !wv_ && t.s_axil_bvalid_o) {
        const uint32_t resp = t.s_axil_bresp_o;
        t.s_axil_bready_i = 1;
        t.eval();
        EdgeOf(t);
        t.s_axil_bready_i = 0;
        t.eval();
        return resp == kOkay;
      }
      EdgeOf(t);
    }
    hung_ = true;
    return false;
  });
}

bool SocHarness::AxilRead(uint32_t addr, uint32_t* value) {
  arv_ = true;
  araddr_ = addr;
  return m_->Run([&](auto& t) {
    InputsOf(t);
    t.eval();
    t.s_axil_rready_i = 0;
    for (uint64_t i = 0; i < axil_timeout; ++i) {
      if (!arv_ && t.s_axil_rvalid_o) {
        const uint32_t resp = t.s_axil_rresp_o;
        *value = t.s_axil_rdata_o;
        t.s_axil_rready_i = 1;
        t.eval();
        EdgeOf(t);
        t.s_axil_rready_i = 0;
        t.eval();
        return resp == kOkay;
      }
      EdgeOf(t);
    }
    hung_ = true;
    *value = 0;
    return false;
  });
}

bool SocHarness::WaitIrq(uint64_t cycles) {
  return m_->Run([&](auto& t) {
    for (uint64_t i = 0; i < cycles && !t.irq_o; ++i) {
      EdgeOf(t);
    }
    return t.irq_o != 0;
  });
}

// ---- fw::Link ----
namespace {
constexpr uint64_t kAxilSpan = uint64_t{1} << 32;
}  // namespace

fw::LinkStatus SocHarness::Read32(uint64_t addr, uint32_t* value) {
  if (addr % 4 != 0) {
    return fw::LinkStatus::kBadArgument;
  }
  if (addr < kAxilSpan) {
    const bool ok = AxilRead(static_cast<uint32_t>(addr), value);
    return ok ? fw::LinkStatus::kOk : hung_ ? fw::LinkStatus::kTimeout : fw::LinkStatus::kBusError;
  }
  if (addr < kGmemLinkBase) {
    return fw::LinkStatus::kBadArgument;
  }
  uint8_t b[4];
  bool ok = true;
  for (int i = 0; i < 4; ++i) {
    ok &= ByteRead(addr - kGmemLinkBase + i, &b[i]);
  }
  *value = b[0] | b[1] << 8 | b[2] << 16 | static_cast<uint32_t>(b[3]) << 24;
  return ok ? fw::LinkStatus::kOk : fw::LinkStatus::kBusError;
}

fw::LinkStatus SocHarness::Write32(uint64_t addr, uint32_t value) {
  if (addr % 4 != 0) {
    return fw::LinkStatus::kBadArgument;
  }
  if (addr < kAxilSpan) {
    const bool ok = AxilWrite(static_cast<uint32_t>(addr), value);
    return ok ? fw::LinkStatus::kOk : hung_ ? fw::LinkStatus::kTimeout : fw::LinkStatus::kBusError;
  }
  if (addr < kGmemLinkBase) {
    return fw::LinkStatus::kBadArgument;
  }
  const uint8_t b[4] = {static_cast<uint8_t>(value), static_cast<uint8_t>(value >> 8),
                        static_cast<uint8_t>(value >> 16), static_cast<uint8_t>(value >> 24)};
  MemWrite(addr - kGmemLinkBase, b, 4);
  return fw::LinkStatus::kOk;
}

fw::LinkStatus SocHarness::WaitInterrupt(uint32_t timeout_us) {
  return WaitIrq(uint64_t{timeout_us} * kCyclesPerUs) ? fw::LinkStatus::kOk
                                                      : fw::LinkStatus::kTimeout;
}

}  // namespace tma::sim
