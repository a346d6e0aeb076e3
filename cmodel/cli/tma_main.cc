// SPDX-License-Identifier: Apache-2.0
//
// `tma`: the command-line face of the OpenTMA reference model.
//   tma run FILE...   replay golden cases (*.jsonl / *.jsonl.gz) and report pass/fail/skip
//   tma exec ...      run one tensor instruction on a tensor map given as JSON, show the result
//   tma version       print the version
// Run `tma --help` or `tma <command> --help` for the options.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "tma/case_runner.h"
#include "tma/golden.h"
#include "tma/golden_replay.h"
#include "tma/mbarrier.h"
#include "tma/ptx.h"
#include "tma/swizzle.h"
#include "tma/tensor_copy.h"
#include "tma/traversal.h"

namespace tma::model {
namespace {

// Keep in step with project(opentma VERSION ...) in the top-level CMakeLists.txt.
constexpr const char* kVersion = "0.1.0";

// ---- Engines ----------------------------------------------------------------------------------
// Every engine `tma run --engine NAME` can replay cases on. In-process engines derive from
// CaseEngine (golden_replay.h) and are constructed here. "rtl" is the Verilated RTL: `tma` is
// built without Verilator, so that engine lives in the `tma-rtl` executable (tb/golden/),
// which prints the same report with the same exit codes; `tma run --engine rtl` hands over to it.
const char* const kEngineNames[] = {"model", "rtl", "soc", "board"};

std::unique_ptr<CaseEngine> MakeEngine(const std::string& name) {
  if (name == "model") {
    return std::make_unique<ModelEngine>();
  }
  return nullptr;
}

// ---- tma run
// -------------------------------------------------------------------------------------
struct RunArgs {
  std::vector<std::string> files;
  std::string engine = "model";
  std::string filter;
  bool verbose = false;
  std::string junit;
  bool fail_on_skip = false;
  std::string shard;  // K/N: the cases whose index in their file is K mod N
  GoldenLimits limits;
  std::string link;         // --engine board: uart:PATH[@BAUD]
  std::string board_build;  // --engine board: default or load90 (tma-board --build)
};

// The folder of this executable (its sibling tools live there).
std::string SelfDir() {
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n <= 0) {
    return ".";
  }
  self[n] = 0;
  const std::string path(self);
  return path.substr(0, path.find_last_of('/'));
}

// Replaces this process by args[0] with args; returns only when that fails.
void ExecProgram(std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (std::string& s : args) {
    argv.push_back(s.data());
  }
  argv.push_back(nullptr);
  execv(args[0].c_str(), argv.data());
}

// `tma run --engine rtl|soc|board ...`: replace this process by `tma-rtl run ...` (the
// Verilated engine), `tma-soc run ...` (the Verilated SoC top driven through its registers,
// sim/soc/) or `tma-board run ... --link SPEC` (the ULX3S board top over its UART, the board or
// its Verilated model; boards/ulx3s/) from the same folder.
int ExecRtlEngine(const RunArgs& a) {
  const std::string dir = SelfDir();
  const std::string rtl = dir + (a.engine == "soc"     ? "/tma-soc"
                                 : a.engine == "board" ? "/tma-board"
                                                       : "/tma-rtl");
  std::vector<std::string> args = {rtl, "run"};
  args.insert(args.end(), a.files.begin(), a.files.end());
  if (!a.link.empty()) {
    args.insert(args.end(), {"--link", a.link});
  }
  if (!a.board_build.empty()) {
    args.insert(args.end(), {"--build", a.board_build});
  }
  if (!a.filter.empty()) {
    args.insert(args.end(), {"--filter", a.filter});
  }
  if (a.verbose) {
    args.push_back("--verbose");
  }
  if (!a.junit.empty()) {
    args.insert(args.end(), {"--junit", a.junit});
  }
  if (a.fail_on_skip) {
    args.push_back("--fail-on-skip");
  }
  if (!a.shard.empty()) {
    args.insert(args.end(), {"--shard", a.shard});
  }
  const GoldenLimits dflt;
  if (a.limits.max_case_bytes != dflt.max_case_bytes) {
    args.insert(args.end(), {"--max-case-bytes", std::to_string(a.limits.max_case_bytes)});
  }
  if (a.limits.max_line_bytes != dflt.max_line_bytes) {
    args.insert(args.end(), {"--max-line-bytes", std::to_string(a.limits.max_line_bytes)});
  }
  ExecProgram(args);
  std::cerr << "tma run: --engine " << a.engine << " needs " << rtl
            << " (build with -DTMA_BUILD_TB=ON and the RTL; tools/test builds it)\n";
  return 2;
}

// `tma cosim ...`: replace this process by `tma-cosim ...` from the same folder (the
// co-simulation trace host, cosim/host; docs/cosim/abi.md).
int ExecCosim(const std::vector<std::string>& rest) {
  const std::string dir = SelfDir();
  std::vector<std::string> args = {dir + "/tma-cosim"};
  args.insert(args.end(), rest.begin(), rest.end());
  ExecProgram(args);
  std::cerr << "tma cosim: needs " << args[0] << " (cmake --build build --target tma-cosim)\n";
  return 2;
}

int CmdRun(const RunArgs& a) {
  if (a.engine == "rtl" || a.engine == "soc" || a.engine == "board") {
    return ExecRtlEngine(a);
  }
  std::unique_ptr<CaseEngine> engine = MakeEngine(a.engine);
  if (!engine) {
    std::cerr << "tma run: unknown engine \"" << a.engine << "\" (available:";
    for (const char* n : kEngineNames) {
      std::cerr << " " << n;
    }
    std::cerr << ")\n";
    return 2;
  }
  RunOptions opt;
  opt.filter = a.filter;
  opt.verbose = a.verbose;
  opt.junit = a.junit;
  opt.fail_on_skip = a.fail_on_skip;
  std::string error;
  if (!a.shard.empty() && !ParseShard(a.shard, &opt, &error)) {
    std::cerr << "tma run: " << error << "\n";
    return 2;
  }
  opt.limits = a.limits;
  return RunCaseFiles(a.files, *engine, opt, std::cout, std::cerr);
}

// ---- tma exec
// ------------------------------------------------------------------------------------
struct ExecArgs {
  std::string map_file;
  std::vector<int64_t> coords;
  std::vector<int64_t> im2col;
  std::string op = "load";
  std::string redop = "add";
  std::string mode = "tile";
  std::string arch = "sm_90";
  int64_t smem_bytes = -1;
  int64_t dst = 0;
  int64_t global_bytes = -1;
  int64_t global_offset = 0;
  std::string global_fill = "splitmix64:1";
  std::string smem_fill = "const:165";
  int ctas = 0;  // 0: 1, or with --ptx just enough for the CTAs the instruction names
  int issuer = 0;
  int64_t mask = -1;
  int dst_cta = -1;
  bool log_effects = false;
  bool element_clip = false;
  // --ptx: the instruction as PTX text, its register values and the cluster address map.
  std::string ptx;
  std::vector<std::string> set;
  int64_t window = 0;
  int64_t expect_tx = -1;
  GoldenLimits limits;
  // Filled from the PTX instruction (not options).
  std::string ptx_arch_note;
  int cta_group = 0;
  int mbar_cta = -1;
  int64_t mbar = -1;
  bool smem_cta = false;
};

bool ParseFillSpec(const std::string& s, GoldenFill* f) {
  size_t colon = s.find(':');
  if (colon == std::string::npos) {
    return false;
  }
  std::string kind = s.substr(0, colon);
  uint64_t v = 0;
  try {
    v = std::stoull(s.substr(colon + 1), nullptr, 0);
  } catch (...) {
    return false;
  }
  if (kind == "splitmix64" || kind == "values") {
    f->kind = kind == "values" ? GoldenFill::Kind::kValues : GoldenFill::Kind::kSplitmix64;
    f->seed = v;
    return true;
  }
  if (kind == "const" && v <= 255) {
    f->kind = GoldenFill::Kind::kConst;
    f->value = static_cast<uint32_t>(v);
    return true;
  }
  return false;
}

void HexDump(const std::vector<uint8_t>& b, uint64_t from, uint64_t to, const char* label) {
  to = std::min<uint64_t>(to, b.size());
  for (uint64_t row = from & ~15ull; row < to; row += 16) {
    std::printf("%s %06llx:", label, static_cast<unsigned long long>(row));
    for (uint64_t i = row; i < row + 16 && i < b.size(); ++i) {
      std::printf("%s%02x", (i % 16 == 8) ? "  " : " ", b[i]);
    }
    std::printf("\n");
  }
}

std::string Coords(const std::array<int64_t, kMaxRank>& a, int n) {
  std::string s = "(";
  for (int i = 0; i < n; ++i) {
    s += (i ? "," : "") + std::to_string(a[static_cast<size_t>(i)]);
  }
  return s + ")";
}

// The mbarriers the complete-tx events land on: each is initialised with count 1 and armed
// with arrive.expect_tx(N), N = --expect-tx, or by default the bytes the events send it (what a
// kernel that knows the box would arm it with); then the events are applied and the state shown.
void ShowMbarriers(const std::vector<CompleteTx>& events, int ctas, int64_t expect_tx) {
  if (events.empty()) {
    return;
  }
  std::map<std::pair<int, uint32_t>, int64_t> sent;
  for (const CompleteTx& t : events) {
    sent[{t.cta, t.mbar_addr}] += t.bytes;
  }
  ClusterMbarriers bars(ctas);
  for (const auto& [where, bytes] : sent) {
    MbarStatus st = bars.Init(where.first, where.second, 1);
    if (st.ok()) {
      st = bars.Find(where.first, where.second)
               ->ArriveExpectTx(expect_tx >= 0 ? expect_tx : bytes)
               .status;
    }
    if (!st.ok()) {
      std::printf("mbarrier CTA %d +%u: %s\n", where.first, where.second, st.ToString().c_str());
      return;
    }
  }
  MbarStatus st = bars.ApplyAll(events);
  if (!st.ok()) {
    std::printf("mbarrier: applying the complete-tx events failed: %s\n", st.ToString().c_str());
  }
  for (const auto& [where, bytes] : sent) {
    const Mbarrier* b = bars.Find(where.first, where.second);
    std::printf(
        "mbarrier CTA %d +%u: init(1), arrive.expect_tx(%lld), complete-tx %lld bytes -> "
        "phase %llu (%s), pending %lld/%lld, tx-count %lld\n",
        where.first, where.second, static_cast<long long>(expect_tx >= 0 ? expect_tx : bytes),
        static_cast<long long>(bytes), static_cast<unsigned long long>(b->phase()),
        b->phase() > 0 ? "phase 0 completed" : "phase 0 not completed",
        static_cast<long long>(b->pending()), static_cast<long long>(b->expected()),
        static_cast<long long>(b->tx_count()));
  }
  for (const std::string& d : bars.DiagnoseAll()) {
    std::printf("mbarrier stuck: %s\n", d.c_str());
  }
}

int CmdExec(const ExecArgs& a) {
  // The map: a JSON file holding the golden `tensor` object, or an object with a "tensor" key
  // (a golden case works). Optional "global_offset" / "global_bytes" place the buffer.
  std::ifstream in(a.map_file);
  if (!in) {
    std::cerr << "tma exec: cannot open " << a.map_file << "\n";
    return 2;
  }
  nlohmann::json j;
  try {
    in >> j;
  } catch (const nlohmann::json::exception& e) {
    std::cerr << "tma exec: " << a.map_file << ": not JSON: " << e.what() << "\n";
    return 2;
  }
  if (!ParseArch(a.arch)) {
    std::cerr << "tma exec: unknown --arch \"" << a.arch << "\" (sm_90, sm_90a, sm_100a, ...)\n";
    return 2;
  }
  nlohmann::json tensor = j.contains("tensor") ? j["tensor"] : j;
  // Build a golden case around it and let the normal parser check everything.
  nlohmann::json cj = nlohmann::json::object();
  cj["id"] = "exec";
  cj["op"] = a.op;
  if (a.op == "reduce") {
    cj["redop"] = a.redop;
  }
  cj["mode"] = a.mode;
  cj["tensor"] = tensor;
  cj["coords"] = a.coords;
  cj["im2col"] = a.im2col;
  cj["global"] = {{"bytes", 0}, {"offset", 0}, {"fill", "const"}, {"value", 0}};
  cj["smem"] = {{"bytes", 0}, {"dst", a.dst}, {"fill", "const"}, {"value", 0}};
  cj["expect"] = nlohmann::json::object();
  cj["arch"] = a.arch;
  // --ctas 0 ("auto"): just enough for the issuer, the destination and the mask's CTAs.
  int ctas = a.ctas;
  if (ctas <= 0) {
    ctas = std::max({1, a.issuer + 1, a.dst_cta + 1, a.mbar_cta + 1});
    for (int i = 0; i < kMaxCtas && a.mask > 0; ++i) {
      ctas = (a.mask >> i) & 1 ? std::max(ctas, i + 1) : ctas;
    }
  }
  if (ctas > 1 || a.mask >= 0) {
    cj["cluster"] = {{"ctas", ctas}, {"issuer", a.issuer}};
    if (a.mask >= 0) {
      cj["cluster"]["cta_mask"] = a.mask;
    }
  }
  if (a.dst_cta >= 0) {
    cj["dst_cta"] = a.dst_cta;
  }
  if (a.cta_group != 0 || a.mbar_cta >= 0) {
    if (!cj.contains("cluster")) {
      cj["cluster"] = {{"ctas", ctas}, {"issuer", a.issuer}};
    }
    if (a.cta_group != 0) {
      cj["cluster"]["cta_group"] = a.cta_group;
    }
    if (a.mbar_cta >= 0) {
      cj["cluster"]["mbar_cta"] = a.mbar_cta;
    }
  }
  if (a.mbar >= 0) {
    cj["mbar"] = a.mbar;
  }
  if (a.smem_cta) {
    cj["smem_space"] = "cta";
  }
  if (!a.ptx.empty()) {
    cj["ptx"] = a.ptx;
  }
  if (a.element_clip) {
    cj["store_clip"] = "element";
  }
  GoldenCase c;
  std::string err;
  if (!ParseGoldenCase(cj, &c, &err)) {
    std::cerr << "tma exec: " << err << "\n";
    return 2;
  }
  if (!ParseFillSpec(a.global_fill, &c.global.fill) || !ParseFillSpec(a.smem_fill, &c.smem->fill)) {
    std::cerr << "tma exec: a fill is KIND:N with KIND splitmix64, values or const\n";
    return 2;
  }
  TensorMap map;
  Status st = CaseTensorMap(c, kGoldenGlobalBase, &map);
  TensorInstr ins = CaseInstr(c);
  TraversalPlan plan;
  if (st.ok()) {
    plan = PlanTraversal(map, ins);
  }
  // Buffer sizes: given, or large enough for the tensor and the box.
  const uint64_t esize = static_cast<uint64_t>(ElementBytes(map.dtype));
  uint64_t gbytes = map.dims[0] * esize;
  if (map.rank > 1) {
    gbytes = std::max(gbytes, map.dims[static_cast<size_t>(map.rank - 1)] *
                                  map.strides[static_cast<size_t>(map.rank - 2)]);
  }
  // Every size is checked against the limits (golden.h) before anything is allocated; a
  // tensor or a box too large for them is an input error, not an attempt.
  const uint64_t lim = a.limits.max_case_bytes;
  auto too_big = [&](const char* what, uint64_t v) {
    std::cerr << "tma exec: " << what << " of " << v << " bytes is more than the limit of " << lim
              << " (--max-case-bytes raises it)\n";
    return 2;
  };
  c.global.offset = static_cast<uint64_t>(a.global_offset);
  if (a.global_bytes < 0 && (gbytes > lim || c.global.offset > lim - gbytes)) {
    return too_big("the tensor's global buffer", std::max(gbytes, c.global.offset));
  }
  c.global.bytes = a.global_bytes >= 0 ? static_cast<uint64_t>(a.global_bytes)
                                       : ((gbytes + c.global.offset + 255) & ~255ull);
  const uint64_t footprint = plan.ok ? plan.num_rows * plan.row_pitch : 0;
  const uint64_t window =
      a.window > 0        ? static_cast<uint64_t>(a.window)
      : a.smem_bytes >= 0 ? static_cast<uint64_t>(a.smem_bytes)
      : footprint > lim
          ? footprint
          : std::max<uint64_t>(128, (static_cast<uint64_t>(a.dst) + footprint + 127) & ~127ull);
  if (window > lim) {
    return too_big("the shared window", window);
  }
  c.smem->bytes = static_cast<uint32_t>(window);
  if (!CheckGoldenLimits(c, a.limits, &err)) {
    std::cerr << "tma exec: " << err << "\n";
    return 2;
  }
  st = CaseTensorMap(c, kGoldenGlobalBase, &map);
  std::vector<uint8_t> g0, s0;
  if (!GenerateFill(c.global.fill, map.dtype, c.global.bytes, &g0, &err) ||
      !GenerateFill(c.smem->fill, map.dtype, c.smem->bytes, &s0, &err)) {
    std::cerr << "tma exec: " << err << "\n";
    return 2;
  }
  FlatGlobalMemory global(kGoldenGlobalBase, g0);
  FlatSharedMemory smem(c.NumCtas(), s0);
  std::printf("instruction: %s %s, %dd, coords", ToString(c.op), ToString(c.mode), ins.dim);
  for (int32_t v : c.coords) {
    std::printf(" %d", v);
  }
  std::printf(
      "; global buffer %llu B at 0x%llx (tensor at +%llu); smem window %u B x %d CTA(s), "
      "%s at %u\n",
      static_cast<unsigned long long>(c.global.bytes),
      static_cast<unsigned long long>(kGoldenGlobalBase),
      static_cast<unsigned long long>(c.global.offset), c.smem->bytes, c.NumCtas(),
      c.op == Op::kLoad ? "dstMem" : (c.op == Op::kPrefetch ? "unused; offset" : "srcMem"),
      c.smem->dst);
  ModelEngine engine;
  if (a.log_effects) {
    engine.set_on_effect(
        [](const Effect& e) { std::printf("effect: %s\n", e.ToString().c_str()); });
  }
  CaseOutcome out = engine.Run(c, global, smem);
  if (!out.status.ok()) {
    std::printf("result: %s\n", out.status.ToString().c_str());
    return 1;
  }
  std::printf("result: ok\n");
  for (const CompleteTx& t : out.complete_tx) {
    std::printf("complete_tx: CTA %d mbarrier +%u: %u bytes\n", t.cta, t.mbar_addr, t.bytes);
  }
  ShowMbarriers(out.complete_tx, c.NumCtas(), a.expect_tx);
  if (c.op == Op::kLoad) {
    for (int cta : DestinationCtas(c)) {
      std::printf("-- shared window of CTA %d, bytes %u..%llu --\n", cta, c.smem->dst,
                  static_cast<unsigned long long>(c.smem->dst + footprint));
      HexDump(smem.window(cta), c.smem->dst, c.smem->dst + footprint, "smem");
    }
  } else if (c.op != Op::kPrefetch) {
    std::printf("-- global bytes that changed (buffer offsets) --\n");
    const std::vector<uint8_t>& g = global.bytes();
    for (size_t i = 0; i < g.size(); ++i) {
      if (g[i] != g0[i]) {
        size_t k = i;
        while (k < g.size() && g[k] != g0[k]) {
          ++k;
        }
        std::printf("global +%zu: %s\n", i, ToHex(g.data() + i, k - i).c_str());
        i = k;
      }
    }
  }
  // The box, one row per line with the element values, for small boxes.
  if (plan.ok && c.op != Op::kPrefetch && plan.num_rows <= 64 && plan.units <= 32) {
    const std::vector<int> dests = DestinationCtas(c);
    const int cta = c.op != Op::kLoad ? c.Issuer() : dests.empty() ? -1 : dests.front();
    if (cta < 0 || cta >= c.NumCtas()) {
      return 0;
    }
    const std::vector<uint8_t>& w = smem.window(cta);
    std::printf(
        "-- box view (%s, CTA %d): row: tensor coords of the row's first element: "
        "values --\n",
        c.op == Op::kLoad ? "destination" : "source", cta);
    ForEachRow(map, ins, plan, [&](const RowVisit& r) {
      std::printf("row %3llu %-22s %s:", static_cast<unsigned long long>(r.index),
                  Coords(r.coords, map.rank).c_str(), r.row_oob ? "OOB" : "   ");
      for (uint32_t u = 0; u < plan.units; ++u) {
        std::printf(" ");
        for (uint32_t b = plan.layout.unit_sbytes; b-- > 0;) {  // little-endian value
          uint32_t off = SwizzleAddress(
              c.smem->dst + r.smem_offset + u * plan.layout.unit_sbytes + b, map.swizzle);
          std::printf("%02x", off < w.size() ? w[off] : 0);
        }
      }
      std::printf("\n");
    });
  }
  return 0;
}

// ---- tma exec --ptx
// ----------------------------------------------------------------------------
// --set NAME=VALUE[,NAME=VALUE...]: decimal, 0x hex or negative values.
bool ParseSets(const std::vector<std::string>& sets, std::map<std::string, int64_t>* out,
               std::string* err) {
  for (const std::string& kv : sets) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) {
      *err = "--set wants NAME=VALUE (got \"" + kv + "\")";
      return false;
    }
    try {
      size_t used = 0;
      const std::string v = kv.substr(eq + 1);
      const int64_t value = std::stoll(v, &used, 0);
      if (used != v.size()) {
        throw std::invalid_argument(v);
      }
      // PTX registers are spelled with '%'; "r2=8" binds both r2 and %r2.
      const std::string name = kv.substr(0, eq);
      (*out)[name] = value;
      if (name[0] != '%') {
        (*out)["%" + name] = value;
      }
    } catch (...) {
      *err = "--set " + kv + ": the value is not an integer";
      return false;
    }
  }
  return true;
}

int HighestBit(uint32_t mask) {
  int h = -1;
  for (int i = 0; i < 32; ++i) {
    if ((mask >> i) & 1u) {
      h = i;
    }
  }
  return h;
}

// The non-tensor forms: cp.async.bulk, cp.reduce.async.bulk, cp.async.bulk.prefetch. Global
// addresses are absolute; the buffer is --global-bytes (default 64 KiB) at kGoldenGlobalBase.
int CmdExecBulk(const ExecArgs& a, const PtxInstr& pi, const PtxBindings& b, Target target) {
  GoldenFill gf, sf;
  if (!ParseFillSpec(a.global_fill, &gf) || !ParseFillSpec(a.smem_fill, &sf)) {
    std::cerr << "tma exec: a fill is KIND:N with KIND splitmix64, values or const\n";
    return 2;
  }
  const uint64_t gbytes = a.global_bytes >= 0 ? static_cast<uint64_t>(a.global_bytes) : 65536;
  // What the instruction touches, for sizing the cluster and the windows.
  int need_ctas = std::max(1, b.issuer_cta + 1);
  uint64_t need_window = 1024;
  std::vector<int> dst_ctas;  // shared destinations
  bool global_dst = false;
  uint64_t dst = 0;
  uint32_t size = 0;
  BulkCopyInstr copy;
  BulkReduceInstr red;
  BulkPrefetchInstr pre;
  Status st;
  if (pi.opcode == PtxOpcode::kBulk) {
    BulkCopyConversion cv = ToBulkCopyInstr(pi, b, target);
    st = cv.status;
    copy = cv.instr;
    size = copy.size;
    dst = copy.dst;
    global_dst = copy.dir == BulkDir::kSharedCtaToGlobal;
    if (copy.multicast) {
      for (int i = 0; i < kMaxCtas; ++i) {
        if ((copy.cta_mask >> i) & 1u) {
          dst_ctas.push_back(i);
        }
      }
    } else if (!global_dst) {
      dst_ctas.push_back(copy.dst_cta >= 0 ? copy.dst_cta : copy.issuer_cta);
    }
    if (copy.dir != BulkDir::kGlobalToSharedCta && copy.dir != BulkDir::kGlobalToSharedCluster) {
      need_window = std::max<uint64_t>(need_window, copy.src + copy.size);
    }
    if (!global_dst) {
      need_window = std::max<uint64_t>(need_window, copy.dst + copy.size);
      need_window = std::max<uint64_t>(need_window, copy.mbar_addr + 8ull);
    }
  } else if (pi.opcode == PtxOpcode::kReduceBulk) {
    BulkReduceConversion cv = ToBulkReduceInstr(pi, b, target);
    st = cv.status;
    red = cv.instr;
    size = red.size;
    dst = red.dst;
    global_dst = red.dir == BulkDir::kSharedCtaToGlobal;
    if (!global_dst) {
      dst_ctas.push_back(red.dst_cta >= 0 ? red.dst_cta : red.issuer_cta);
      need_window = std::max<uint64_t>(need_window, red.dst + red.size);
      need_window = std::max<uint64_t>(need_window, red.mbar_addr + 8ull);
    }
    need_window = std::max<uint64_t>(need_window, red.src + red.size);
  } else {
    BulkPrefetchConversion cv = ToBulkPrefetchInstr(pi, b, target);
    st = cv.status;
    pre = cv.instr;
  }
  if (!st.ok()) {
    std::printf("result: %s\n", st.ToString().c_str());
    return 1;
  }
  for (int c : dst_ctas) {
    need_ctas = std::max(need_ctas, c + 1);
  }
  const int ctas = a.ctas > 0 ? a.ctas : need_ctas;
  if (ctas > kMaxCtas) {
    std::printf(
        "result: invalid_instruction: the instruction names CTA %d, outside a cluster "
        "of at most %d CTAs\n",
        ctas - 1, kMaxCtas);
    return 1;
  }
  // The window is sized from the instruction's addresses: checked before it is allocated.
  const uint64_t lim = a.limits.max_case_bytes;
  const uint64_t want_window = a.window > 0        ? static_cast<uint64_t>(a.window)
                               : a.smem_bytes >= 0 ? static_cast<uint64_t>(a.smem_bytes)
                                                   : (need_window + 127) / 128 * 128;
  if (gbytes > lim || want_window > (lim - gbytes) / static_cast<uint64_t>(ctas)) {
    std::cerr << "tma exec: " << gbytes << " global bytes + " << ctas << " shared windows of "
              << want_window << " bytes are more than the limit of " << lim
              << " bytes (--max-case-bytes raises it; the window is sized from the "
                 "instruction's shared addresses unless --window / --smem-bytes gives it)\n";
    return 2;
  }
  const uint32_t window = static_cast<uint32_t>(want_window);
  std::vector<uint8_t> g0, s0;
  std::string err;
  if (!GenerateFill(gf, DType::kU8, gbytes, &g0, &err) ||
      !GenerateFill(sf, DType::kU8, window, &s0, &err)) {
    std::cerr << "tma exec: " << err << " (the bulk forms fill bytes: splitmix64 or const)\n";
    return 2;
  }
  FlatGlobalMemory global(kGoldenGlobalBase, g0);
  FlatSharedMemory smem(ctas, s0);
  std::printf(
      "memory: global buffer %llu B at 0x%llx; shared window %u B x %d CTA(s), issuer CTA %d\n",
      static_cast<unsigned long long>(gbytes), static_cast<unsigned long long>(kGoldenGlobalBase),
      window, ctas, b.issuer_cta);
  BulkResult r = pi.opcode == PtxOpcode::kBulk         ? ExecuteBulkCopy(copy, global, smem)
                 : pi.opcode == PtxOpcode::kReduceBulk ? ExecuteBulkReduce(red, global, smem)
                                                       : ExecuteBulkPrefetch(pre);
  if (!r.status.ok()) {
    std::printf("result: %s\n", r.status.ToString().c_str());
    return 1;
  }
  std::printf("result: ok%s\n", pi.opcode == PtxOpcode::kPrefetch
                                    ? " (a hint: nothing moves, nothing is signalled)"
                                : r.bulk_group ? " (completion: the issuer's bulk async-group)"
                                               : "");
  for (const CompleteTx& t : r.complete_tx) {
    std::printf("complete_tx: CTA %d mbarrier +%u: %u bytes\n", t.cta, t.mbar_addr, t.bytes);
  }
  ShowMbarriers(r.complete_tx, ctas, a.expect_tx);
  for (int c : dst_ctas) {
    std::printf("-- shared window of CTA %d, bytes %llu..%llu --\n", c,
                static_cast<unsigned long long>(dst), static_cast<unsigned long long>(dst + size));
    HexDump(smem.window(c), dst, dst + size, "smem");
  }
  if (global_dst) {
    std::printf("-- global bytes that changed (buffer offsets) --\n");
    const std::vector<uint8_t>& g = global.bytes();
    for (size_t i = 0; i < g.size(); ++i) {
      if (g[i] != g0[i]) {
        size_t k = i;
        while (k < g.size() && g[k] != g0[k]) {
          ++k;
        }
        std::printf("global +%zu: %s\n", i, ToHex(g.data() + i, k - i).c_str());
        i = k;
      }
    }
  }
  return 0;
}

// Parse -> Check(target of --arch) -> convert with the --set values -> execute on the model.
int CmdExecPtx(ExecArgs a) {
  const std::optional<Arch> arch = ParseArch(a.arch);
  if (!arch) {
    std::cerr << "tma exec: unknown --arch \"" << a.arch << "\" (sm_90, sm_90a, sm_100a, ...)\n";
    return 2;
  }
  const Target target = *arch == Arch::kSm90 ? Target::kSm90a : Target::kSm100a;
  PtxBindings b;
  std::string err;
  if (!ParseSets(a.set, &b.values, &err)) {
    std::cerr << "tma exec: " << err << "\n";
    return 2;
  }
  b.issuer_cta = a.issuer;
  b.cluster_window_bytes = static_cast<uint32_t>(std::max<int64_t>(a.window, 0));
  PtxParseResult p = Parse(a.ptx);
  if (!p.ok()) {
    std::printf("ptx: %s\n", p.status.ToString().c_str());
    return 1;
  }
  std::printf("ptx: %s\n", Print(p.instr).c_str());
  const Status legal = Check(p.instr, target);
  std::printf("check (%s): %s\n", ToString(target),
              legal.ok() ? "legal" : legal.ToString().c_str());
  if (!legal.ok()) {
    return 1;
  }
  switch (p.instr.opcode) {
    case PtxOpcode::kBulkTensor:
    case PtxOpcode::kReduceBulkTensor:
    case PtxOpcode::kPrefetchTensor:
      break;
    case PtxOpcode::kBulk:
    case PtxOpcode::kReduceBulk:
    case PtxOpcode::kPrefetch:
      return CmdExecBulk(a, p.instr, b, target);
    default:
      std::cerr << "tma exec: " << ToString(p.instr.opcode)
                << " moves no data; tma exec runs the cp{.reduce}.async.bulk{.prefetch}{.tensor} "
                   "forms\n";
      return 2;
  }
  if (a.map_file.empty()) {
    std::cerr << "tma exec: a tensor instruction needs --map (the tensor map as JSON)\n";
    return 2;
  }
  TensorConversion tc = ToTensorInstr(p.instr, b, target);
  if (!tc.status.ok()) {
    std::printf("result: %s\n", tc.status.ToString().c_str());
    return 1;
  }
  const TensorInstr& t = tc.instr;
  a.op = ToString(t.op);
  a.redop = ToString(t.redop);
  a.mode = ToString(t.mode);
  a.coords.assign(t.coords.begin(), t.coords.end());
  a.im2col.assign(t.im2col_info.begin(), t.im2col_info.end());
  a.dst = t.smem_addr;
  a.mask = t.multicast ? t.cta_mask : -1;
  a.dst_cta = t.op == Op::kLoad ? t.dst_cta : -1;
  a.cta_group = t.cta_group;
  a.mbar_cta = t.mbar_cta;
  a.mbar = t.op == Op::kLoad ? static_cast<int64_t>(t.mbar_addr) : -1;
  a.smem_cta = t.smem_space == SmemSpace::kSharedCta && t.op == Op::kLoad;
  if (a.ctas <= 0) {  // just big enough for every CTA the instruction names
    int need = std::max({1, a.issuer + 1, a.dst_cta + 1, a.mbar_cta + 1});
    if (t.multicast) {
      need = std::max(need, HighestBit(t.cta_mask) + 1);
    }
    if (t.cta_group == 2) {  // room for the peer of every destination
      need = std::max(need, std::max(a.dst_cta, HighestBit(t.cta_mask)) / 2 * 2 + 2);
      need = std::min(need, kMaxCtas);
    }
    a.ctas = need;
  }
  return CmdExec(a);
}

// --max-case-bytes (and for `tma run` --max-line-bytes): the limits of golden.h.
void AddLimitOptions(CLI::App* cmd, GoldenLimits* l, bool line) {
  cmd->add_option("--max-case-bytes", l->max_case_bytes,
                  "Most bytes of memory one case may declare or size (global + CTAs x shared "
                  "window; default " +
                      std::to_string(l->max_case_bytes) + ")")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40));
  if (line) {
    cmd->add_option(
           "--max-line-bytes", l->max_line_bytes,
           "Longest line of a case file (default " + std::to_string(l->max_line_bytes) + ")")
        ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40));
  }
}

}  // namespace
}  // namespace tma::model

int main(int argc, char** argv) {
  using namespace tma::model;
  CLI::App app{
      "tma: the OpenTMA reference model of the GPU Tensor Memory Accelerator "
      "(PTX cp.async.bulk.tensor).\n"
      "It replays known-answer cases and runs single tensor instructions on a model of the "
      "engine's data semantics, written from the PTX text and H100 measurements.\n"
      "Examples:\n"
      "  tma run tests/vectors/hand/*.jsonl          replay every hand-written case\n"
      "  tma run cases.jsonl.gz --filter '^tile2d-'  only the cases whose id matches\n"
      "  tma exec --map map.json --coords=-8,-3      one load; map.json holds a tensor object\n"
      "  tma exec --ptx 'cp.async.bulk.tensor.2d.shared::cluster.global.tile"
      ".mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3}], [%r4];' --map map.json "
      "--set r2=8,r3=2,r1=0,r4=1024\n"
      "Case format: docs/golden-cases.md."};
  app.require_subcommand(1);

  RunArgs run;
  CLI::App* run_cmd =
      app.add_subcommand("run", "Replay golden cases through an engine and compare with expect");
  run_cmd->add_option("files", run.files, "Case files (*.jsonl or *.jsonl.gz)")
      ->required()
      ->check(CLI::ExistingFile);
  run_cmd->add_option(
      "--engine", run.engine,
      "Engine to replay on: model, rtl (the Verilated RTL, via tma-rtl), soc (the "
      "Verilated SoC top through its registers, via tma-soc) or board (the ULX3S board top "
      "over its UART, via tma-board; needs --link)");
  run_cmd->add_option("--link", run.link,
                      "--engine board: the board's UART, uart:PATH[@BAUD] (default 3000000 "
                      "baud; PATH /dev/ttyUSB0 or the pty tma-board-sim prints)");
  run_cmd
      ->add_option("--build", run.board_build,
                   "--engine board: what the board's engine was built with: default (every "
                   "mode, the write direction) or load90 (Arch 90, StorePath 0: the default "
                   "bitstream of boards/ulx3s/build_bitstream.py); cases outside it are skipped")
      ->check(CLI::IsMember({"default", "load90"}));
  run_cmd->add_option("--filter", run.filter, "Only cases whose id matches this ECMAScript regex");
  run_cmd->add_flag("-v,--verbose", run.verbose, "Print every case and every failed check");
  run_cmd->add_option("--junit", run.junit, "Also write a JUnit XML report to this file");
  run_cmd->add_flag("--fail-on-skip", run.fail_on_skip,
                    "Exit non-zero when a case is skipped (engine cannot run it)");
  run_cmd->add_option("--shard", run.shard,
                      "K/N: only the cases whose index in their file is K mod N (N runs with "
                      "K = 0..N-1 replay every case once)");
  AddLimitOptions(run_cmd, &run.limits, true);
  run_cmd->footer(
      "Exit status: 0 all cases passed or skipped, 1 a case failed or no case ran, 2 usage or "
      "input error (an option, a file, a case or a size over a limit).\nA skipped case is one "
      "the engine cannot run (it is never counted as a pass).");

  ExecArgs ex;
  CLI::App* exec_cmd = app.add_subcommand(
      "exec", "Run one tensor instruction on a tensor map given as JSON and show the result");
  exec_cmd
      ->add_option("--map", ex.map_file,
                   "JSON file: a golden-case `tensor` object (dtype, rank, dims, strides, box, "
                   "...), or any object with a \"tensor\" key (tensor instructions)")
      ->check(CLI::ExistingFile);
  exec_cmd->add_option("--coords", ex.coords, "tensorCoords, innermost first, e.g. --coords=-8,-3")
      ->delimiter(',');
  exec_cmd->add_option("--ptx", ex.ptx,
                       "The instruction as PTX text instead of --op/--mode/--coords/...: "
                       "cp{.reduce}.async.bulk{.prefetch}.tensor (needs --map), cp.async.bulk, "
                       "cp.reduce.async.bulk, cp.async.bulk.prefetch");
  exec_cmd
      ->add_option("--set", ex.set,
                   "Register / symbol values for --ptx: NAME=VALUE,... (e.g. r2=8,r3=2,r1=0)")
      ->delimiter(',');
  exec_cmd
      ->add_option("--window", ex.window,
                   "--ptx: shared::cluster address A names CTA A/WINDOW at offset A%WINDOW "
                   "(also the window size); without it shared addresses are issuer offsets")
      ->check(CLI::Range(int64_t{1}, int64_t{UINT32_MAX}));
  exec_cmd
      ->add_option("--expect-tx", ex.expect_tx,
                   "Arm each signalled mbarrier with arrive.expect_tx(N) (default: the bytes "
                   "it is sent)")
      ->check(CLI::Range(int64_t{0}, int64_t{UINT32_MAX}));
  exec_cmd->add_option("--im2col", ex.im2col, "im2colInfo offsets (im2col modes), e.g. 1,0")
      ->delimiter(',');
  exec_cmd->add_option("--op", ex.op, "load | store | reduce | prefetch")
      ->check(CLI::IsMember({"load", "store", "reduce", "prefetch"}));
  exec_cmd->add_option("--redop", ex.redop, "add | min | max | inc | dec | and | or | xor");
  exec_cmd->add_option("--mode", ex.mode,
                       "tile | im2col | im2col::w | im2col::w::128 | tile::gather4 | "
                       "tile::scatter4 | im2col_no_offs");
  exec_cmd->add_option("--arch", ex.arch, "sm_90 (default), sm_90a, sm_100a, sm_101a, sm_103a, ...")
      ->check(
          [](const std::string& v) {
            return ParseArch(v) ? std::string() : "unknown arch \"" + v + "\"";
          },
          "ARCH");
  exec_cmd
      ->add_option("--smem-bytes", ex.smem_bytes,
                   "Shared window bytes per CTA (default: just enough for the box)")
      ->check(CLI::Range(int64_t{0}, int64_t{UINT32_MAX}));
  exec_cmd->add_option("--dst", ex.dst, "dstMem / srcMem offset in the window (default 0)")
      ->check(CLI::Range(int64_t{0}, int64_t{UINT32_MAX}));
  exec_cmd->add_option("--global-bytes", ex.global_bytes, "Global buffer bytes (default: tensor)")
      ->check(CLI::Range(int64_t{0}, INT64_MAX));
  exec_cmd
      ->add_option("--global-offset", ex.global_offset,
                   "Tensor address minus buffer start (default 0)")
      ->check(CLI::Range(int64_t{0}, INT64_MAX));
  exec_cmd->add_option("--global-fill", ex.global_fill,
                       "splitmix64:SEED | const:BYTE | values:SEED (default splitmix64:1)");
  exec_cmd->add_option("--smem-fill", ex.smem_fill, "Initial shared memory (default const:165)");
  exec_cmd
      ->add_option("--ctas", ex.ctas,
                   "Cluster size (default 1; with --ptx just enough for the CTAs it names)")
      ->check(CLI::Range(1, kMaxCtas));
  exec_cmd->add_option("--issuer", ex.issuer, "Issuing CTA's %cluster_ctarank (default 0)")
      ->check(CLI::Range(0, kMaxCtas - 1));
  exec_cmd
      ->add_option("--mask", ex.mask,
                   "Multicast ctaMask, 16 bits (makes the load .multicast::cluster)")
      ->check(CLI::Range(int64_t{0}, int64_t{0xFFFF}));
  exec_cmd->add_option("--dst-cta", ex.dst_cta, "Destination CTA of a non-multicast load")
      ->check(CLI::Range(0, kMaxCtas - 1));
  exec_cmd->add_flag("--element-clip", ex.element_clip,
                     "Stores/reductions clip per element instead of per 16-byte granule");
  exec_cmd->add_flag("--log-effects", ex.log_effects, "Print one line per memory write");
  AddLimitOptions(exec_cmd, &ex.limits, false);
  exec_cmd->footer(
      "Exit status: 0 the instruction ran, 1 it raised an error (shown), 2 usage or "
      "input error (an option, the map, or a size over a limit).");

  CLI::App* version_cmd = app.add_subcommand("version", "Print the version and exit");

  CLI::App* cosim_cmd = app.add_subcommand(
      "cosim", "Replay captured TMA traces through the co-simulation library (tma-cosim --help)");
  cosim_cmd->prefix_command();

  // `tma regress` (run the regression suites: vectors x engines, with a summary) is added here
  // by its owner: a subcommand object, its options, and a branch below.

  // Usage errors exit 2 (CLI11's own codes are 100 and up); --help exits 0.
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  if (version_cmd->parsed()) {
    std::printf("tma %s (OpenTMA reference model; golden-case format version 1)\n", kVersion);
    return 0;
  }
  if (run_cmd->parsed()) {
    return CmdRun(run);
  }
  if (cosim_cmd->parsed()) {
    return ExecCosim(cosim_cmd->remaining());
  }
  if (exec_cmd->parsed()) {
    if (!ex.ptx.empty()) {
      return CmdExecPtx(ex);
    }
    if (ex.map_file.empty() || ex.coords.empty()) {
      std::cerr << "tma exec: --map and --coords are required (or give the instruction as --ptx)\n";
      return 2;
    }
    return CmdExec(ex);
  }
  return 2;
}
