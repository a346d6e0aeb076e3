// SPDX-License-Identifier: Apache-2.0
//
// tma-rtl: golden-case replay through the Verilated RTL, with the report and exit code of
// `tma run` (cmodel/cli/tma_main.cc):
//   tma-rtl run FILE... [--filter REGEX] [-v|--verbose] [--junit FILE] [--fail-on-skip]
//                       [--sample N] [--shard K/N] [--limit CYCLES] [--data-bytes 16|32|64|128]
//                       [--max-case-bytes N] [--max-line-bytes N]   (limits: golden.h)
//                       [--arch NAME] [--atomic [--min-atomics N]] [--config load90]
// A case the RTL does not implement is SKIP (listed with the reason), never PASS. A case whose
// replay broke a pin-level rule (hang, write outside the window, ...) is FAIL with that note.
// --sample N replays every Nth case of each file (deterministic: index % N == 0), for CI.
// --data-bytes picks the Verilated top's width (default 16; sim/tops.h).
// A case with `store_clip: "element"` or `bulk.size_check: "ptx"` (the PTX text's reading where
// silicon differs) runs on the PTX-readings top of that width (StoreClipElem = 1,
// BulkSizeStrict = 1), when it is built (TMA_SIM_TOP_PTX_WIDTHS; else it is SKIP with the
// reason). A case whose map has no 128-byte encoding and that the host's encoder refuses gets
// the host encoder's verdict, no engine runs it (tb/golden/rtl_engine.h): its details say so,
// and a line before the last counts both kinds.
// --arch NAME (sm_90, sm_100a, sm_103a) replays every case as if it named that arch and
// compares verdicts, not expectations: a case passes when the RTL's outcome (success or its
// error class) equals the model's on the same case and arch; a case the RTL does not run (a
// skip reason, or its own `unsupported` where the model does not say so) is SKIP. The last
// lines count the verdicts that agree and differ.
// --atomic runs on the top built with AtomicReduce = 1 (TMA_SIM_TOP_ATOP_WIDTHS): reductions
// with an AXI5 AtomicStore form go out as one AtomicStore per element, executed by the write
// slave; a line counts the AtomicStores executed, and --min-atomics N fails the run (exit 1)
// when fewer were (a replay that never used the atomic path cannot pass).
// --config load90 runs on the load90 top (TMA_SIM_TOP_LOAD90_WIDTHS; synth/run_synth.py --config
// load90: Arch = sm_90, StorePath = 0). It claims the sm_90 loads and prefetches; a newer
// arch's case or a store / reduction is SKIP in a plain replay. With --arch, a case the top
// refuses by construction (a store, reduction or bulk copy / reduction to global memory) is
// compared with the verdict the model's order of checks gives such a top
// (sim::RtlBuildRefusal: the descriptor's verdicts, else `unsupported`), not skipped; a line
// counts them.
// The last line gives the simulated cycles per second three ways: of the wall time, of the
// process's CPU time (file reading and the C++ model's replay included), and of the CPU time
// spent in the harness's cycle loop alone (the Verilated model and the harness components).
// Exit: 0 all run cases pass, 1 a failure (or a skip with --fail-on-skip, or no case ran),
// 2 usage or file error.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "golden/rtl_engine.h"
#include "sim/rtl_support.h"
#include "sim/run_args.h"
#include "tma/case_runner.h"
#include "tma/encoder.h"

namespace {

namespace m = tma::model;

int Usage() {
  std::cerr << "usage: tma-rtl run FILE... [--filter REGEX] [-v|--verbose] [--junit FILE]\n"
               "                    [--fail-on-skip] [--sample N] [--shard K/N] [--limit CYCLES]\n"
               "                    [--data-bytes 16|32|64|128] [--max-case-bytes N]\n"
               "                    [--max-line-bytes N] [--arch NAME]\n"
               "                    [--atomic [--min-atomics N]] [--config load90]\n";
  return 2;
}

// --arch: every case under one arch, the RTL's verdict against the model's (see the header).
class ArchVerdictEngine : public m::CaseEngine {
 public:
  ArchVerdictEngine(tma::tb::RtlCaseEngine* rtl, std::string arch)
      : rtl_(rtl), arch_(std::move(arch)) {}
  std::string Name() const override { return "rtl"; }
  m::CaseOutcome Run(const m::GoldenCase& c, m::GlobalMemoryIf& global,
                     m::SharedMemoryIf& smem) override {
    m::GoldenCase a = c;
    a.arch = arch_;
    // The model on copies of the memories, then the RTL on the replay's own.
    auto* g = dynamic_cast<m::FlatGlobalMemory*>(&global);
    auto* s = dynamic_cast<m::FlatSharedMemory*>(&smem);
    m::FlatGlobalMemory g2 = *g;
    m::FlatSharedMemory s2 = *s;
    model_ = m::ModelEngine().Run(a, g2, s2);
    refusal_.reset();
    if (!tma::sim::RtlHostEncoderRefusal(a)) {
      refusal_ =
          tma::sim::RtlBuildRefusal(a, rtl_->build(), m::ParseArch(arch_).value_or(m::Arch::kSm90));
    }
    refused_ += refusal_.has_value();
    rtl_out_ = rtl_->Run(a, global, smem);
    return rtl_out_;
  }
  // Cases compared with the verdict of a top that refuses them (RtlBuildRefusal).
  int refused() const { return refused_; }
  // The verdicts of the last case: "" agree, else what differs; skip: the RTL did not run it.
  std::string Compare(bool* skip) const {
    if (refusal_) {
      *skip = !rtl_out_.supported;
      if (*skip || rtl_out_.status.cls == refusal_->cls) {
        return "";
      }
      return "verdict at " + arch_ + " of a top that refuses the case (" + refusal_->ToString() +
             "), rtl " +
             (rtl_out_.status.ok() ? std::string("success") : rtl_out_.status.ToString());
    }
    *skip = !rtl_out_.supported || (rtl_out_.status.cls == m::ErrorClass::kUnsupported &&
                                    model_.status.cls != m::ErrorClass::kUnsupported);
    if (*skip || !model_.supported || rtl_out_.status.cls == model_.status.cls) {
      return "";
    }
    return "verdict at " + arch_ + ": model " +
           (model_.status.ok() ? std::string("success") : model_.status.ToString()) + ", rtl " +
           (rtl_out_.status.ok() ? std::string("success") : rtl_out_.status.ToString());
  }

 private:
  tma::tb::RtlCaseEngine* rtl_;
  std::string arch_;
  m::CaseOutcome model_, rtl_out_;
  std::optional<m::Status> refusal_;
  int refused_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  // The replay options (sim/run_args.h) and this tool's: --data-bytes, --arch.
  const tma::sim::RunArgParser parser("tma-rtl");
  tma::sim::RunArgs args;
  args.limit = 200000;
  int data_bytes = 16;
  std::string arch;
  bool atomic = false;
  bool load90 = false;
  uint64_t min_atomics = 0;
  auto extra = [&](const std::string& name, const std::function<bool(std::string*)>& value) {
    std::string v;
    uint64_t n = 0;
    if (name == "--data-bytes") {
      if (!value(&v) || !parser.Number(name, v, 16, 128, &n) ||
          (n != 16 && n != 32 && n != 64 && n != 128)) {
        std::cerr << "tma-rtl run: --data-bytes is 16, 32, 64 or 128\n";
        return -1;
      }
      data_bytes = static_cast<int>(n);
      return 1;
    }
    if (name == "--config") {
      if (!value(&v) || v != "load90") {
        std::cerr << "tma-rtl run: --config is load90\n";
        return -1;
      }
      load90 = true;
      return 1;
    }
    if (name == "--atomic") {
      atomic = true;
      return 1;
    }
    if (name == "--min-atomics") {
      if (!value(&v) || !parser.Number(name, v, 0, 1ull << 40, &min_atomics)) {
        return -1;
      }
      return 1;
    }
    if (name == "--arch") {
      if (!value(&v) || !m::ParseArch(v)) {
        std::cerr << "tma-rtl run: --arch is sm_90, sm_100a or sm_103a\n";
        return -1;
      }
      arch = v;
      return 1;
    }
    return 0;
  };
  if (!parser.Parse(argc, argv, &args, extra)) {
    return Usage();
  }
  const std::vector<std::string>& files = args.files;
  m::RunOptions& opt = args.opt;
  const uint64_t limit = args.limit;

  if (atomic && load90) {
    std::cerr << "tma-rtl run: --atomic and --config load90 name different tops\n";
    return Usage();
  }
  const tma::sim::SimTopVariant variant = load90   ? tma::sim::SimTopVariant::kLoad90
                                          : atomic ? tma::sim::SimTopVariant::kAtomicReduce
                                                   : tma::sim::SimTopVariant::kDefault;
  tma::tb::RtlCaseEngine engine(data_bytes, variant);
  if (!engine.Ok()) {
    std::cerr << "tma-rtl run: no Verilated "
              << (load90   ? "load90 "
                  : atomic ? "atomic "
                           : "")
              << "top of DataBytes " << data_bytes << " in this build ("
              << (load90   ? "TMA_SIM_TOP_LOAD90_WIDTHS"
                  : atomic ? "TMA_SIM_TOP_ATOP_WIDTHS"
                           : "TMA_SIM_TOP_WIDTHS")
              << ")\n";
    return 2;
  }
  engine.set_case_limit(limit);
  // A replay that broke a pin-level rule (hang, write outside the window, ...) fails with the
  // engine's note, whatever the byte comparison said.
  std::vector<std::string> host_decided, on_ptx;  // case ids
  opt.after_case = [&](const m::GoldenCase& c, m::ReplayResult* r) {
    if (engine.last_host_decided()) {
      host_decided.push_back(c.id);
      r->details.insert(r->details.begin(),
                        "rtl: the host encoder's verdict (the map has no 128-byte encoding; no "
                        "descriptor reaches the engine)");
    }
    if (engine.last_ran_on_ptx() && r->verdict != m::Verdict::kSkip) {
      on_ptx.push_back(c.id);
      r->details.insert(r->details.begin(),
                        "rtl: ran on the PTX-readings top (StoreClipElem = 1, BulkSizeStrict = 1)");
    }
    // (a skipped case's notes count only when the RTL claims the case: sim::RtlClaims)
    if (engine.last_note().empty() || (r->verdict == m::Verdict::kSkip && !engine.last_claimed())) {
      return;
    }
    const std::string line = "rtl: " + engine.last_note();
    if (r->verdict != m::Verdict::kFail) {
      r->verdict = m::Verdict::kFail;
      r->reason = line;
    }
    r->details.insert(r->details.begin(), line);
  };
  ArchVerdictEngine verdicts(&engine, arch);
  int agree = 0, differ = 0;
  if (!arch.empty()) {
    // (rtl_notes by value: this block's local ends before the replay calls the hook)
    const auto rtl_notes = opt.after_case;
    opt.after_case = [&, rtl_notes](const m::GoldenCase& c, m::ReplayResult* r) {
      bool skip = false;
      const std::string diff = verdicts.Compare(&skip);
      if (skip) {
        r->verdict = m::Verdict::kSkip;
        if (r->reason.empty()) {
          r->reason = "rtl does not run this case at " + arch;
        }
        return;
      }
      r->details.clear();
      r->first_byte.reset();
      r->verdict = diff.empty() ? m::Verdict::kPass : m::Verdict::kFail;
      r->reason = diff;
      if (!diff.empty()) {
        r->details.push_back(diff);
      }
      ++(diff.empty() ? agree : differ);
      rtl_notes(c, r);  // a pin-level note still fails the case
    };
  }
  m::RunTotals totals;
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  const int rc = arch.empty()
                     ? m::RunCaseFiles(files, engine, opt, std::cout, std::cerr, &totals)
                     : m::RunCaseFiles(files, verdicts, opt, std::cout, std::cerr, &totals);
  if (!arch.empty()) {
    std::printf("rtl: verdicts at %s: %d agree with the model, %d differ\n", arch.c_str(), agree,
                differ);
    if (load90) {
      std::printf(
          "rtl: %d case(s) refused by the load90 top (no write direction), compared with "
          "the refusal's verdict\n",
          verdicts.refused());
    }
  }
  auto ids = [](const std::vector<std::string>& v) {
    std::string s;
    for (const std::string& id : v) {
      s += (s.empty() ? ": " : ", ") + id;
    }
    return s;
  };
  std::printf("rtl: %zu case(s) ran on the PTX-readings top%s\n", on_ptx.size(),
              ids(on_ptx).c_str());
  std::printf(
      "rtl: %zu case(s) decided by the host encoder (no 128-byte encoding: no engine runs "
      "them)%s\n",
      host_decided.size(), ids(host_decided).c_str());
  int result = rc;
  if (atomic) {
    std::printf("rtl: %llu AXI5 AtomicStore(s) executed by the write slave (AtomicReduce = 1)\n",
                static_cast<unsigned long long>(engine.atomics()));
    if (engine.atomics() < min_atomics) {
      std::printf("rtl: FAIL: fewer AtomicStores than --min-atomics %llu\n",
                  static_cast<unsigned long long>(min_atomics));
      result = result == 0 ? 1 : result;
    }
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  const double sim = engine.sim_seconds();
  const int ran = totals.pass + totals.fail + totals.skip;
  const double cyc = static_cast<double>(engine.cycles());
  std::printf(
      "rtl: %llu cycles in %.2f s (%.0f cycles/s, %.1f ms per case); DataBytes %d; "
      "cpu %.2f s (%.0f cycles/s), cycle loop %.2f s (%.0f cycles/s)\n",
      static_cast<unsigned long long>(engine.cycles()), wall, wall > 0 ? cyc / wall : 0.0,
      ran ? 1000.0 * wall / ran : 0.0, data_bytes, cpu, cpu > 0 ? cyc / cpu : 0.0, sim,
      sim > 0 ? cyc / sim : 0.0);
  return result;
}
