// SPDX-License-Identifier: Apache-2.0
//
// Scoreboard, coverage and environment of the bench (tma_env.h).
#include "env/tma_env.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "sim/rtl_support.h"
#include "tma/descriptor.h"
#include "tma/encoder.h"
#include "tma/swizzle.h"
#include "tma/traversal.h"

namespace tma::tb {

namespace m = tma::model;
using uvm::ConfigDb;

namespace {
std::string Hex(const uint8_t* p, size_t n) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    s += d[p[i] >> 4];
    s += d[p[i] & 15];
  }
  return s;
}
std::string MapToString(const m::TensorMap& t) {
  std::ostringstream os;
  os << "rank " << t.rank << " " << m::ToString(t.dtype) << " swizzle " << m::ToString(t.swizzle)
     << " interleave " << m::ToString(t.interleave) << " fill "
     << (t.oob_fill == m::OobFill::kNan ? "nan" : "zero") << " box {";
  for (int d = 0; d < t.rank; ++d) {
    os << (d ? "," : "") << t.box[d];
  }
  os << "} dims {";
  for (int d = 0; d < t.rank; ++d) {
    os << (d ? "," : "") << t.dims[d];
  }
  os << "} strides {";
  for (int d = 1; d < t.rank; ++d) {
    os << (d > 1 ? "," : "") << t.strides[d - 1];
  }
  os << "} es {";
  for (int d = 0; d < t.rank; ++d) {
    os << (d ? "," : "") << t.element_strides[d];
  }
  os << "} global 0x" << std::hex << t.global_address << std::dec;
  return os.str();
}

// Recording view of a shared memory: forwards every write and appends it (and the bytes it
// overwrote) to the expectation's spans.
class RecordingSmem : public m::SharedMemoryIf {
 public:
  RecordingSmem(m::SharedMemoryIf* base, Expectation* e) : base_(base), e_(e) {}
  int NumCtas() const override { return base_->NumCtas(); }
  bool Read(int cta, uint32_t addr, uint8_t* dst, size_t n) override {
    return base_->Read(cta, addr, dst, n);
  }
  bool Write(int cta, uint32_t addr, const uint8_t* src, size_t n) override {
    size_t off = e_->data.size();
    e_->prior.resize(off + n);
    if (!base_->Read(cta, addr, e_->prior.data() + off, n) || !base_->Write(cta, addr, src, n)) {
      e_->prior.resize(off);
      return false;
    }
    e_->data.insert(e_->data.end(), src, src + n);
    auto& sp = e_->spans;
    if (!sp.empty() && sp.back().cta == cta && sp.back().addr + sp.back().len == addr) {
      sp.back().len += static_cast<uint32_t>(n);
    } else {
      sp.push_back({cta, addr, static_cast<uint32_t>(n), static_cast<uint32_t>(off)});
    }
    return true;
  }

 private:
  m::SharedMemoryIf* base_;
  Expectation* e_;
};
// Recording view of the shadow global memory: forwards every write and appends it to the
// expectation's global spans (stores, reductions).
class RecordingGlobal : public m::GlobalMemoryIf {
 public:
  RecordingGlobal(m::GlobalMemoryIf* base, Expectation* e) : base_(base), e_(e) {}
  bool Read(uint64_t addr, uint8_t* dst, size_t n) override { return base_->Read(addr, dst, n); }
  bool Write(uint64_t addr, const uint8_t* src, size_t n) override {
    if (!base_->Write(addr, src, n)) {
      return false;
    }
    auto& sp = e_->gspans;
    if (!sp.empty() && sp.back().addr + sp.back().len == addr) {
      sp.back().len += static_cast<uint32_t>(n);
    } else {
      sp.push_back({addr, static_cast<uint32_t>(n), static_cast<uint32_t>(e_->gdata.size())});
    }
    e_->gdata.insert(e_->gdata.end(), src, src + n);
    return true;
  }

 private:
  m::GlobalMemoryIf* base_;
  Expectation* e_;
};
}  // namespace

int Expectation::ExpectedByte(int cta, uint32_t addr) const {
  for (auto it = spans.rbegin(); it != spans.rend(); ++it) {
    if (it->cta == cta && addr >= it->addr && addr - it->addr < it->len) {
      return data[it->off + (addr - it->addr)];
    }
  }
  return -1;
}

// ---- coverage -----------------------------------------------------------------------------
TmaCoverage::TmaCoverage(const std::string& name, uvm::Component* parent)
    : uvm::Component(name, parent) {
  std::vector<std::string> modes, dtypes, swz, il, errs;
  for (int i = 0; i <= m::num::kModeIm2colNoOffs; ++i) {
    modes.push_back(m::ToString(static_cast<m::LoadMode>(i)));
  }
  for (int i = 0; i < m::kNumDTypes; ++i) {
    dtypes.push_back(m::ToString(static_cast<m::DType>(i)));
  }
  for (int i = 0; i < m::num::kNumSwizzles; ++i) {
    swz.push_back(m::ToString(static_cast<m::Swizzle>(i)));
  }
  for (int i = 0; i <= m::num::kIl32B; ++i) {
    il.push_back(m::ToString(static_cast<m::Interleave>(i)));
  }
  for (int i = 0; i <= static_cast<int>(m::ErrorClass::kBusError); ++i) {
    errs.push_back(m::ToString(static_cast<m::ErrorClass>(i)));
  }
  op_ = cg_.AddPoint("op", {"load", "store", "reduce", "prefetch"});
  mode_ = cg_.AddPoint("mode", modes);
  rank_ = cg_.AddPoint("rank", {"1d", "2d", "3d", "4d", "5d"});
  dtype_ = cg_.AddPoint("dtype", dtypes);
  swz_ = cg_.AddPoint("swizzle", swz);
  il_ = cg_.AddPoint("interleave", il);
  oob_ = cg_.AddPoint(
      "oob_side", {"in_bounds", "low_dim0", "high_dim0", "low_outer", "high_outer", "fully_oob"});
  es_ = cg_.AddPoint("element_stride",
                     {"all_1", "es0_gt1_ignored", "es_divides_box", "es_not_dividing_box"});
  mc_ = cg_.AddPoint("multicast_ctas", {"unicast", "1", "2", "3-4", "5-8", "9-16"});
  err_ = cg_.AddPoint("error_class", errs);
  // sm_90 load engine: sub-byte types, 128B-atom / 96B swizzles and the store-only
  // scatter4 mode are out of scope for this bench (not counted).
  constexpr int kFirstSubByte = static_cast<int>(m::DType::kB4x16);
  constexpr int kFirst128BAtom = static_cast<int>(m::Swizzle::k128BAtom32B);
  for (int i = kFirstSubByte; i < m::kNumDTypes; ++i) {
    cg_.point(dtype_).Ignore(i);
  }
  for (int i = kFirst128BAtom; i < m::num::kNumSwizzles; ++i) {
    cg_.point(swz_).Ignore(i);
  }
  cg_.point(mode_).Ignore(static_cast<int>(m::LoadMode::kTileScatter4));
  cg_.point(mode_).Ignore(static_cast<int>(m::LoadMode::kIm2colNoOffs));
  cg_.point(err_).Ignore(static_cast<int>(m::ErrorClass::kUnsupportedReduction));
  x_rank_swz_ = cg_.AddCross("rank_x_swizzle", rank_, swz_);
  cg_.cross(x_rank_swz_).Ignore([](int, int s) { return s >= kFirst128BAtom; });
  x_dtype_swz_ = cg_.AddCross("dtype_x_swizzle", dtype_, swz_);
  cg_.cross(x_dtype_swz_).Ignore([](int t, int s) {
    return t >= kFirstSubByte || s >= kFirst128BAtom;
  });
  // No such instruction: a store / reduce of .im2col, gather4 or the wide modes (scatter4 is
  // the store form, out of scope), a load / prefetch of .im2col_no_offs.
  x_op_mode_ = cg_.AddCross("op_x_mode", op_, mode_);
  cg_.cross(x_op_mode_).Ignore([](int op, int md) {
    const bool to_global =
        op == static_cast<int>(m::Op::kStore) || op == static_cast<int>(m::Op::kReduce);
    if (md == m::num::kModeTileScatter4) {
      return true;
    }
    if (to_global) {
      return md != m::num::kModeTile && md != m::num::kModeIm2colNoOffs;
    }
    return md == m::num::kModeIm2colNoOffs;
  });
  // A gather4 load / prefetch has no invalid_coordinate rule (F3 is for stores and
  // reductions, F4 and the wHalo / wOffset ranges for the im2col modes: CheckInstruction).
  x_mode_err_ = cg_.AddCross("mode_x_error", mode_, err_);
  cg_.cross(x_mode_err_).Ignore([](int md, int e) {
    return md == m::num::kModeTileScatter4 || md == m::num::kModeIm2colNoOffs ||
           e == static_cast<int>(m::ErrorClass::kUnsupportedReduction) ||
           (md == m::num::kModeTileGather4 &&
            e == static_cast<int>(m::ErrorClass::kInvalidCoordinate));
  });
}

void TmaCoverage::Sample(const Expectation& e) {
  const m::TensorInstr& in = e.cmd.instr;
  int md = static_cast<int>(in.mode);
  int err = static_cast<int>(e.res.status.cls);
  cg_.point(op_).Sample(static_cast<int>(in.op));
  cg_.cross(x_op_mode_).Sample(static_cast<int>(in.op), md);
  cg_.point(mode_).Sample(md);
  cg_.point(err_).Sample(err);
  cg_.cross(x_mode_err_).Sample(md, err);
  int mc = 0;
  if (in.multicast) {
    int n = __builtin_popcount(in.cta_mask);
    mc = n <= 1 ? 1 : n == 2 ? 2 : n <= 4 ? 3 : n <= 8 ? 4 : 5;
  }
  cg_.point(mc_).Sample(mc);
  if (!e.map_ok) {
    return;
  }
  const m::TensorMap& t = e.map;
  cg_.point(rank_).Sample(t.rank - 1);
  cg_.point(dtype_).Sample(static_cast<int>(t.dtype));
  cg_.point(swz_).Sample(static_cast<int>(t.swizzle));
  cg_.point(il_).Sample(static_cast<int>(t.interleave));
  cg_.cross(x_rank_swz_).Sample(t.rank - 1, static_cast<int>(t.swizzle));
  cg_.cross(x_dtype_swz_).Sample(static_cast<int>(t.dtype), static_cast<int>(t.swizzle));
  if (t.mode == m::MapMode::kTiled && static_cast<int>(in.coords.size()) >= t.rank) {
    int es_bin = 0;
    if (t.element_strides[0] > 1) {
      es_bin = 1;
    }
    bool any_oob = false, all_oob = false;
    for (int d = 0; d < t.rank; ++d) {
      int64_t c = in.coords[d];
      uint32_t es = d == 0 ? 1 : t.element_strides[d];
      int64_t n = d == 0 ? t.box[0] : (t.box[d] + es - 1) / es;
      int64_t last = c + (n - 1) * es;
      if (d > 0 && es > 1) {
        es_bin = (t.box[d] % es == 0) ? 2 : 3;
      }
      bool low = c < 0, high = last >= static_cast<int64_t>(t.dims[d]);
      if (low) {
        cg_.point(oob_).Sample(d == 0 ? 1 : 3);
      }
      if (high) {
        cg_.point(oob_).Sample(d == 0 ? 2 : 4);
      }
      any_oob |= low || high;
      all_oob |= last < 0 || c >= static_cast<int64_t>(t.dims[d]);
    }
    if (!any_oob) {
      cg_.point(oob_).Sample(0);
    }
    if (all_oob) {
      cg_.point(oob_).Sample(5);
    }
    cg_.point(es_).Sample(es_bin);
  }
}

void TmaCoverage::report_phase() {
  std::ostringstream os;
  cg_.Print(os, uvm::ReportServer::Get().Enabled(uvm::kHigh));
  uvm::ReportServer::Get().stream() << os.str();
  // $TMA_FCOV_OUT: every bin's hits, for tools/regress to merge the runs' coverage.
  if (const char* path = std::getenv("TMA_FCOV_OUT")) {
    std::ofstream f(path);
    cg_.WriteBins(f);
    f.close();
    if (f.fail()) {
      Error("FCOV_OUT", std::string("cannot write ") + path);
    }
  }
}

// ---- scoreboard ---------------------------------------------------------------------------
void TmaScoreboard::build_phase() {
  if (!ConfigDb::Get().Lookup(this, "gmem", &gmem_) ||
      !ConfigDb::Get().Lookup(this, "smem", &smem_)) {
    Fatal("NOMEM", "scoreboard needs 'gmem' and 'smem'");
  }
  idle_limit_ = ConfigDb::Get().GetOr<uint64_t>(this, "idle_limit", 20000);
  arch_ = static_cast<m::Arch>(
      ConfigDb::Get().GetOr<int>(this, "arch", static_cast<int>(m::Arch::kSm90)));
}

void TmaScoreboard::WaitRetired() {
  const sc_core::sc_time step(1000, sc_core::SC_NS);
  while (true) {
    uint64_t before = checked;
    sc_core::wait(step, retired_ev_);
    if (checked != before || open_.empty()) {
      return;
    }
    if (Cycle() - last_activity_ > idle_limit_) {
      std::ostringstream os;
      os << open_.size() << " command(s) outstanding and the DUT idle for " << idle_limit_
         << " cycles:";
      for (const auto& [tag, e] : open_) {
        os << "\n    " << e.cmd.ToString() << " (" << e.pending_tx.size()
           << " complete-tx outstanding, model: "
           << (e.res.status.ok() ? "ok" : e.res.status.ToString()) << ")";
      }
      os << "\n    replay: " << Replay();
      Fatal("HANG", os.str());
      return;
    }
  }
}

void TmaScoreboard::start_of_simulation_phase() {
  shadow_g_ = std::make_unique<ShadowGlobal>(gmem_);
  shadow_s_ = std::make_unique<m::ClusterSharedMemory>(*smem_);
}

std::string TmaScoreboard::Replay() const {
  return ConfigDb::Get().GetOr<std::string>(this, "replay_cmd", "(no replay command)");
}

bool TmaScoreboard::ClaimedByDut(const Expectation& e) const {
  if (!ConfigDb::Get().GetOr<bool>(this, "dut_claims", false)) {
    return false;
  }
  sim::RtlCommandKind k;
  k.op = e.cmd.instr.op;
  k.mode = e.cmd.instr.mode;
  k.dtype = e.map_ok ? e.map.dtype : m::DType::kU8;
  k.arch = arch_;
  k.cta_group = e.cmd.instr.cta_group;
  return e.map_ok && sim::RtlUnclaimed(k, sim::RtlBuild::Default(
                                              ConfigDb::Get().GetOr<int>(this, "data_bytes", 16)))
                         .empty();
}

void TmaScoreboard::WriteCmd(const TmaCommand& c) {
  if (open_.count(c.tag)) {
    Error("TAG", "command reuses open tag " + std::to_string(c.tag));
    return;
  }
  last_activity_ = Cycle();
  Expectation e;
  e.cmd = c;
  e.accept_cycle = Cycle();
  uint8_t raw[m::kDescriptorBytes];
  gmem_->ReadRaw(c.desc_addr, raw, sizeof raw);
  e.map_ok = m::DecodeDescriptor(raw, &e.map).ok();
  if (c.instr.op == m::Op::kStore || c.instr.op == m::Op::kReduce) {
    SettleDontCare();  // the source bytes as the DUT will read them
  }
  RecordingSmem rec(shadow_s_.get(), &e);
  RecordingGlobal grec(shadow_g_.get(), &e);
  m::ExecOptions opt;
  opt.arch = arch_;
  e.res = m::ExecuteTensorAt(c.desc_addr, c.instr, grec, rec, opt);
  e.pending_tx = e.res.complete_tx;
  ClearDontCare(e);
  if (!e.res.status.ok()) {
    ++errors_expected;
  }
  Info("SCB",
       "expect " + c.ToString() + " -> " +
           (e.res.status.ok() ? std::to_string(e.res.complete_tx.size()) + " complete-tx"
                              : e.res.status.ToString()),
       uvm::kHigh);
  if (e.map_ok) {
    Info("SCB", "  map of tag " + std::to_string(c.tag) + ": " + MapToString(e.map), uvm::kDebug);
  }
  if (cpl_agent != nullptr) {
    // One arrive.expect_tx per mbarrier with the bytes of every complete-tx it receives (a
    // .cta_group::2 multicast routes two destinations' complete-tx to one mbarrier).
    std::map<std::pair<int, uint32_t>, uint32_t> per_bar;
    for (const auto& tx : e.res.complete_tx) {
      per_bar[{tx.cta, tx.mbar_addr}] += tx.bytes;
    }
    for (const auto& [bar, bytes] : per_bar) {
      cpl_agent->ExpectTx(bar.first, bar.second, bytes);
    }
  }
  if (coverage != nullptr) {
    coverage->Sample(e);
  }
  open_.emplace(c.tag, std::move(e));
}

void TmaScoreboard::WriteBeat(const SmemBeat& /*b*/) {
  last_activity_ = Cycle();
  ++smem_beats_;
}

void TmaScoreboard::ReportMismatch(const Expectation& e, int cta, uint32_t addr, uint8_t want,
                                   uint8_t got, const char* when) {
  ++mismatches;
  std::ostringstream os;
  os << when << ": shared memory of CTA " << cta << " at offset 0x" << std::hex << addr << std::dec
     << ": expected 0x" << Hex(&want, 1) << ", DUT wrote 0x" << Hex(&got, 1)
     << "\n    instruction: " << e.cmd.ToString();
  if (e.map_ok) {
    const m::TensorMap& t = e.map;
    os << "\n    tensor map: " << MapToString(t);
    // Invert the layout: which element owns this byte?
    bool found = false;
    m::ForEachElement(t, e.cmd.instr, [&](const m::ElementVisit& v) {
      if (found) {
        return;
      }
      for (uint32_t k = 0; k < v.bytes; ++k) {
        uint32_t phys = m::SwizzleAddress(e.cmd.instr.smem_addr + v.smem_offset + k, t.swizzle);
        if (phys != addr) {
          continue;
        }
        found = true;
        os << "\n    element: coords (";
        for (int d = 0; d < t.rank; ++d) {
          os << (d ? "," : "") << v.coords[d];
        }
        os << ") box index (";
        for (int d = 0; d < t.rank; ++d) {
          os << (d ? "," : "") << v.box_index[d];
        }
        os << ") byte " << k << " of " << v.bytes << (v.oob ? " (out of bounds: fill)" : "");
        if (!v.oob) {
          os << " global 0x" << std::hex << v.global_addr + k << std::dec;
        }
        uint32_t base = phys - k;
        std::vector<uint8_t> exp(v.bytes), act(v.bytes);
        for (uint32_t j = 0; j < v.bytes; ++j) {
          uint32_t pj = m::SwizzleAddress(e.cmd.instr.smem_addr + v.smem_offset + j, t.swizzle);
          int want_j = e.ExpectedByte(cta, pj);
          exp[j] = want_j < 0 ? 0 : static_cast<uint8_t>(want_j);
          smem_->Read(cta, pj, &act[j], 1);
        }
        (void)base;
        os << "\n    element bytes: expected " << Hex(exp.data(), exp.size()) << " actual "
           << Hex(act.data(), act.size());
        break;
      }
    });
    if (!found) {
      os << "\n    (no element of this instruction maps to that byte: a stray write)";
    }
  }
  os << "\n    seed " << ConfigDb::Get().GetOr<uint64_t>(this, "seed", 0)
     << "; replay: " << Replay();
  Error("MISMATCH", os.str());
}

bool TmaScoreboard::CheckCtaBytes(const Expectation& e, int cta, const char* when) {
  const std::vector<uint8_t>& win = smem_->Window(cta);
  for (const Expectation::Span& sp : e.spans) {
    if (sp.cta != cta) {
      continue;
    }
    bytes_checked += sp.len;
    const uint8_t* want = e.data.data() + sp.off;
    if (std::memcmp(win.data() + sp.addr, want, sp.len) == 0) {
      continue;
    }
    uint32_t k = 0;
    while (win[sp.addr + k] == want[k]) {
      ++k;
    }
    if (!reported_first_) {
      reported_first_ = true;
      ReportMismatch(e, cta, sp.addr + k, want[k], win[sp.addr + k], when);
    } else {
      ++mismatches;
    }
    return false;
  }
  return true;
}

bool TmaScoreboard::CheckGlobalBytes(const Expectation& e) {
  std::vector<uint8_t> got;
  for (const Expectation::GSpan& sp : e.gspans) {
    got.resize(sp.len);
    gmem_->ReadRaw(sp.addr, got.data(), sp.len);
    global_bytes_checked_ += sp.len;
    bytes_checked += sp.len;
    const uint8_t* want = e.gdata.data() + sp.off;
    if (std::memcmp(got.data(), want, sp.len) == 0) {
      continue;
    }
    uint32_t k = 0;
    while (got[k] == want[k]) {
      ++k;
    }
    ++mismatches;
    std::ostringstream os;
    os << "at completion: global memory at 0x" << std::hex << sp.addr + k << std::dec
       << ": expected 0x" << Hex(want + k, 1) << ", DUT wrote 0x" << Hex(&got[k], 1)
       << "\n    instruction: " << e.cmd.ToString();
    if (e.map_ok) {
      os << "\n    tensor map: " << MapToString(e.map);
    }
    os << "\n    seed " << ConfigDb::Get().GetOr<uint64_t>(this, "seed", 0)
       << "; replay: " << Replay();
    Error("GMEM_MISMATCH", os.str());
    return false;
  }
  return true;
}

void TmaScoreboard::SettleDontCare() {
  for (size_t c = 0; c < dont_care_.size(); ++c) {
    const auto& actual = smem_->Window(static_cast<int>(c));
    auto& d = dont_care_[c];
    for (uint32_t a = 0; a < d.size(); ++a) {
      if (d[a]) {
        shadow_s_->Write(static_cast<int>(c), a, &actual[a], 1);
        d[a] = 0;
      }
    }
  }
  dont_care_.clear();
}

void TmaScoreboard::WriteCpl(const Completion& c) {
  last_activity_ = Cycle();
  auto it = open_.find(c.tag);
  if (it == open_.end()) {
    Error("CPL_TAG", "completion for no open command: " + c.ToString());
    return;
  }
  Expectation& e = it->second;
  if (c.kind == tma::pkg::CplError) {
    auto cls = static_cast<m::ErrorClass>(c.error);
    if (!e.res.status.ok() && cls == e.res.status.cls) {
      if (cls == m::ErrorClass::kBusError) {
        MarkBusErrorRegion(e);
      }
      Retire(c.tag);
      return;
    }
    if (cls == m::ErrorClass::kUnsupported && ClaimedByDut(e)) {
      // The skip policy (docs/verification.md): the RTL claims this kind of command
      // (sim/rtl_support.h), so `unsupported` is a wrong answer, not a skip.
      Error("UNSUPPORTED_CLAIMED",
            "DUT answered unsupported to " + e.cmd.ToString() + ", a command the RTL claims " +
                "(model: " + (e.res.status.ok() ? "ok" : e.res.status.ToString()) + "); seed " +
                std::to_string(ConfigDb::Get().GetOr<uint64_t>(this, "seed", 0)) +
                "; replay: " + Replay());
      ++mismatches;
      Retire(c.tag);
      return;
    }
    if (cls == m::ErrorClass::kUnsupported) {
      // The DUT declines a command outside its claims: SKIPPED, never passed, whatever the
      // model says of it (the golden replay's rule too). Undo what the model predicted: the
      // shadow bytes and the armed mbarriers.
      for (auto sp = e.spans.rbegin(); sp != e.spans.rend(); ++sp) {
        shadow_s_->Write(sp->cta, sp->addr, e.prior.data() + sp->off, sp->len);
      }
      if (cpl_agent != nullptr) {
        for (const auto& tx : e.pending_tx) {
          cpl_agent->CancelTx(tx.cta, tx.mbar_addr, tx.bytes);
        }
      }
      ++skipped;
      Warning("UNSUPPORTED", "DUT does not implement " + e.cmd.ToString() + " (skipped; model: " +
                                 (e.res.status.ok() ? "ok" : e.res.status.ToString()) + ")");
      Retire(c.tag);
      return;
    }
    Error("CPL_ERROR", "DUT reported " + std::string(m::ToString(cls)) + ", model " +
                           (e.res.status.ok() ? "ok" : e.res.status.ToString()) + " for " +
                           e.cmd.ToString() + "; seed " +
                           std::to_string(ConfigDb::Get().GetOr<uint64_t>(this, "seed", 0)) +
                           "; replay: " + Replay());
    ++mismatches;
    Retire(c.tag);
    return;
  }
  if (c.kind == tma::pkg::CplTx) {
    if (!e.res.status.ok()) {
      Error("CPL_KIND", "complete-tx where the model expects " + e.res.status.ToString() + ": " +
                            c.ToString() + " for " + e.cmd.ToString() + "; replay: " + Replay());
      ++mismatches;
      Retire(c.tag);
      return;
    }
    m::CompleteTx tx{c.cta, c.mbar_addr, c.bytes};
    auto pit = std::find(e.pending_tx.begin(), e.pending_tx.end(), tx);
    if (pit == e.pending_tx.end()) {
      std::ostringstream os;
      os << "unexpected " << c.ToString() << " for " << e.cmd.ToString() << "; model expects:";
      for (const auto& p : e.pending_tx) {
        os << " (cta " << p.cta << " mbar 0x" << std::hex << p.mbar_addr << std::dec << " "
           << p.bytes << " B)";
      }
      os << "; replay: " << Replay();
      Error("CPL_TX", os.str());
      ++mismatches;
      Retire(c.tag);  // the command has failed; do not wait for the rest of it
      return;
    }
    e.pending_tx.erase(pit);
    // Rule: complete-tx only after the last byte of that CTA's data was accepted.
    CheckCtaBytes(e, c.cta, "at complete-tx");
    if (e.pending_tx.empty()) {
      Retire(c.tag);
    }
    return;
  }
  if (c.kind == tma::pkg::CplDone && e.res.status.ok() && e.cmd.instr.op != m::Op::kLoad) {
    CheckGlobalBytes(e);  // a store's or reduction's bytes are in global memory at its end
    Retire(c.tag);
    return;
  }
  Error("CPL_KIND", "unexpected completion " + c.ToString() + " for " + e.cmd.ToString());
  ++mismatches;
}

void TmaScoreboard::Retire(uint8_t tag) {
  auto it = open_.find(tag);
  ++checked;
  history_.push_back(std::move(it->second));
  open_.erase(it);
  retired_ev_.notify(sc_core::SC_ZERO_TIME);
}

void TmaScoreboard::MarkBusErrorRegion(const Expectation& e) {
  // A streaming engine finds a failed read only after it may have written earlier rows (or,
  // as here, fill-only beats) of the same command; silicon reports such a fault without
  // defining the destination. The golden format compares only the class of an error, and so
  // does this bench for the destination of a bus_error: those bytes are not compared.
  if (!e.map_ok) {
    return;
  }
  const m::TensorInstr& in = e.cmd.instr;
  std::vector<int> ctas;
  if (in.multicast) {
    for (int c = 0; c < smem_->NumCtas(); ++c) {
      if ((in.cta_mask >> c) & 1) {
        ctas.push_back(c);
      }
    }
  } else {
    ctas.push_back(in.dst_cta >= 0 ? in.dst_cta : in.issuer_cta);
  }
  if (dont_care_.empty()) {
    for (int c = 0; c < smem_->NumCtas(); ++c) {
      dont_care_.emplace_back(smem_->Window(c).size(), 0);
    }
  }
  m::ForEachElement(e.map, in, [&](const m::ElementVisit& v) {
    for (uint32_t b = 0; b < v.bytes; ++b) {
      const uint32_t a = m::SwizzleAddress(in.smem_addr + v.smem_offset + b, e.map.swizzle);
      for (int c : ctas) {
        if (c < static_cast<int>(dont_care_.size()) && a < dont_care_[c].size()) {
          dont_care_[c][a] = 1;
        }
      }
    }
  });
  // Commands accepted after this one and still open have written their bytes into the shadow.
  for (const auto& [tag, other] : open_) {
    if (other.accept_cycle > e.accept_cycle) {
      ClearDontCare(other);
    }
  }
}

void TmaScoreboard::ClearDontCare(const Expectation& e) {
  if (dont_care_.empty()) {
    return;
  }
  for (const Expectation::Span& sp : e.spans) {
    auto& d = dont_care_.at(static_cast<size_t>(sp.cta));
    std::fill(d.begin() + sp.addr, d.begin() + sp.addr + sp.len, 0);
  }
}

void TmaScoreboard::check_phase() {
  // Bytes of bus_error destinations take whatever the DUT left there (MarkBusErrorRegion).
  SettleDontCare();
  for (const auto& [tag, e] : open_) {
    Error("HANG", "command never completed: " + e.cmd.ToString() + " (" +
                      std::to_string(e.pending_tx.size()) +
                      " complete-tx outstanding); replay: " + Replay());
  }
  // Every window, byte for byte, against the model's shadow copy.
  for (int cta = 0; cta < smem_->NumCtas(); ++cta) {
    const auto& a = smem_->Window(cta);
    const auto& b = shadow_s_->Window(cta);
    auto mm = std::mismatch(a.begin(), a.end(), b.begin());
    if (mm.first == a.end()) {
      continue;
    }
    uint32_t addr = static_cast<uint32_t>(mm.first - a.begin());
    if (reported_first_) {
      Error("MISMATCH", "CTA " + std::to_string(cta) + " window differs from the model at " +
                            "offset " + std::to_string(addr));
      continue;
    }
    reported_first_ = true;
    // Find the last command that wrote the byte, for the diagnosis.
    const Expectation* owner = nullptr;
    for (auto h = history_.rbegin(); h != history_.rend() && owner == nullptr; ++h) {
      if (h->ExpectedByte(cta, addr) >= 0) {
        owner = &*h;
      }
    }
    if (owner != nullptr) {
      ReportMismatch(*owner, cta, addr, *mm.second, *mm.first, "end of test");
    } else {
      ++mismatches;
      Error("MISMATCH", "end of test: CTA " + std::to_string(cta) + " offset " +
                            std::to_string(addr) + " holds 0x" + Hex(&*mm.first, 1) +
                            " but no command should have written it (expected 0x" +
                            Hex(&*mm.second, 1) + "); replay: " + Replay());
    }
  }
  // Global memory: every byte the DUT wrote is one the model wrote, with the model's value,
  // and every byte the model wrote is in place (a missing or stray write).
  const auto& ov = shadow_g_->overlay();
  int reported = 0;
  for (const auto& [addr, len] : gmem_->written()) {
    for (uint64_t a = addr; a < addr + len && reported < 4; ++a) {
      uint8_t got = 0;
      gmem_->ReadRaw(a, &got, 1);
      auto it = ov.find(a);
      if (it == ov.end() || it->second != got) {
        ++mismatches;
        ++reported;
        std::ostringstream os;
        os << "end of test: the DUT wrote global 0x" << std::hex << a << std::dec << " = 0x"
           << Hex(&got, 1)
           << (it == ov.end() ? std::string(", a byte no command should write")
                              : ", the model wrote 0x" + Hex(&it->second, 1))
           << "; replay: " << Replay();
        Error("GMEM", os.str());
      }
    }
  }
  for (const auto& [a, want] : ov) {
    uint8_t got = 0;
    gmem_->ReadRaw(a, &got, 1);
    if (got != want && reported < 8) {
      ++mismatches;
      ++reported;
      std::ostringstream os;
      os << "end of test: global 0x" << std::hex << a << std::dec << " holds 0x" << Hex(&got, 1)
         << ", the model wrote 0x" << Hex(&want, 1) << "; replay: " << Replay();
      Error("GMEM", os.str());
    }
  }
}

void TmaScoreboard::report_phase() {
  std::ostringstream os;
  os << "commands checked " << checked << " (errors expected " << errors_expected << ", skipped "
     << skipped << "), bytes checked " << bytes_checked << " (global " << global_bytes_checked_
     << "), smem beats " << smem_beats_ << ", mismatches " << mismatches;
  Info("SCB", os.str(), uvm::kLow);
}

// ---- environment --------------------------------------------------------------------------
void TmaEnv::build_phase() {
  cmd = Create<CmdAgent>("cmd_agent");
  axi = Create<AxiSlaveAgent>("axi_agent");
  smem = Create<SmemAgent>("smem_agent");
  cpl = Create<CplAgent>("cpl_agent");
  scb = Create<TmaScoreboard>("scoreboard");
  cov = Create<TmaCoverage>("coverage");
}

void TmaEnv::run_phase() {
  TmaIf* vif = nullptr;
  ConfigDb::Get().Lookup(this, "vif", &vif);
  // One cycle of the harness (sim/harness.h) at each rising edge: the reset as the test drives
  // it, every agent on this cycle's pins, then the DUT's edge and its new inputs settled.
  SpawnMethod(
      "clock",
      [this, vif] {
        vif->pins().rst_n = vif->rst_n.read();
        dut_cov.Tick(vif->pins(), cycle_++);
        cmd->monitor->Tick();
        if (cmd->driver != nullptr) {
          cmd->driver->Tick();
        }
        axi->Tick();
        smem->Tick();
        cpl->Tick();
        vif->dut->Posedge();
        vif->dut->Settle();
      },
      vif->clk.posedge_event());
}

void TmaEnv::report_phase() {
  std::ostringstream os;
  os << "DUT functional coverage " << dut_cov.Percent() << " %";
  Info("DUTCOV", os.str(), uvm::kLow);
  if (!dut_cov.WriteEnvFile()) {
    Error("FCOV_OUT", "cannot write $TMA_DUT_FCOV_OUT");
  }
}

void TmaEnv::connect_phase() {
  cmd->monitor->ap.connect([this](const TmaCommand& c) { scb->WriteCmd(c); });
  smem->ap.connect([this](const SmemBeat& b) { scb->WriteBeat(b); });
  cpl->ap.connect([this](const Completion& c) { scb->WriteCpl(c); });
  scb->cpl_agent = cpl;
  scb->coverage = cov;
}

}  // namespace tma::tb
