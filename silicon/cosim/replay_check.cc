// SPDX-License-Identifier: Apache-2.0
//
// Replays otma-trace v1 files (docs/cosim/trace-format.md) through the C++ reference model and
// compares with what silicon recorded: every consumer wait's stage SHA-256, every mbarrier
// phase's complete-tx sum against the kernel's expect_tx, and every buffer's final SHA-256.
// It checks the capture (that the traces and their GPU-side hashes are right), not the
// co-simulation library, which replays the same files through its own host.
//
//   silicon/cosim/replay_check.sh TRACE.jsonl.gz ...
//
// Model: tma::model::DecodeDescriptor on each record's raw descriptor bytes, then
// ExecuteTensor. Global memory: the header's buffers at their device addresses, regenerated
// from their fills. Shared memory: one window per CTA of each cluster; trace addresses are
// reduced to CTA-relative offsets (bits 0..23; a cluster launch puts the rank above them).
// Order: the loads of one (stage, phase) of a cluster are executed, then the waits of that
// (stage, phase) are checked, phase by phase (every load of a phase writes inside its stage,
// which check_trace.py verifies); stores and reductions then run with their recorded sources.
// Exit status: 0 every comparison matched, 1 a mismatch, 2 usage or file error.
#include <cstdio>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <tuple>
#include <vector>
#include <zlib.h>

#include "cosim_trace.h"
#include "cosim_writer.h"
#include "tma/descriptor.h"
#include "tma/memory.h"
#include "tma/tensor_copy.h"

namespace {

using nlohmann::json;
using namespace tma::model;

constexpr uint32_t kWindow = 1u << 18;  // CTA-relative offsets used by the kernels stay below

uint32_t Off(uint64_t a) {
  return static_cast<uint32_t>(a & 0xFFFFFFu);
}

bool ReadLines(const std::string& path, std::vector<std::string>* lines) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f)
    return false;
  std::string all;
  char buf[1 << 16];
  int n;
  while ((n = gzread(f, buf, sizeof(buf))) > 0)
    all.append(buf, static_cast<size_t>(n));
  gzclose(f);
  size_t pos = 0;
  while (pos < all.size()) {
    size_t e = all.find('\n', pos);
    if (e == std::string::npos)
      e = all.size();
    if (e > pos)
      lines->push_back(all.substr(pos, e - pos));
    pos = e + 1;
  }
  return true;
}

std::vector<uint8_t> FromHex(const std::string& h) {
  std::vector<uint8_t> b(h.size() / 2);
  for (size_t i = 0; i < b.size(); ++i)
    b[i] = static_cast<uint8_t>(std::stoi(h.substr(2 * i, 2), nullptr, 16));
  return b;
}

int ElemBytes(const std::string& dt) {
  if (dt == "u8")
    return 1;
  if (dt == "u16" || dt == "f16" || dt == "bf16")
    return 2;
  if (dt == "u64" || dt == "s64" || dt == "f64")
    return 8;
  return 4;
}

// A buffer's initial contents from its `init` fill (trace-format.md).
bool Generate(const json& b, std::vector<uint8_t>* out, std::string* err) {
  const json& init = b["init"];
  const size_t n = b["bytes"].get<size_t>();
  const std::string kind = init["fill"];
  out->assign(n, 0);
  if (kind == "const") {
    std::fill(out->begin(), out->end(), init["value"].get<uint8_t>());
  } else if (kind == "splitmix64") {
    const uint64_t s = init["seed"];
    for (size_t i = 0; i < n; ++i)
      (*out)[i] = static_cast<uint8_t>(cosim::SplitMix64(s + i));
  } else if (kind == "ints") {
    const uint64_t s = init["seed"];
    const int64_t lo = init["lo"], hi = init["hi"];
    const std::string dt = b["dtype"];
    const int es = ElemBytes(dt);
    for (size_t i = 0; i + es <= n; i += es) {
      const int64_t v = cosim::IntsFill(s, i / es, lo, hi);
      uint32_t bits = 0;
      if (dt == "bf16") {
        bits = cosim::Bf16Rne(static_cast<float>(v));
      } else if (dt == "f32") {
        bits = cosim::FloatBits(static_cast<float>(v));
      } else {
        bits = static_cast<uint32_t>(v);
      }
      for (int k = 0; k < es && k < 4; ++k)
        (*out)[i + k] = static_cast<uint8_t>(bits >> (8 * k));
    }
  } else {
    *err = "fill " + kind + " is not generated here";
    return false;
  }
  return true;
}

struct Totals {
  uint64_t loads = 0, stores = 0, reductions = 0, waits = 0, wait_ok = 0, phases = 0, phase_ok = 0,
           finals = 0, final_ok = 0, errors = 0;
  uint64_t tensor_bytes = 0;
  uint64_t stores_without_src = 0;
};

void Error(Totals* t, const std::string& path, const std::string& msg) {
  if (++t->errors <= 20)
    std::printf("MISMATCH %s: %s\n", path.c_str(), msg.c_str());
}

TensorInstr InstrOf(const json& r) {
  TensorInstr ins;
  const std::string op = r["op"];
  ins.op = op == "load" ? Op::kLoad : op == "store" ? Op::kStore : Op::kReduce;
  ins.mode = r["mode"] == "im2col" ? LoadMode::kIm2col : LoadMode::kTile;
  ins.dim = r["tensor"]["rank"];
  for (const auto& c : r["coords"])
    ins.coords.push_back(c.get<int32_t>());
  if (r.contains("im2col"))
    for (const auto& c : r["im2col"])
      ins.im2col_info.push_back(c.get<uint16_t>());
  ins.smem_addr = Off(r["smem_addr"].get<uint64_t>());
  if (ins.op == Op::kLoad) {
    ins.smem_space = SmemSpace::kSharedCluster;
    ins.mbar_addr = Off(r["mbar_addr"].get<uint64_t>());
    ins.issuer_cta = r["rank"];
    if (r.contains("cluster") && r["cluster"].contains("cta_mask")) {
      ins.multicast = true;
      ins.cta_mask = r["cluster"]["cta_mask"].get<uint16_t>();
    }
  } else {
    ins.smem_space = SmemSpace::kSharedCta;
    ins.issuer_cta = r["rank"];
    ins.redop = RedOp::kAdd;
  }
  return ins;
}

int ReplayFile(const std::string& path, Totals* t) {
  std::vector<std::string> lines;
  if (!ReadLines(path, &lines) || lines.empty()) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    return 2;
  }
  const json h = json::parse(lines[0]);
  SparseGlobalMemory gmem(0);
  for (const auto& b : h["buffers"]) {
    std::vector<uint8_t> init;
    std::string err;
    if (!Generate(b, &init, &err)) {
      Error(t, path, err);
      return 1;
    }
    if (cosim::Sha256HexOf(init.data(), init.size()) != b["init_sha256"].get<std::string>())
      Error(t, path, "buffer " + b["name"].get<std::string>() + ": regenerated fill hash differs");
    gmem.Write(b["va"].get<uint64_t>(), init.data(), init.size());
  }
  const int csize =
      h["cluster"][0].get<int>() * h["cluster"][1].get<int>() * h["cluster"][2].get<int>();
  // Records by cluster; loads and waits keyed by (phase, mbar offset).
  using Key = std::tuple<int, uint32_t>;  // phase, mbar offset
  struct ClusterRecs {
    std::map<Key, std::vector<json>> loads, waits;
    std::map<std::tuple<int, uint32_t, int>, int64_t> armed;  // rank, mbar, phase -> tx
    std::vector<json> stores;
  };
  std::map<std::vector<int>, ClusterRecs> clusters;
  std::vector<json> finals;
  for (size_t i = 1; i < lines.size(); ++i) {
    json r = json::parse(lines[i]);
    const std::string kind = r["rec"];
    if (kind == "final") {
      finals.push_back(r);
      continue;
    }
    if (!r.contains("cluster_id"))
      continue;
    std::vector<int> cid = r["cluster_id"].get<std::vector<int>>();
    ClusterRecs& c = clusters[cid];
    if (kind == "tma") {
      if (r["op"] == "load")
        c.loads[{r["phase"].get<int>(), Off(r["mbar_addr"])}].push_back(r);
      else
        c.stores.push_back(r);
    } else if (kind == "wait") {
      c.waits[{r["phase"].get<int>(), Off(r["mbar_addr"])}].push_back(r);
    } else if (kind == "arm") {
      c.armed[{r["rank"].get<int>(), Off(r["mbar_addr"]), r["phase"].get<int>()}] =
          r["expect_tx"].get<int64_t>();
    }
  }
  std::map<std::string, TensorMap> maps;  // by descriptor hex
  auto map_of = [&](const json& r, TensorMap* m) {
    const std::string hex = r["desc"];
    auto it = maps.find(hex);
    if (it == maps.end()) {
      std::vector<uint8_t> d = FromHex(hex);
      TensorMap tm;
      Status st = DecodeDescriptor(d.data(), &tm);
      if (!st.ok()) {
        Error(t, path,
              "seq " + std::to_string(r["seq"].get<int64_t>()) +
                  ": descriptor does not decode: " + st.ToString());
        return false;
      }
      it = maps.emplace(hex, tm).first;
    }
    *m = it->second;
    return true;
  };
  for (auto& [cid, c] : clusters) {
    ClusterSharedMemory smem(csize, kWindow, 0);
    std::map<std::tuple<int, uint32_t, int>, int64_t> got_tx;
    std::set<Key> keys;
    for (const auto& [k, v] : c.loads)
      keys.insert(k);
    for (const auto& [k, v] : c.waits)
      keys.insert(k);
    for (const Key& k : keys) {  // phase-major: every stage of phase p before phase p+1
      for (const json& r : c.loads[k]) {
        TensorMap m;
        if (!map_of(r, &m))
          continue;
        ExecResult er = ExecuteTensor(m, InstrOf(r), gmem, smem);
        ++t->loads;
        t->tensor_bytes += r["bytes"].get<uint64_t>();
        if (!er.status.ok()) {
          Error(t, path,
                "seq " + std::to_string(r["seq"].get<int64_t>()) + ": model says " +
                    er.status.ToString());
          continue;
        }
        for (const CompleteTx& tx : er.complete_tx)
          got_tx[{tx.cta, tx.mbar_addr, std::get<0>(k)}] += tx.bytes;
      }
      for (const json& w : c.waits[k]) {
        ++t->waits;
        const int rank = w["rank"];
        const uint32_t a = Off(w["stage_addr"]);
        const uint32_t n = w["stage_bytes"];
        const std::vector<uint8_t>& win = smem.Window(rank);
        const std::string sha = cosim::Sha256HexOf(win.data() + a, n);
        if (!w.contains("stage_sha256")) {
          --t->waits;  // a timing capture: nothing to compare
          continue;
        }
        if (sha == w["stage_sha256"].get<std::string>())
          ++t->wait_ok;
        else
          Error(t, path,
                "wait seq " + std::to_string(w["seq"].get<int64_t>()) + " (cta " + w["cta"].dump() +
                    ", phase " + std::to_string(std::get<0>(k)) + "): model stage " + sha +
                    " != silicon " + w["stage_sha256"].get<std::string>());
      }
    }
    for (const auto& [key, tx] : c.armed) {
      ++t->phases;
      auto it = got_tx.find(key);
      const int64_t got = it == got_tx.end() ? 0 : it->second;
      if (got == tx)
        ++t->phase_ok;
      else
        Error(t, path,
              "cluster " + json(cid).dump() + " rank " + std::to_string(std::get<0>(key)) +
                  " mbarrier +" + std::to_string(std::get<1>(key)) + " phase " +
                  std::to_string(std::get<2>(key)) + ": complete-tx " + std::to_string(got) +
                  " != expect_tx " + std::to_string(tx));
    }
    for (const json& r : c.stores) {
      TensorMap m;
      if (!r.contains("src_hex")) {  // a timing capture: no sources, outputs not replayable
        ++t->stores_without_src;
        continue;
      }
      if (!map_of(r, &m))
        continue;
      const std::vector<uint8_t> src = FromHex(r["src_hex"].get<std::string>());
      if (cosim::Sha256HexOf(src.data(), src.size()) != r["src_sha256"].get<std::string>())
        Error(t, path, "seq " + std::to_string(r["seq"].get<int64_t>()) + ": src_hex hash");
      smem.Write(r["rank"].get<int>(), Off(r["smem_addr"]), src.data(), src.size());
      ExecResult er = ExecuteTensor(m, InstrOf(r), gmem, smem);
      (r["op"] == "store" ? t->stores : t->reductions) += 1;
      t->tensor_bytes += r["bytes"].get<uint64_t>();
      if (!er.status.ok())
        Error(t, path,
              "seq " + std::to_string(r["seq"].get<int64_t>()) + ": model says " +
                  er.status.ToString());
    }
  }
  for (const json& f : finals) {
    if (t->stores_without_src)
      break;  // the outputs cannot be rebuilt without the store sources
    ++t->finals;
    const std::string name = f["buffer"];
    for (const auto& b : h["buffers"]) {
      if (b["name"] != name)
        continue;
      std::vector<uint8_t> now(b["bytes"].get<size_t>());
      gmem.Read(b["va"].get<uint64_t>(), now.data(), now.size());
      const std::string sha = cosim::Sha256HexOf(now.data(), now.size());
      if (sha == f["sha256"].get<std::string>())
        ++t->final_ok;
      else
        Error(t, path,
              "final " + name + ": model " + sha + " != silicon " + f["sha256"].get<std::string>());
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: replay_check TRACE.jsonl[.gz] ...\n");
    return 2;
  }
  int rc = 0;
  Totals all;
  for (int i = 1; i < argc; ++i) {
    Totals t;
    const int r = ReplayFile(argv[i], &t);
    if (r == 2)
      return 2;
    std::printf(
        "%s: %llu loads, %llu stores, %llu reductions; stage hashes %llu/%llu, complete-tx "
        "phases %llu/%llu, final buffers %llu/%llu%s%s\n",
        argv[i], (unsigned long long)t.loads, (unsigned long long)t.stores,
        (unsigned long long)t.reductions, (unsigned long long)t.wait_ok,
        (unsigned long long)t.waits, (unsigned long long)t.phase_ok, (unsigned long long)t.phases,
        (unsigned long long)t.final_ok, (unsigned long long)t.finals,
        t.stores_without_src ? " (timing capture: no stage hashes or store sources)" : "",
        t.errors ? "  MISMATCH" : "");
    if (t.errors || r)
      rc = 1;
  }
  std::printf("replay_check: %s\n", rc ? "FAIL" : "PASS");
  return rc;
}
