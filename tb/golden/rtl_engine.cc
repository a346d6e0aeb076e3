// SPDX-License-Identifier: Apache-2.0
//
// Golden-case replay through the Verilated tma_sim_top (rtl_engine.h).
#include "golden/rtl_engine.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

#include "sim/axi_read_slave.h"
#include "sim/axi_write_slave.h"
#include "sim/cmd_port.h"
#include "sim/cpl_port.h"
#include "sim/dut_coverage.h"
#include "sim/harness.h"
#include "sim/rtl_support.h"
#include "sim/smem_port.h"
#include "sim/tops.h"
#include "tma/descriptor.h"
#include "tma/encoder.h"
#include "tma/golden.h"
#include "tma/mbarrier.h"

namespace tma::tb {

namespace m = tma::model;

namespace {
// Where the harness puts the descriptor when the case's buffer does not cover the address.
constexpr uint64_t kDescAddr[] = {0x7ff000000000ull, 0x000000100000ull};
constexpr uint8_t kTag = 0x5a;

double CpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// The case's global memory with the descriptor's 128 bytes at desc_addr.
class CaseGlobal : public m::GlobalMemoryIf {
 public:
  bool Read(uint64_t addr, uint8_t* dst, size_t n) override {
    const uint64_t end = addr + n;
    if (addr >= desc_addr && end <= desc_addr + m::kDescriptorBytes) {
      std::memcpy(dst, desc + (addr - desc_addr), n);
      return true;
    }
    if (end <= desc_addr || addr >= desc_addr + m::kDescriptorBytes) {
      return global->Read(addr, dst, n);
    }
    bool ok = true;
    for (size_t k = 0; k < n; ++k) {
      ok &= Read(addr + k, dst + k, 1);
    }
    return ok;
  }
  // Stores write the case's buffer; the descriptor is read-only.
  bool Write(uint64_t addr, const uint8_t* src, size_t n) override {
    if (addr < desc_addr + m::kDescriptorBytes && addr + n > desc_addr) {
      return false;
    }
    return global->Write(addr, src, n);
  }
  m::GlobalMemoryIf* global = nullptr;
  uint64_t desc_addr = 0;
  uint8_t desc[m::kDescriptorBytes] = {};
};
}  // namespace

// The Verilated model and the harness components around it.
class RtlHarness {
 public:
  // write_coverage: this harness writes the coverage files when destroyed (one harness of an
  // engine does: the files are per process).
  RtlHarness(std::unique_ptr<sim::SimTop> top, bool write_coverage)
      : write_coverage_(write_coverage),
        top_(std::move(top)),
        h_(top_.get()),
        src_(&gmem),
        axi_(&src_, &rng_, Noter()),
        axw_(&gmem, &rng_, Noter()),
        smem_(nullptr, &rng_, Noter()),
        cmd_(&rng_, nullptr),
        cpl_(&rng_, [this](const sim::EngineCompletion& c) {
          if (c.tag != kTag) {
            Note("completion with tag " + std::to_string(c.tag) + " (sent 0x5a)");
          }
          cpls.push_back({c.kind, m::CompleteTx{c.cta, c.mbar_addr,
                                                c.kind == tma::pkg::CplError ? c.error : c.bytes}});
        }) {
    axi_.config().in_order = true;  // AR order, first beat the cycle after the AR
    h_.Add(&dut_cov_);              // first: it sees the pins as the DUT sampled them
    h_.Add(&cmd_);
    h_.Add(&axi_);
    h_.Add(&axw_);
    h_.Add(&smem_);
    h_.Add(&cpl_);
  }
  ~RtlHarness() {
    // TMA_COVERAGE=ON build: the RTL's line/toggle coverage for tools/regress --coverage.
    if (const char* f = std::getenv("TMA_COV_DAT"); f && write_coverage_) {
      top_->WriteCoverage(f);
    }
    // The DUT's functional coverage over every case replayed, for tools/regress.
    if (write_coverage_ && !dut_cov_.WriteEnvFile()) {
      std::fprintf(stderr, "tma-rtl: cannot write $TMA_DUT_FCOV_OUT\n");
    }
    top_->Final();
  }

  // The architecture whose rules the engine applies (tma_sim_top's arch_i).
  void SetArch(m::Arch a) { h_.pins().arch = static_cast<uint8_t>(a); }
  // CTAs in the cluster (tma_sim_top's cluster_i: 16 is 0).
  void SetCluster(int ctas) { h_.pins().cluster = static_cast<uint8_t>(ctas & 15); }
  void Reset(m::SharedMemoryIf* smem) {
    axi_.Clear();
    axw_.Clear();
    smem_.Clear();
    smem_.set_memory(smem);
    cmd_.Clear();
    h_.pins().cmd_valid = false;
    h_.Reset(3);
  }
  void Offer(const sim::EngineCommand& c) {
    cmd_.Offer(c, &h_.pins());
    h_.Apply();
  }
  void Step() { h_.Step(); }
  bool busy() { return h_.pins().busy; }
  bool cmd_pending() const { return cmd_.driving(); }
  uint64_t cycles() const { return h_.cycle(); }
  uint64_t atomics() const { return axw_.atomics(); }
  bool TakeSvaError() { return top_->TakeAssertFailure(); }

  CaseGlobal gmem;
  // (kind, tx): tma::pkg::Cpl*; an error's tx.bytes is its class
  std::vector<std::pair<uint32_t, m::CompleteTx>> cpls;
  std::string note;
  double sim_seconds = 0;

 private:
  sim::ErrorFn Noter() {
    return [this](const std::string&, const std::string& msg) { Note(msg); };
  }
  void Note(const std::string& s) {
    if (note.empty()) {
      note = s;
    }
  }

  bool write_coverage_;
  std::unique_ptr<sim::SimTop> top_;
  sim::Harness h_;
  sim::MtRandom rng_;  // every knob at 100 %, in-order bursts, latency 0: never drawn
  sim::GlobalMemorySource src_;
  sim::AxiReadSlave axi_;
  sim::AxiWriteSlave axw_;
  sim::SmemPort smem_;
  sim::CmdPort cmd_;
  sim::CplPort cpl_;
  sim::DutCoverage dut_cov_;
};

RtlCaseEngine::RtlCaseEngine(int data_bytes, bool atomic)
    : RtlCaseEngine(data_bytes,
                    atomic ? sim::SimTopVariant::kAtomicReduce : sim::SimTopVariant::kDefault) {}

RtlCaseEngine::RtlCaseEngine(int data_bytes, sim::SimTopVariant v)
    : data_bytes_(data_bytes),
      variant_(v),
      build_(sim::SimTopBuild(data_bytes, v)),
      ptx_build_(sim::RtlBuild::PtxReadings(data_bytes)) {
  if (std::unique_ptr<sim::SimTop> top = sim::MakeSimTop(data_bytes, {}, v)) {
    h_ = std::make_unique<RtlHarness>(std::move(top), true);
  }
}
RtlCaseEngine::~RtlCaseEngine() = default;
uint64_t RtlCaseEngine::cycles() const {
  return h_->cycles() + (ptx_h_ ? ptx_h_->cycles() : 0);
}
uint64_t RtlCaseEngine::atomics() const {
  return h_->atomics() + (ptx_h_ ? ptx_h_->atomics() : 0);
}
double RtlCaseEngine::sim_seconds() const {
  return h_->sim_seconds + (ptx_h_ ? ptx_h_->sim_seconds : 0);
}

m::CaseOutcome RtlCaseEngine::Run(const m::GoldenCase& c, m::GlobalMemoryIf& global,
                                  m::SharedMemoryIf& smem) {
  m::CaseOutcome out;
  note_.clear();
  host_decided_ = false;
  ran_on_ptx_ = false;
  auto skip = [&](const std::string& why) {
    out.supported = false;
    out.skip_reason = why;
    return out;
  };
  // The top that runs the case: the default one, else the PTX-readings one when the case asks
  // for a PTX reading the default top is not built with (store_clip "element", bulk size_check
  // "ptx"); it is made at the first such case.
  const sim::RtlBuild* build = &build_;
  std::string why = sim::RtlSkipReason(c, build_);
  const bool ptx_ok =
      variant_ == sim::SimTopVariant::kDefault || variant_ == sim::SimTopVariant::kAtomicReduce;
  if (!why.empty() && ptx_ok && sim::RtlSkipReason(c, ptx_build_).empty()) {
    if (!ptx_h_) {
      if (std::unique_ptr<sim::SimTop> top =
              sim::MakeSimTop(data_bytes_, {}, sim::SimTopVariant::kPtxReadings)) {
        ptx_h_ = std::make_unique<RtlHarness>(std::move(top), false);
      }
    }
    if (ptx_h_) {
      build = &ptx_build_;
      why.clear();
      ran_on_ptx_ = true;
    } else {
      why += " (and no PTX-readings top of DataBytes " + std::to_string(data_bytes_) +
             " is built: TMA_SIM_TOP_PTX_WIDTHS)";
    }
  }
  claimed_ = sim::RtlClaims(c, *build);
  if (!why.empty()) {
    return skip(why);
  }
  // A map the descriptor cannot hold and the host's encoder refuses: the host's verdict, no
  // engine runs (sim::RtlHostEncoderRefusal).
  if (std::optional<m::Status> host = sim::RtlHostEncoderRefusal(c)) {
    host_decided_ = true;
    out.status = *host;
    return out;
  }
  RtlHarness& h = ran_on_ptx_ ? *ptx_h_ : *h_;
  // The case's arch and cluster size go to tma_sim_top's arch_i and cluster_i (0 = 16): the
  // RTL checks the encoder rules of that arch, the CTA operands, the multicast mask (F6) and
  // the .cta_group::2 routing itself.
  const m::Arch arch = m::ParseArch(c.arch).value_or(m::Arch::kSm90);  // known: RtlSkipReason
  const int ctas = c.NumCtas();
  sim::EngineCommand cmd;
  if (c.bulk) {
    cmd = sim::RtlBulkCommand(c, kTag);  // no tensor map: nothing to fetch
  } else {
    // The descriptor bytes the engine fetches.
    if (const std::string why = sim::RtlCaseDescriptor(c, h.gmem.desc); !why.empty()) {
      // Inside the claims (RtlSkipReason passed) but not handed to the engine: a failure of
      // the replay, not a skip.
      claimed_ = true;
      note_ = "a case inside the RTL's claims that the harness cannot hand to the engine: " + why;
      return skip(why);
    }
    cmd.instr = m::CaseInstr(c);
    cmd.tag = kTag;
    // A descriptor address outside the buffer, 128-byte aligned.
    uint8_t probe = 0;
    h.gmem.desc_addr = kDescAddr[0];
    for (uint64_t a : kDescAddr) {
      if (!global.Read(a, &probe, 1) && !global.Read(a + m::kDescriptorBytes - 1, &probe, 1)) {
        h.gmem.desc_addr = a;
        break;
      }
    }
    cmd.desc_addr = h.gmem.desc_addr;
  }
  const double t0 = CpuSeconds();
  h.gmem.global = &global;
  h.cpls.clear();
  h.note.clear();
  h.SetArch(arch);
  h.SetCluster(ctas);
  h.Reset(&smem);
  h.TakeSvaError();
  h.Offer(cmd);

  // (a bulk shared::cta -> shared::cluster copy ends with one complete-tx, on its destination)
  const bool s2s = c.bulk && c.bulk->dir == m::BulkDir::kSharedCtaToSharedCluster;
  const size_t want_tx = c.op == m::Op::kLoad ? m::DestinationCtas(c).size() : s2s ? 1 : 0;
  auto finished = [&] {
    size_t tx = 0;
    for (const auto& [kind, t] : h.cpls) {
      if (kind != tma::pkg::CplTx) {
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
  h.sim_seconds += CpuSeconds() - t0;
  for (const auto& [kind, t] : h.cpls) {
    if (kind == tma::pkg::CplTx) {
      out.complete_tx.push_back(t);
    } else if (kind == tma::pkg::CplError) {
      if (!out.status.ok()) {
        note_ = "more than one error completion";
      }
      out.status = m::Status::Error(static_cast<m::ErrorClass>(t.bytes), "rtl",
                                    "error completion from the engine");
    }
  }
  size_t errors = 0;
  for (const auto& kv : h.cpls) {
    errors += kv.first == tma::pkg::CplError;
  }
  if (errors > 0 && !out.complete_tx.empty()) {
    note_ = "error completion and complete-tx for one command";
  }
  if (hung) {
    note_ = "hang: no completion after " + std::to_string(limit_) + " cycles" +
            (h.cmd_pending() ? " (command never accepted)" : "");
  }
  if (note_.empty()) {
    note_ = h.note;
  }
  if (note_.empty() && claimed_ && out.status.cls == m::ErrorClass::kUnsupported) {
    note_ = "the RTL answered unsupported to a case it claims to run (sim::RtlClaims)";
  }
  if (h.TakeSvaError() && note_.empty()) {
    note_ = "an RTL assertion failed (see the log above)";
  }
  return out;
}

}  // namespace tma::tb
