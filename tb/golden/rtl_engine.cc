// SPDX-License-Identifier: Apache-2.0
//
// Golden-case replay through the Verilated tma_sim_top (rtl_engine.h).
#include "golden/rtl_engine.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "tma/descriptor.h"
#include "tma/encoder.h"
#include "tma/golden.h"

#include "Vtma_sim_top.h"
#include "verilated.h"
#if VM_COVERAGE
#include "verilated_cov.h"
#endif

namespace tma::tb {

namespace m = tma::model;

namespace {
constexpr int kBeat = 16;  // DataBytes of the Verilated tma_sim_top (its default)
// Where the harness puts the descriptor when the case's buffer does not cover the address.
constexpr uint64_t kDescAddr[] = {0x7ff000000000ull, 0x000000100000ull};

// ---- What the RTL implements (the replay skips every case that needs more) ----------------
// Element types: every whole-byte type, and the sm_100 sub-byte types (b4x16 as a byte copy;
// b4x16_p64 / b6x16_p32 through the engine's unpacker, rtl/backend/tma_unpack.sv,
// docs/rtl-unpack.md; an engine built with SubByte = 0 answers `unsupported` for those two).
constexpr bool kRtlB4x16 = true;     // .b4x16     = 16U4_ALIGN8B
constexpr bool kRtlB4x16P64 = true;  // .b4x16_p64 = 16U4_ALIGN16B
constexpr bool kRtlB6x16P32 = true;  // .b6x16_p32 = 16U6_ALIGN16B

bool RtlSupportsDType(m::DType t) {
  switch (t) {
    case m::DType::kB4x16:
      return kRtlB4x16;
    case m::DType::kB4x16P64:
      return kRtlB4x16P64;
    case m::DType::kB6x16P32:
      return kRtlB6x16P32;
    default:
      return true;
  }
}

// Why the RTL cannot run case `c` (empty: it can), before any map is built. The RTL has no
// arch input: it runs the sm_90 loads and prefetches (tile, im2col), and of an sm_100+ case
// only what behaves as on sm_90 apart from the types and swizzles the RTL knows: tile-mode
// loads (multicast and remote destinations included) of a supported element type. gather4,
// im2col::w / ::w::128 and .cta_group::2 stay skipped (the RTL answers `unsupported`).
std::string RtlSkipReason(const m::GoldenCase& c) {
  if (c.op == m::Op::kStore || c.op == m::Op::kReduce) {
    return "stores and reductions: the RTL is a load engine (no AXI write path yet)";
  }
  const std::optional<m::Arch> arch = m::ParseArch(c.arch);
  if (!arch) {
    return "arch " + c.arch + " is not known";
  }
  if (*arch != m::Arch::kSm90) {
    if (c.op != m::Op::kLoad || c.mode != m::LoadMode::kTile) {
      return "arch " + c.arch + ": the RTL runs only tile-mode loads of sm_100+ cases (this is " +
             (c.op == m::Op::kPrefetch ? "a prefetch" : "a load") + " in " + m::ToString(c.mode) +
             " mode)";
    }
    if (c.cluster && c.cluster->cta_group == 2) {
      return "arch " + c.arch + ": .cta_group::2 is not implemented by the RTL";
    }
  }
  if (!RtlSupportsDType(c.tensor.dtype)) {
    return std::string("element type ") + m::ToString(c.tensor.dtype) +
           " is not implemented by the RTL yet (RtlSupportsDType in tb/golden/rtl_engine.cc)";
  }
  if (*arch == m::Arch::kSm90 && m::IsSubByte(c.tensor.dtype)) {
    return std::string("sub-byte type ") + m::ToString(c.tensor.dtype) +
           " on sm_90: the host encoder refuses it (rule 1) and the RTL has no arch input";
  }
  if (*arch == m::Arch::kSm90 && c.tensor.swizzle > m::Swizzle::k128B) {
    // The RTL accepts what DecodeDescriptor accepts (the 128B-atom and 96B swizzles of
    // sm_100+, repeat field included); the sm_90 limit (rule 4) needs an arch input.
    return std::string("swizzle ") + m::ToString(c.tensor.swizzle) +
           " on sm_90: the host encoder refuses it (rule 4) and the RTL has no arch input";
  }
  return "";
}
}  // namespace

// The Verilated model and the cycle loop. Handshakes are sampled with the clock low and the
// inputs of the cycle applied (the outputs settled), then the rising edge is evaluated.
class RtlHarness {
 public:
  RtlHarness() : ctx_(new VerilatedContext), top_(new Vtma_sim_top(ctx_.get(), "top")) {
    ctx_->fatalOnError(false);  // an SVA failure is noted for the case, not an abort
    Idle();
    top_->rst_ni = 0;
    top_->clk_i = 0;
    top_->eval();
  }
  ~RtlHarness() {
    top_->final();
#if VM_COVERAGE
    // TMA_COVERAGE=ON build: the RTL's line/toggle coverage for tools/regress --coverage.
    if (const char* f = std::getenv("TMA_COV_DAT")) {
      ctx_->coveragep()->write(f);
    }
#endif
  }

  void Idle() {
    Vtma_sim_top& t = *top_;
    t.cmd_valid_i = 0;
    t.desc_inval_i = 0;
    t.m_axi_arready_i = 1;
    t.m_axi_rvalid_i = 0;
    t.m_axi_awready_i = 0;
    t.m_axi_wready_i = 0;
    t.m_axi_bvalid_i = 0;
    t.smem_wr_ready_i = 1;
    t.smem_rd_ready_i = 1;
    t.smem_rd_rvalid_i = 0;
    t.cpl_ready_i = 1;
  }

  void Reset() {
    Idle();
    bursts_.clear();
    top_->rst_ni = 0;
    for (int i = 0; i < 3; ++i) {
      Step();
    }
    top_->rst_ni = 1;
    Step();
  }

  // What one case sees of the world.
  m::GlobalMemoryIf* global = nullptr;
  m::SharedMemoryIf* smem = nullptr;
  uint64_t desc_addr = 0;
  uint8_t desc[m::kDescriptorBytes] = {};
  // What the engine did.
  std::vector<std::pair<uint32_t, m::CompleteTx>> cpls;  // (kind, tx); kind 1: tx.bytes = class
  std::string note;
  bool cmd_pending = false;

  void Drive(const m::TensorInstr& in, uint64_t daddr) {
    Vtma_sim_top& t = *top_;
    t.cmd_op_i = static_cast<uint8_t>(in.op);
    t.cmd_mode_i = static_cast<uint8_t>(in.mode);
    t.cmd_redop_i = static_cast<uint8_t>(in.redop);
    t.cmd_dim_i = static_cast<uint8_t>(in.dim);
    t.cmd_desc_addr_i = daddr;
    for (int i = 0; i < 5; ++i) {
      t.cmd_coords_i[i] =
          i < static_cast<int>(in.coords.size()) ? static_cast<uint32_t>(in.coords[i]) : 0u;
    }
    uint64_t im = 0;
    for (size_t i = 0; i < in.im2col_info.size() && i < 3; ++i) {
      im |= static_cast<uint64_t>(in.im2col_info[i]) << (16 * i);
    }
    t.cmd_im2col_i = im;
    t.cmd_smem_addr_i = in.smem_addr;
    t.cmd_mbar_addr_i = in.mbar_addr;
    t.cmd_multicast_i = in.multicast;
    t.cmd_cta_mask_i = in.cta_mask;
    t.cmd_issuer_i = static_cast<uint8_t>(in.issuer_cta);
    t.cmd_dst_cta_i = static_cast<uint8_t>(in.dst_cta < 0 ? in.issuer_cta : in.dst_cta);
    t.cmd_cta_group_i = static_cast<uint8_t>(in.cta_group);
    t.cmd_tag_i = 0x5a;
    t.cmd_valid_i = 1;
    cmd_pending = true;
  }

  bool busy() const {
    return top_->busy_o;
  }
  uint64_t cycles() const {
    return cycles_;
  }
  bool TakeSvaError() {
    bool e = ctx_->gotError();
    ctx_->gotError(false);
    return e;
  }

  void Step() {
    Vtma_sim_top& t = *top_;
    t.clk_i = 0;
    t.eval();
    const bool cmd_fire = t.cmd_valid_i && t.cmd_ready_o;
    const bool ar_fire = t.m_axi_arvalid_o && t.m_axi_arready_i;
    const bool r_fire = t.m_axi_rvalid_i && t.m_axi_rready_o;
    const bool w_fire = t.smem_wr_valid_o && t.smem_wr_ready_i;
    const bool c_fire = t.cpl_valid_o && t.cpl_ready_i;
    Burst nb;
    if (ar_fire) {
      nb = Burst{t.m_axi_arid_o, t.m_axi_araddr_o, t.m_axi_arlen_o + 1u, t.m_axi_arsize_o, 0};
      if (t.m_axi_arburst_o != 1) {
        Note("AR burst type is not INCR");
      }
    }
    uint8_t wdata[kBeat];
    uint32_t wstrb = 0, wmask = 0, waddr = 0;
    if (w_fire) {
      for (int w = 0; w < kBeat / 4; ++w) {
        uint32_t v = t.smem_wr_data_o[w];
        std::memcpy(wdata + 4 * w, &v, 4);
      }
      wstrb = t.smem_wr_strb_o;
      wmask = t.smem_wr_cta_mask_o;
      waddr = t.smem_wr_addr_o;
    }
    uint32_t ckind = t.cpl_kind_o, ccta = t.cpl_cta_o, cmbar = t.cpl_mbar_addr_o,
             cbytes = t.cpl_bytes_o, cerr = t.cpl_error_o, ctag = t.cpl_tag_o;
    t.clk_i = 1;
    t.eval();
    ++cycles_;
    if (t.m_axi_awvalid_o || t.m_axi_wvalid_o || t.smem_rd_valid_o) {
      Note("write path active (AW/W or smem read) on a load");
    }
    if (cmd_fire) {
      t.cmd_valid_i = 0;
      cmd_pending = false;
    }
    if (ar_fire) {
      bursts_.push_back(nb);
    }
    if (r_fire && !bursts_.empty()) {
      if (++bursts_.front().next == bursts_.front().beats) {
        bursts_.pop_front();
      }
    }
    if (w_fire) {
      ApplyBeat(waddr, wdata, wstrb, wmask);
    }
    if (c_fire) {
      if (ctag != 0x5a) {
        Note("completion with tag " + std::to_string(ctag) + " (sent 0x5a)");
      }
      uint32_t v = ckind == 1 ? cerr : cbytes;
      cpls.push_back({ckind, m::CompleteTx{static_cast<int>(ccta), cmbar, v}});
    }
    // The R channel for the next cycle: the head burst's next beat.
    if (bursts_.empty()) {
      t.m_axi_rvalid_i = 0;
    } else {
      const Burst& b = bursts_.front();
      uint64_t bpb = 1ull << b.size;
      uint64_t beat_addr = (b.addr & ~(bpb - 1)) + b.next * bpb;
      uint64_t lane0 = beat_addr & ~static_cast<uint64_t>(kBeat - 1);
      uint8_t d[kBeat];
      bool ok = ReadLine(lane0, d);
      for (int w = 0; w < kBeat / 4; ++w) {
        uint32_t v;
        std::memcpy(&v, d + 4 * w, 4);
        t.m_axi_rdata_i[w] = v;
      }
      t.m_axi_rid_i = b.id;
      t.m_axi_rresp_i = ok ? 0 : 2;
      t.m_axi_rlast_i = b.next + 1 == b.beats;
      t.m_axi_rvalid_i = 1;
    }
  }

 private:
  struct Burst {
    uint32_t id = 0;
    uint64_t addr = 0;
    uint32_t beats = 0, size = 0, next = 0;
  };
  void Note(const std::string& s) {
    if (note.empty()) {
      note = s;
    }
  }
  // A 16-byte line from the descriptor or the case's buffer; false (SLVERR) when no byte of
  // it exists.
  bool ReadLine(uint64_t a, uint8_t* d) {
    if (a >= desc_addr && a < desc_addr + m::kDescriptorBytes) {
      std::memcpy(d, desc + (a - desc_addr), kBeat);
      return true;
    }
    if (global->Read(a, d, kBeat)) {
      return true;
    }
    bool any = false;
    for (int k = 0; k < kBeat; ++k) {
      bool ok = global->Read(a + k, d + k, 1);
      if (!ok) {
        d[k] = 0;
      }
      any |= ok;
    }
    return any;
  }
  void ApplyBeat(uint32_t addr, const uint8_t* d, uint32_t strb, uint32_t mask) {
    if (addr % kBeat != 0) {
      Note("smem write address not 16-byte aligned");
    }
    if (mask == 0) {
      Note("smem write beat with an empty CTA mask");
    }
    for (int cta = 0; cta < 16; ++cta) {
      if (!((mask >> cta) & 1)) {
        continue;
      }
      for (int k = 0; k < kBeat;) {
        if (!((strb >> k) & 1)) {
          ++k;
          continue;
        }
        int n = 1;
        while (k + n < kBeat && ((strb >> (k + n)) & 1)) {
          ++n;
        }
        if (!smem->Write(cta, addr + k, d + k, n)) {
          Note("smem write outside the case's window: CTA " + std::to_string(cta) + " offset " +
               std::to_string(addr + k));
        }
        k += n;
      }
    }
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vtma_sim_top> top_;
  std::deque<Burst> bursts_;
  uint64_t cycles_ = 0;
};

RtlCaseEngine::RtlCaseEngine() : h_(new RtlHarness) {}
RtlCaseEngine::~RtlCaseEngine() = default;
uint64_t RtlCaseEngine::cycles() const {
  return h_->cycles();
}

m::CaseOutcome RtlCaseEngine::Run(const m::GoldenCase& c, m::GlobalMemoryIf& global,
                                  m::SharedMemoryIf& smem) {
  m::CaseOutcome out;
  note_.clear();
  auto skip = [&](const std::string& why) {
    out.supported = false;
    out.skip_reason = why;
    return out;
  };
  if (const std::string why = RtlSkipReason(c); !why.empty()) {
    return skip(why);
  }
  // The descriptor bytes the engine fetches.
  RtlHarness& h = *h_;
  m::TensorMap map;
  bool have_map = false;
  if (c.descriptor_hex) {
    std::vector<uint8_t> d;
    if (!m::FromHex(*c.descriptor_hex, &d) || d.size() != m::kDescriptorBytes) {
      return skip("descriptor_hex is not 128 bytes");
    }
    std::memcpy(h.desc, d.data(), m::kDescriptorBytes);
    have_map = m::DecodeDescriptor(d.data(), &map).ok();
  } else {
    m::Status st = m::CaseTensorMap(c, m::CaseGlobalBase(c), &map);
    if (!st.ok()) {
      return skip("the host cannot encode this map (" + st.ToString() + "); no engine sees it");
    }
    m::DescriptorBytes d = m::EncodeDescriptor(map);
    m::TensorMap back;
    if (m::DecodeDescriptor(d.data(), &back).ok() && !(back == map)) {
      return skip("the map does not fit the descriptor's fields (no 128-byte encoding)");
    }
    std::memcpy(h.desc, d.data(), m::kDescriptorBytes);
    have_map = true;
  }
  // sm_90 maps go to the RTL even when the encoder refuses them: the RTL checks the sm_90
  // rules itself. The sm_100+ rules (packed-type box / alignment / swizzle limits) are the
  // driver's, which never hands such a map to an engine.
  const m::Arch arch = m::ParseArch(c.arch).value_or(m::Arch::kSm90);  // known: RtlSkipReason
  if (have_map && arch != m::Arch::kSm90) {
    if (m::Status v = m::ValidateTensorMap(map, arch); !v.ok()) {
      return skip("the " + c.arch + " encoder refuses this map (" + v.ToString() +
                  "); no engine sees it");
    }
  }
  m::TensorInstr in = m::CaseInstr(c);
  const int ctas = c.NumCtas();
  if (in.issuer_cta >= ctas || in.dst_cta >= ctas ||
      (in.multicast && ctas < 16 && (in.cta_mask >> ctas) != 0)) {
    return skip("a CTA number at or above the cluster size (" + std::to_string(ctas) +
                "): tma_sim_top has no cluster-size input (F6 is the launcher's check)");
  }
  // A descriptor address outside the buffer, 128-byte aligned.
  uint8_t probe = 0;
  h.desc_addr = kDescAddr[0];
  for (uint64_t a : kDescAddr) {
    if (!global.Read(a, &probe, 1) && !global.Read(a + m::kDescriptorBytes - 1, &probe, 1)) {
      h.desc_addr = a;
      break;
    }
  }
  h.global = &global;
  h.smem = &smem;
  h.cpls.clear();
  h.note.clear();
  h.Reset();
  h.TakeSvaError();
  h.Drive(in, h.desc_addr);

  const size_t want_tx = c.op == m::Op::kLoad ? m::DestinationCtas(c).size() : 0;
  auto finished = [&] {
    size_t tx = 0;
    for (const auto& [kind, t] : h.cpls) {
      if (kind != 0) {
        return true;  // an error, or bulk-group done (prefetch)
      }
      ++tx;
    }
    return want_tx > 0 && tx >= want_tx;
  };
  uint64_t start = h.cycles();
  while (!finished() && h.cycles() - start < limit_) {
    h.Step();
  }
  bool hung = !finished();
  // Drain: stray completions or writes show up here.
  for (int i = 0; i < 32 || (h.busy() && i < 4096); ++i) {
    h.Step();
  }
  for (const auto& [kind, t] : h.cpls) {
    if (kind == 0) {
      out.complete_tx.push_back(t);
    } else if (kind == 1) {
      if (!out.status.ok()) {
        note_ = "more than one error completion";
      }
      out.status = m::Status::Error(static_cast<m::ErrorClass>(t.bytes), "rtl",
                                    "error completion from the engine");
    }
  }
  size_t errors = 0;
  for (const auto& kv : h.cpls) {
    errors += kv.first == 1;
  }
  if (errors > 0 && !out.complete_tx.empty()) {
    note_ = "error completion and complete-tx for one command";
  }
  if (hung) {
    note_ = "hang: no completion after " + std::to_string(limit_) + " cycles" +
            (h.cmd_pending ? " (command never accepted)" : "");
  }
  if (note_.empty()) {
    note_ = h.note;
  }
  if (h.TakeSvaError() && note_.empty()) {
    note_ = "an RTL assertion failed (see the log above)";
  }
  return out;
}

}  // namespace tma::tb
