// SPDX-License-Identifier: Apache-2.0
//
// tma-tb: runs one bench test.
//   tma-tb --test=NAME [--seed=N] [--count=N] [--dut=rtl|model] [--data-bytes=16|32|64]
//          [--stub-bug] [--directed=LIST] [--ctas=N] [--arch=sm_90|sm_100a|sm_103a]
//          [--verbosity=low|medium|high|debug]
//          [--timeout-ns=N] [--waves=FILE]
//          [--list]
// --data-bytes picks the width of the DUT (the Verilated top of sim/tops.h, or the stand-in).
// --ctas is the cluster size (1..16: the shared windows, the DUT's cluster_i and the model's
// cluster), --arch the target architecture (the DUT's arch_i and the model's rules).
// Prints the report summary, a "TB-STATS ..." and a final "TB-RESULT ..." line; exits 0 on
// pass, 1 on any error. TMA_WAVES=<file> in the environment works like --waves.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include <systemc>

#include "agents/pattern_memory.h"
#include "agents/tma_items.h"
#include "stub/tma_behavioral_dut.h"
#include "tb_if.h"
#include "tma/encoder.h"
#include "tma/memory.h"
#include "uvm/uvm.h"
#ifdef TMA_TB_HAVE_RTL
#include "sim/tops.h"
#endif

namespace {
bool Arg(const std::string& a, const char* key, std::string* v) {
  std::string k = std::string("--") + key;
  if (a == k) {
    *v = "1";
    return true;
  }
  if (a.rfind(k + "=", 0) == 0) {
    *v = a.substr(k.size() + 1);
    return true;
  }
  return false;
}
}  // namespace

int sc_main(int argc, char** argv) {
  using namespace tma::tb;
  namespace uvm = tma::tb::uvm;
  std::string test = "smoke", dut_kind, verb = "low", waves, v, directed, arch_name = "sm_90";
  uint64_t seed = 1;
  int count = -1, ctas = 4, data_bytes = 16;
  bool stub_bug = false;
  uint64_t timeout_ns = 2'000'000;  // 2 M cycles: the longest default run needs ~0.2 M
#ifdef TMA_TB_HAVE_RTL
  dut_kind = "rtl";
#else
  dut_kind = "model";
#endif
  if (const char* w = std::getenv("TMA_WAVES")) {
    waves = w;
  }
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (Arg(a, "test", &v)) {
      test = v;
    } else if (Arg(a, "seed", &v)) {
      seed = std::stoull(v);
    } else if (Arg(a, "count", &v)) {
      count = std::stoi(v);
    } else if (Arg(a, "dut", &v)) {
      dut_kind = v;
    } else if (Arg(a, "data-bytes", &v)) {
      data_bytes = std::stoi(v);
    } else if (Arg(a, "stub-bug", &v)) {
      stub_bug = true;
    } else if (Arg(a, "directed", &v)) {
      directed = v;
    } else if (Arg(a, "ctas", &v)) {
      ctas = std::stoi(v);
    } else if (Arg(a, "arch", &v)) {
      arch_name = v;
    } else if (Arg(a, "verbosity", &v)) {
      verb = v;
    } else if (Arg(a, "timeout-ns", &v)) {
      timeout_ns = std::stoull(v);
    } else if (Arg(a, "waves", &v)) {
      waves = v;
    } else if (Arg(a, "list", &v)) {
      for (const auto& n : uvm::Factory::Get().ComponentNames()) {
        std::cout << n << "\n";
      }
      return 0;
    } else {
      std::cerr << "tma-tb: unknown argument " << a << "\n";
      return 2;
    }
  }
  auto& rs = uvm::ReportServer::Get();
  rs.SetVerbosity(verb == "debug"    ? uvm::kDebug
                  : verb == "high"   ? uvm::kHigh
                  : verb == "medium" ? uvm::kMedium
                                     : uvm::kLow);
  rs.SetMaxQuitCount(20);

  const std::optional<tma::model::Arch> arch = tma::model::ParseArch(arch_name);
  if (!arch) {
    std::cerr << "tma-tb: unknown --arch " << arch_name << "\n";
    return 2;
  }
  if (ctas < 1 || ctas > kNumCtas) {
    std::cerr << "tma-tb: --ctas must be 1.." << kNumCtas << "\n";
    return 2;
  }
  TmaIf vif;
  PatternMemory gmem(seed);
  tma::model::ClusterSharedMemory smem(ctas, 65536, 0xA5);
  std::unique_ptr<tma::sim::SimTop> dut;
  if (data_bytes != 16 && data_bytes != 32 && data_bytes != 64) {
    std::cerr << "tma-tb: --data-bytes must be 16, 32 or 64\n";
    return 2;
  }
  if (dut_kind == "model") {
    auto stub = std::make_unique<tma_behavioral_dut>(data_bytes);
    stub->bug_swizzle = stub_bug;
    dut = std::move(stub);
#ifdef TMA_TB_HAVE_RTL
  } else if (dut_kind == "rtl") {
    dut = tma::sim::MakeSimTop(data_bytes);
#endif
  }
  if (!dut) {
    std::cerr << "tma-tb: no DUT '" << dut_kind << "' in this build\n";
    return 2;
  }
  // The DUT judges at the bench's arch and cluster size (cluster_i 0 = 16 CTAs).
  dut->pins.arch = static_cast<uint8_t>(*arch);
  dut->pins.cluster = static_cast<uint8_t>(ctas & 15);
  dut->Settle();
  vif.dut = dut.get();
  std::string replay =
      std::string(argv[0]) + " --test=" + test + " --seed=" + std::to_string(seed) +
      " --dut=" + dut_kind + (count >= 0 ? " --count=" + std::to_string(count) : "") +
      (data_bytes != 16 ? " --data-bytes=" + std::to_string(data_bytes) : "") +
      (stub_bug ? " --stub-bug" : "") + (directed.empty() ? "" : " --directed=" + directed) +
      " --ctas=" + std::to_string(ctas) + (arch_name != "sm_90" ? " --arch=" + arch_name : "");
  auto& db = uvm::ConfigDb::Get();
  db.Set<TmaIf*>("*", "vif", &vif);
  db.Set<PatternMemory*>("*", "gmem", &gmem);
  db.Set<tma::model::ClusterSharedMemory*>("*", "smem", &smem);
  db.Set<uint64_t>("uvm_test_top*", "seed", seed);
  db.Set<int>("*", "data_bytes", data_bytes);
  db.Set<int>("*", "arch", static_cast<int>(*arch));
  db.Set<bool>("*", "dut_claims", dut_kind == "rtl");  // the RTL's claims (skip policy)
  db.Set<std::string>("uvm_test_top*", "replay_cmd", replay);
  if (count >= 0) {
    db.Set<int>("uvm_test_top*", "count", count);
  }
  if (!directed.empty()) {
    db.Set<std::string>("uvm_test_top*", "directed_list", directed);
  }
  uvm::Root::Get().SetTimeout(sc_core::sc_time(static_cast<double>(timeout_ns), sc_core::SC_NS));

  if (!waves.empty() && !dut->OpenTrace(waves)) {
    std::cerr << "tma-tb: waves need the RTL built with -DTMA_WAVES=ON (ignored)\n";
    waves.clear();
  }
  std::cout << "tma-tb: test " << test << " seed " << seed << " dut " << dut_kind << "\n";
  auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  int rc = uvm::Root::Get().RunTest(test);
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // TMA_COVERAGE=ON build: the RTL's coverage for tools/regress --coverage.
  if (const char* f = std::getenv("TMA_COV_DAT")) {
    dut->WriteCoverage(f);
  }
  dut->Final();
  if (!waves.empty()) {
    dut.reset();  // closes the trace
    std::cout << "tma-tb: waves in " << waves << "\n";
  }
  uint64_t cycles = Cycle();
  const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  std::printf(
      "TB-RESULT test=%s seed=%llu dut=%s status=%s cycles=%llu wall_s=%.3f cps=%.0f "
      "cpu_s=%.3f cpu_cps=%.0f\n",
      test.c_str(), static_cast<unsigned long long>(seed), dut_kind.c_str(),
      rc == 0 ? "PASS" : "FAIL", static_cast<unsigned long long>(cycles), wall,
      wall > 0 ? cycles / wall : 0.0, cpu, cpu > 0 ? cycles / cpu : 0.0);
  if (rc != 0) {
    std::printf("TB-REPLAY %s\n", replay.c_str());
  }
  std::fflush(stdout);
  return rc;
}
