// SPDX-License-Identifier: Apache-2.0
#include "replay.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <deque>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <tuple>
#include <zlib.h>

#include "calibration.h"
#include "tma/golden.h"
#include "tma/mbarrier.h"

namespace otma_trace {

using nlohmann::json;
namespace m = tma::model;

namespace {

constexpr uint32_t kWindow = 1u << 18;  // CTA-relative shared offsets stay below (bits 0..23)
constexpr uint32_t kSmReqPerCycle = 4;  // SM90_H100 gpgpusim.config: -gpgpu_l1_banks 4

uint32_t Off(uint64_t a) {
  return static_cast<uint32_t>(a & 0xFFFFFFu);
}

// CPU time of the calling thread: the engine's share of a replay on a shared machine.
double CpuNow() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

bool ReadLines(const std::string& path, std::vector<std::string>* lines) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (f == nullptr) {
    return false;
  }
  std::string all;
  char buf[1 << 16];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0) {
    all.append(buf, static_cast<size_t>(n));
  }
  gzclose(f);
  size_t pos = 0;
  while (pos < all.size()) {
    size_t e = all.find('\n', pos);
    if (e == std::string::npos) {
      e = all.size();
    }
    if (e > pos) {
      lines->push_back(all.substr(pos, e - pos));
    }
    pos = e + 1;
  }
  return true;
}

int ElemBytes(const std::string& dt) {
  if (dt == "u8" || dt == "s8")
    return 1;
  if (dt == "u16" || dt == "f16" || dt == "bf16")
    return 2;
  if (dt == "u64" || dt == "s64" || dt == "f64")
    return 8;
  return 4;
}

// A buffer's initial contents from its `init` fill (trace-format.md, "buffers").
bool Generate(const json& b, std::vector<uint8_t>* out, std::string* err) {
  const json& init = b.at("init");
  const size_t n = b.at("bytes").get<size_t>();
  const std::string kind = init.at("fill");
  out->assign(n, 0);
  if (kind == "const") {
    std::fill(out->begin(), out->end(), init.at("value").get<uint8_t>());
  } else if (kind == "splitmix64") {
    const uint64_t s = init.at("seed");
    for (size_t i = 0; i < n; ++i)
      (*out)[i] = static_cast<uint8_t>(m::SplitMix64(s + i));
  } else if (kind == "ints") {
    const uint64_t s = init.at("seed");
    const int64_t lo = init.at("lo"), hi = init.at("hi");
    const std::string dt = b.at("dtype");
    const int es = ElemBytes(dt);
    for (size_t i = 0; i + es <= n; i += es) {
      const int64_t v =
          static_cast<int64_t>(m::SplitMix64(s + i / es) % static_cast<uint64_t>(hi - lo + 1)) + lo;
      uint64_t bits;
      if (dt == "bf16") {
        bits = m::DoubleToBf16(static_cast<double>(v));
      } else if (dt == "f16") {
        bits = m::DoubleToF16(static_cast<double>(v));
      } else if (dt == "f32") {
        float f = static_cast<float>(v);
        uint32_t u;
        std::memcpy(&u, &f, 4);
        bits = u;
      } else {
        bits = static_cast<uint64_t>(v);
      }
      for (int k = 0; k < es; ++k)
        (*out)[i + k] = static_cast<uint8_t>(bits >> (8 * k));
    }
  } else {
    *err = "fill '" + kind + "' is not known";
    return false;
  }
  return true;
}

enum class RK { kLoad, kStore, kArm, kWait, kCommit, kWaitGroup, kOther };

struct Rec {
  RK kind = RK::kOther;
  int64_t seq = 0;
  uint64_t t = 0;
  int rank = 0, warp = 0;
  otma_op op{};
  std::string ptx;
  std::vector<uint8_t> src;  // store source
  bool have_src = false;
  uint32_t mbar = 0;  // offset
  int phase = 0;
  uint32_t expect_tx = 0;
  uint32_t stage_addr = 0, stage_bytes = 0;
  std::string stage_sha;
  uint64_t t_done = 0, t_release = 0;
  uint32_t n = 0;
  bool read = false;
  uint64_t bytes = 0;
  int ndest = 1;
};

struct Buffer {
  std::string name;
  uint64_t va = 0;
  std::vector<uint8_t> data;
};

struct Bar {
  m::Mbarrier mb;
  std::map<int, int64_t> tx;  // phase -> complete_tx sum
};

class Replay;

// One CTA's SM: its engine port and the memory requests in flight to the host's L2.
struct Sm {
  Replay* r = nullptr;
  uint32_t rank = 0;
  std::unique_ptr<EnginePort> port;
  uint32_t accepted = 0;                               // requests accepted this cycle
  std::deque<std::pair<uint64_t, uint64_t>> inflight;  // (due cycle, tag)
  std::map<otma_token, const Rec*> ops;
  const Rec* submitting = nullptr;  // the record inside otma_submit (callbacks during submit)
};

class Replay : public MemoryView {
 public:
  Replay(const Options& o, Result* res) : opt_(o), res_(*res) {}
  bool Load(const std::string& path, std::string* err);
  void Run();

  // host callbacks
  int GRead(uint64_t a, void* d, uint32_t n);
  int GWrite(uint64_t a, const void* s, uint32_t n);
  int SRead(uint32_t r, uint32_t a, void* d, uint32_t n);
  int SWrite(uint32_t r, uint32_t a, const void* s, uint32_t n);
  void CompleteTx(uint32_t r, uint32_t mbar, uint32_t bytes);
  void OpDone(Sm& sm, otma_token t, uint32_t ev, otma_status s);
  int MemReq(Sm& sm, const otma_mem_req* q);
  void CheckReport(const otma_check_report* r);
  bool GlobalRegion(uint64_t addr, uint8_t** base, uint64_t* start,
                    uint64_t* bytes) const override {
    for (const Buffer& b : bufs_) {
      if (addr >= b.va && addr < b.va + b.data.size()) {
        *base = const_cast<uint8_t*>(b.data.data());
        *start = b.va;
        *bytes = b.data.size();
        return true;
      }
    }
    return false;
  }
  uint8_t* Window(uint32_t rank, uint32_t* bytes) const override {
    if (rank >= win_.size())
      return nullptr;
    *bytes = kWindow;
    return const_cast<uint8_t*>(win_[rank].data());
  }

 private:
  void RunCluster(std::vector<const Rec*>& recs);
  Buffer* Find(uint64_t a, uint32_t n);
  void Mismatch(const std::string& s) {
    if (res_.mismatches.size() < static_cast<size_t>(opt_.max_mismatch_lines)) {
      res_.mismatches.push_back(s);
    }
  }

  Options opt_;
  Result& res_;
  json header_;
  std::vector<Buffer> bufs_;
  size_t last_buf_ = 0;
  std::vector<Rec> recs_;
  std::vector<json> finals_;
  std::map<std::string, std::vector<uint8_t>> descs_;
  int cluster_size_ = 1;
  // per cluster
  std::vector<std::vector<uint8_t>> win_;
  std::map<std::pair<uint32_t, uint32_t>, Bar> bars_;
  std::vector<std::unique_ptr<Sm>> sms_;
  uint64_t now_ = 0;
  std::set<std::pair<uint32_t, int>> faulted_;  // (mbar, phase) with a faulted / skipped load
  bool any_store_skipped_ = false;
  otma_checker* ck_ = nullptr;
  std::map<std::pair<int, otma_token>, const Rec*> tok_rec_;
  std::vector<std::vector<const Rec*>> clusters_;
  std::vector<double> ratios_;
  uint64_t epoch_ = 0;  // counts state changes (hang detection: blocked since the last one)
  bool trapped_ = false;
  int64_t mutated_seq_ = -1;

 public:
  int64_t mutated_seq() const { return mutated_seq_; }
};

Buffer* Replay::Find(uint64_t a, uint32_t n) {
  if (last_buf_ < bufs_.size()) {
    Buffer& b = bufs_[last_buf_];
    if (a >= b.va && a + n <= b.va + b.data.size())
      return &b;
  }
  for (size_t i = 0; i < bufs_.size(); ++i) {
    Buffer& b = bufs_[i];
    if (a >= b.va && a + n <= b.va + b.data.size()) {
      last_buf_ = i;
      return &b;
    }
  }
  return nullptr;
}

int Replay::GRead(uint64_t a, void* d, uint32_t n) {
  Buffer* b = Find(a, n);
  if (b == nullptr)
    return 1;
  std::memcpy(d, b->data.data() + (a - b->va), n);
  return 0;
}
int Replay::GWrite(uint64_t a, const void* s, uint32_t n) {
  Buffer* b = Find(a, n);
  if (b == nullptr)
    return 1;
  std::memcpy(b->data.data() + (a - b->va), s, n);
  return 0;
}
int Replay::SRead(uint32_t r, uint32_t a, void* d, uint32_t n) {
  if (r >= win_.size() || a + static_cast<uint64_t>(n) > kWindow)
    return 1;
  std::memcpy(d, win_[r].data() + a, n);
  return 0;
}
int Replay::SWrite(uint32_t r, uint32_t a, const void* s, uint32_t n) {
  if (r >= win_.size() || a + static_cast<uint64_t>(n) > kWindow)
    return 1;
  std::memcpy(win_[r].data() + a, s, n);
  res_.tensor_bytes += n;
  return 0;
}

void Replay::CompleteTx(uint32_t r, uint32_t mbar, uint32_t bytes) {
  ++epoch_;
  Bar& b = bars_[{r, Off(mbar)}];
  if (!b.mb.initialized())
    b.mb.Init(1);
  b.tx[static_cast<int>(b.mb.phase())] += bytes;
  b.mb.CompleteTx(bytes);
}

int Replay::MemReq(Sm& sm, const otma_mem_req* q) {
  if (sm.accepted >= kSmReqPerCycle)
    return 1;
  ++sm.accepted;
  sm.inflight.emplace_back(now_ + otma_impl::DefaultCalibration().mem_latency, q->tag);
  return 0;
}

void Replay::OpDone(Sm& sm, otma_token t, uint32_t ev, otma_status s) {
  ++epoch_;
  if (ev != OTMA_EV_FAULT)
    return;
  auto it = sm.ops.find(t);
  const Rec* rec = it == sm.ops.end() ? sm.submitting : it->second;
  if (s == OTMA_E_UNSUPPORTED && opt_.mode == OTMA_MODE_RTL) {
    ++res_.skipped;
    --res_.executed;
    if (rec != nullptr && rec->kind == RK::kStore)
      any_store_skipped_ = true;
    if (rec != nullptr && rec->kind == RK::kLoad)
      faulted_.insert({rec->mbar, rec->phase});
    return;
  }
  ++res_.faults;
  res_.fault_classes.push_back(otma_status_str(s));
  Mismatch("seq " + std::to_string(rec ? rec->seq : -1) + ": the engine faulted (" +
           otma_status_str(s) + "); silicon ran it");
  if (rec != nullptr && rec->kind == RK::kLoad)
    faulted_.insert({rec->mbar, rec->phase});
  if (rec != nullptr && rec->kind == RK::kStore)
    any_store_skipped_ = true;
  trapped_ = true;  // on silicon a TMA fault traps the kernel (CUDA error 715/716): stop here
}

void Replay::CheckReport(const otma_check_report* r) {
  ++res_.check_reports;
  if (r->cls < OTMA_CHK_NUM_CLASSES)
    ++res_.check_by_class[r->cls];
  std::string who;
  for (auto& [k, rec] : tok_rec_) {
    if (k.second == r->op && rec != nullptr) {
      who = " [seq " + std::to_string(rec->seq) + ": " + rec->ptx + "]";
      break;
    }
  }
  Mismatch(std::string("checker: ") + r->message + who);
}

bool Replay::Load(const std::string& path, std::string* err) {
  std::vector<std::string> lines;
  if (!ReadLines(path, &lines) || lines.empty()) {
    *err = "cannot read " + path;
    return false;
  }
  try {
    header_ = json::parse(lines[0]);
    if (header_.value("format", "") != "otma-trace" || header_.value("version", 0) != 1) {
      *err = path + ": not an otma-trace v1 file";
      return false;
    }
    res_.kernel = header_.value("kernel", "");
    res_.timing_capture = !header_.value("capture", json::object()).value("stage_hash", true);
    for (const auto& b : header_.at("buffers")) {
      Buffer buf;
      buf.name = b.at("name");
      buf.va = b.at("va");
      std::string e;
      if (!Generate(b, &buf.data, &e)) {
        *err = path + ": buffer " + buf.name + ": " + e;
        return false;
      }
      if (b.contains("init_sha256") &&
          m::Sha256Hex(buf.data.data(), buf.data.size()) != b.at("init_sha256")) {
        Mismatch("buffer " + buf.name + ": the regenerated fill's hash differs from init_sha256");
      }
      bufs_.push_back(std::move(buf));
    }
    const auto& cl = header_.at("cluster");
    cluster_size_ = cl[0].get<int>() * cl[1].get<int>() * cl[2].get<int>();
    recs_.reserve(lines.size());
    std::vector<std::pair<std::vector<int>, size_t>> order;
    for (size_t i = 1; i < lines.size(); ++i) {
      json j = json::parse(lines[i]);
      const std::string kind = j.at("rec");
      if (kind == "final") {
        finals_.push_back(j);
        continue;
      }
      Rec r;
      r.seq = j.value("seq", int64_t{0});
      r.t = j.value("t", uint64_t{0});
      r.rank = j.value("rank", 0);
      r.warp = j.value("warp", 0);
      if (opt_.mutate_seq == -2 && !opt_.mutate.empty() && mutated_seq_ < 0) {
        // --mutate-seq auto: the first record the mutation applies to.
        const std::string& mu = opt_.mutate;
        const std::string op = j.value("op", "");
        const bool fits =
            ((mu == "misaligned" || mu == "misaligned_coordinate") && kind == "tma" &&
             op == "load") ||
            ((mu == "invalid_coordinate" || mu == "unsupported_reduction") && kind == "tma" &&
             op != "load") ||
            ((mu == "expect_tx_low" || mu == "expect_tx_high" || mu == "phase_early") &&
             kind == "arm") ||
            (mu == "skip_release" && kind == "wait") ||
            (mu == "multicast_unarmed" && kind == "tma" && j.contains("cluster") &&
             j["cluster"].contains("cta_mask"));
        if (fits)
          mutated_seq_ = r.seq;
      }
      if (opt_.mutate_seq >= 0 && r.seq == opt_.mutate_seq)
        mutated_seq_ = r.seq;
      if (mutated_seq_ >= 0 && r.seq == mutated_seq_) {
        const std::string& mu = opt_.mutate;
        if (mu == "misaligned")
          j["smem_addr"] = j["smem_addr"].get<uint64_t>() + 16;
        if (mu == "misaligned_coordinate")
          j["coords"][0] = j["coords"][0].get<int>() + 1;
        if (mu == "invalid_coordinate")
          j["coords"][1] = -1 - j["coords"][1].get<int>();
        if (mu == "unsupported_reduction") {
          j["op"] = "reduce";
          j["redop"] = "inc";
        }
        if (mu == "expect_tx_low")
          j["expect_tx"] = j["expect_tx"].get<uint32_t>() - 16;
        if (mu == "expect_tx_high")
          j["expect_tx"] = j["expect_tx"].get<uint32_t>() + 16;
      }
      if (kind == "tma") {
        const std::string op = j.at("op");
        r.kind = op == "load" ? RK::kLoad : RK::kStore;
        r.ptx = j.value("ptx", "");
        otma_op& o = r.op;
        std::memset(&o, 0, sizeof o);
        o.struct_size = sizeof o;
        o.kind = op == "load"       ? OTMA_OP_TENSOR_LOAD
                 : op == "store"    ? OTMA_OP_TENSOR_STORE
                 : op == "prefetch" ? OTMA_OP_TENSOR_PREFETCH
                                    : OTMA_OP_TENSOR_REDUCE;
        if (op == "prefetch")
          r.kind = RK::kLoad;
        const std::string mode = j.value("mode", "tile");
        const auto lm = m::ParseLoadMode(mode);
        o.load_mode = lm ? static_cast<uint32_t>(*lm) : 0;
        o.dim = j.at("tensor").at("rank");
        const auto& co = j.at("coords");
        for (size_t k = 0; k < co.size() && k < 5; ++k)
          o.coords[k] = co[k];
        if (j.contains("im2col")) {
          const auto& ic = j["im2col"];
          for (size_t k = 0; k < ic.size() && k < 3; ++k)
            o.im2col_info[k] = ic[k].get<uint16_t>();
        }
        if (j.contains("redop")) {
          const auto ro = m::ParseRedOp(j["redop"].get<std::string>());
          o.redop = ro ? static_cast<uint32_t>(*ro) : 0;
        }
        const std::string dh = j.at("desc");
        auto it = descs_.find(dh);
        if (it == descs_.end()) {
          std::vector<uint8_t> d;
          m::FromHex(dh, &d);
          it = descs_.emplace(dh, std::move(d)).first;
        }
        o.desc_bytes = it->second.data();
        o.smem_addr = Off(j.at("smem_addr").get<uint64_t>());
        o.issuer_rank = static_cast<uint32_t>(r.rank);
        o.issuer_warp = static_cast<uint32_t>(r.warp);
        o.dst_rank = -1;
        o.mbar_rank = -1;
        r.bytes = j.value("bytes", uint64_t{0});
        if (r.kind == RK::kLoad) {
          r.mbar = Off(j.value("mbar_addr", uint64_t{0}));
          o.mbar_addr = r.mbar;
          r.phase = j.value("phase", 0);
          if (j.contains("cluster") && j["cluster"].contains("cta_mask")) {
            o.flags |= OTMA_OPF_MULTICAST;
            o.cta_mask = j["cluster"]["cta_mask"].get<uint16_t>();
            r.ndest = __builtin_popcount(o.cta_mask);
          }
          ++res_.loads;
          if (o.flags & OTMA_OPF_MULTICAST)
            ++res_.multicast;
          if (mode != "tile")
            ++res_.im2col;
        } else {
          o.flags |= OTMA_OPF_SHARED_CTA;
          if (j.contains("src_hex")) {
            m::FromHex(j["src_hex"].get<std::string>(), &r.src);
            r.have_src = true;
          }
          if (op == "store")
            ++res_.stores;
          else
            ++res_.reduces;
        }
        if (j.value("oob_bytes", uint64_t{0}) > 0)
          ++res_.oob_ops;
        ++res_.ops;
      } else if (kind == "arm") {
        r.kind = RK::kArm;
        r.mbar = Off(j.at("mbar_addr").get<uint64_t>());
        r.phase = j.at("phase");
        r.expect_tx = j.at("expect_tx");
      } else if (kind == "wait") {
        r.kind = RK::kWait;
        r.mbar = Off(j.at("mbar_addr").get<uint64_t>());
        r.phase = j.at("phase");
        r.stage_addr = Off(j.at("stage_addr").get<uint64_t>());
        r.stage_bytes = j.at("stage_bytes");
        r.stage_sha = j.value("stage_sha256", "");
        r.t_done = j.value("t_done", uint64_t{0});
        r.t_release = j.value("t_release", r.t_done);
      } else if (kind == "commit") {
        r.kind = RK::kCommit;
        ++res_.groups;
      } else if (kind == "wait_group") {
        r.kind = RK::kWaitGroup;
        r.n = j.at("n");
        r.read = j.value("read", false);
      } else {
        continue;  // pwait (its rule is the producer's release check), cta
      }
      std::vector<int> cid = j.value("cluster_id", std::vector<int>{0, 0, 0});
      recs_.push_back(std::move(r));
      order.emplace_back(std::move(cid), recs_.size() - 1);
    }
    if (opt_.mutate == "phase_early" && mutated_seq_ >= 0) {
      // The arm expects the bytes of every load of its phase but the last one: the phase
      // completes before that load has delivered.
      Rec* arm = nullptr;
      Rec* last = nullptr;
      for (Rec& r : recs_) {
        if (r.seq == mutated_seq_ && r.kind == RK::kArm) {
          arm = &r;
          continue;
        }
        if (arm == nullptr || r.rank != arm->rank || r.warp != arm->warp)
          continue;
        if (r.kind == RK::kArm)
          break;  // the next arm of this producer: the phase's loads end
        if (r.kind == RK::kLoad && r.mbar == arm->mbar && r.phase == arm->phase)
          last = &r;
      }
      if (arm != nullptr && last != nullptr)
        arm->expect_tx -= static_cast<uint32_t>(last->bytes);
    }
    // Clusters in order of first appearance.
    std::map<std::vector<int>, std::vector<const Rec*>> by_cluster;
    std::vector<std::vector<int>> seen;
    for (auto& [cid, i] : order) {
      auto& v = by_cluster[cid];
      if (v.empty())
        seen.push_back(cid);
      v.push_back(&recs_[i]);
    }
    clusters_.clear();
    for (const auto& cid : seen)
      clusters_.push_back(std::move(by_cluster[cid]));
  } catch (const std::exception& e) {
    *err = path + ": " + e.what();
    return false;
  }
  return true;
}

void Replay::Run() {
  for (auto& c : clusters_) {
    RunCluster(c);
    if (res_.hang || trapped_)
      break;
  }
  // Final buffers (A3): only when every store could run with its recorded source.
  for (const json& f : finals_) {
    const std::string name = f.at("buffer");
    if (res_.timing_capture || any_store_skipped_ || res_.hang || trapped_) {
      ++res_.finals_skipped;
      continue;
    }
    ++res_.finals;
    for (const Buffer& b : bufs_) {
      if (b.name != name)
        continue;
      const std::string sha = m::Sha256Hex(b.data.data(), b.data.size());
      if (sha == f.at("sha256").get<std::string>()) {
        ++res_.finals_ok;
      } else {
        Mismatch("final buffer " + name + ": replay " + sha + " != silicon " +
                 f.at("sha256").get<std::string>());
      }
    }
  }
  if (!ratios_.empty()) {
    std::sort(ratios_.begin(), ratios_.end());
    res_.timeline_ratio_median = ratios_[ratios_.size() / 2];
    res_.timeline_ratio_min = ratios_.front();
    res_.timeline_ratio_max = ratios_.back();
  }
}

void Replay::RunCluster(std::vector<const Rec*>& recs) {
  const otma_impl::Calibration& cal = otma_impl::DefaultCalibration();
  const bool timed = opt_.mode == OTMA_MODE_TIMED;
  const uint64_t issue_cost = timed ? cal.cmd_interval : 0;
  const uint64_t ok_cost = timed ? cal.trywait_success : 0;
  const uint64_t retry_cost = timed ? cal.trywait_retry : 1;
  // TIMED / RTL: the engines' time is in otma_tick and in submits retried every cycle; the
  // cluster's whole CPU time is counted (two clock reads per call would cost more than they
  // measure).
  const double cpu0 = CpuNow();
  const double engine0 = res_.engine_seconds;
  win_.assign(static_cast<size_t>(cluster_size_), std::vector<uint8_t>(kWindow, 0));
  bars_.clear();
  faulted_.clear();
  tok_rec_.clear();
  sms_.clear();
  now_ = 0;
  if (opt_.check) {
    otma_checker_config cc;
    std::memset(&cc, 0, sizeof cc);
    cc.struct_size = sizeof cc;
    cc.cluster_size = static_cast<uint32_t>(cluster_size_);
    cc.user = this;
    cc.report = [](void* u, const otma_check_report* r) {
      static_cast<Replay*>(u)->CheckReport(r);
    };
    otma_checker_create(&cc, &ck_);
    // The kernel initialises every barrier it arms (count 1: the producer's arrive).
    std::set<std::pair<int, uint32_t>> inits;
    for (const Rec* r : recs) {
      if (r->kind == RK::kArm)
        inits.insert({r->rank, r->mbar});
    }
    if (opt_.mutate == "multicast_unarmed") {
      for (const Rec* r : recs) {
        if (r->seq == mutated_seq_ && r->kind == RK::kLoad) {
          for (int k = 0; k < cluster_size_; ++k) {
            if (k != r->rank && ((r->op.cta_mask >> k) & 1))
              inits.erase({k, r->mbar});
          }
        }
      }
    }
    for (const auto& [rank, mb] : inits) {
      otma_checker_mbar_init(ck_, static_cast<uint32_t>(rank), mb, 1);
    }
  }
  for (int k = 0; k < cluster_size_; ++k) {
    auto sm = std::make_unique<Sm>();
    sm->r = this;
    sm->rank = static_cast<uint32_t>(k);
    otma_host h;
    std::memset(&h, 0, sizeof h);
    h.struct_size = sizeof h;
    h.user = sm.get();
    h.gmem_read = [](void* u, uint64_t a, void* d, uint32_t n) {
      return static_cast<Sm*>(u)->r->GRead(a, d, n);
    };
    h.gmem_write = [](void* u, uint64_t a, const void* s, uint32_t n) {
      return static_cast<Sm*>(u)->r->GWrite(a, s, n);
    };
    h.smem_read = [](void* u, uint32_t r, uint32_t a, void* d, uint32_t n) {
      return static_cast<Sm*>(u)->r->SRead(r, a, d, n);
    };
    h.smem_write = [](void* u, uint32_t r, uint32_t a, const void* s, uint32_t n) {
      return static_cast<Sm*>(u)->r->SWrite(r, a, s, n);
    };
    h.complete_tx = [](void* u, uint32_t r, uint32_t mb, uint32_t b) {
      static_cast<Sm*>(u)->r->CompleteTx(r, mb, b);
    };
    h.op_done = [](void* u, otma_token t, uint32_t ev, otma_status s) {
      Sm* sm2 = static_cast<Sm*>(u);
      sm2->r->OpDone(*sm2, t, ev, s);
    };
    if (timed || (opt_.host_memory && opt_.mode == OTMA_MODE_RTL)) {
      h.mem_req = [](void* u, const otma_mem_req* q) {
        Sm* sm2 = static_cast<Sm*>(u);
        return sm2->r->MemReq(*sm2, q);
      };
    }
    otma_config c;
    std::memset(&c, 0, sizeof c);
    c.struct_size = sizeof c;
    c.abi_version = OTMA_ABI_VERSION;
    c.mode = opt_.mode;
    c.flags = opt_.check ? OTMA_FLAG_CHECK : 0;
    c.checker = ck_;
    c.cluster_size = static_cast<uint32_t>(cluster_size_);
    c.watchdog_cycles = 200000;
    std::string err;
    sm->port = opt_.port(c, h, static_cast<uint32_t>(k), *this, &err);
    if (!sm->port) {
      Mismatch("cannot create the engine of rank " + std::to_string(k) + ": " + err);
      res_.hang = true;
      return;
    }
    sms_.push_back(std::move(sm));
  }

  struct Warp {
    std::vector<const Rec*> recs;
    size_t pc = 0;
    uint64_t busy = 0;
    bool blocked = false;        // its last attempt waited on another warp, an engine or a release
    uint64_t blocked_epoch = 0;  // epoch_ of that attempt
  };
  std::map<std::pair<int, int>, Warp> warps;
  std::map<std::pair<uint32_t, int>, int> wait_total, released;
  std::map<std::tuple<int, uint32_t, int>, uint32_t> armed;
  std::vector<uint64_t> sil_first(static_cast<size_t>(cluster_size_), UINT64_MAX),
      sil_last(static_cast<size_t>(cluster_size_), 0),
      sim_first(static_cast<size_t>(cluster_size_), UINT64_MAX),
      sim_last(static_cast<size_t>(cluster_size_), 0);
  for (const Rec* r : recs) {
    warps[{r->rank, r->warp}].recs.push_back(r);
    if (r->kind == RK::kWait)
      ++wait_total[{r->mbar, r->phase}];
    const size_t rk = static_cast<size_t>(r->rank);
    if (rk < sil_first.size()) {
      if (r->kind == RK::kLoad)
        sil_first[rk] = std::min(sil_first[rk], r->t);
      if (r->kind == RK::kWait)
        sil_last[rk] = std::max(sil_last[rk], r->t_done);
    }
  }
  struct Release {
    uint32_t mbar;
    int phase;
    uint32_t rank, addr, bytes;
    bool skip_checker;
  };
  std::multimap<uint64_t, Release> releases;
  auto can_produce = [&](const Rec* r) {
    if (r->phase == 0)
      return true;
    const auto key = std::make_pair(r->mbar, r->phase - 1);
    auto t = wait_total.find(key);
    if (t == wait_total.end())
      return true;
    auto d = released.find(key);
    return d != released.end() && d->second >= t->second;
  };
  auto timed_call = [&](auto&& fn) {
    if (opt_.mode != OTMA_MODE_FUNCTIONAL) {
      fn();
      return;
    }
    const double t0 = CpuNow();
    fn();
    res_.engine_seconds += CpuNow() - t0;
  };
  uint64_t last_progress = 0;
  const uint64_t kHang = 2000000;
  for (;;) {
    // Releases and memory responses due now.
    while (!releases.empty() && releases.begin()->first <= now_) {
      const Release& rl = releases.begin()->second;
      ++epoch_;
      ++released[{rl.mbar, rl.phase}];
      if (ck_ != nullptr && !rl.skip_checker)
        otma_checker_release(ck_, rl.rank, rl.addr, rl.bytes);
      releases.erase(releases.begin());
    }
    for (auto& sm : sms_) {
      sm->accepted = 0;
      while (!sm->inflight.empty() && sm->inflight.front().first <= now_) {
        const uint64_t tag = sm->inflight.front().second;
        ++epoch_;
        sm->inflight.pop_front();
        sm->port->MemResp(tag, OTMA_OK);
      }
    }
    bool all_done = true;
    for (auto& [key, w] : warps) {
      Sm& sm = *sms_[static_cast<size_t>(key.first)];
      while (w.pc < w.recs.size() && w.busy <= now_) {
        const Rec* r = w.recs[w.pc];
        bool blocked = false;
        switch (r->kind) {
          case RK::kArm: {
            if (!can_produce(r)) {
              blocked = true;
              break;
            }
            Bar& b = bars_[{static_cast<uint32_t>(r->rank), r->mbar}];
            if (!b.mb.initialized())
              b.mb.Init(1);
            b.mb.ArriveExpectTx(r->expect_tx);
            armed[{r->rank, r->mbar, r->phase}] = r->expect_tx;
            if (ck_ != nullptr) {
              otma_checker_arrive_expect_tx(ck_, static_cast<uint32_t>(r->rank), r->mbar,
                                            r->expect_tx);
            }
            ++w.pc;
            break;
          }
          case RK::kLoad:
          case RK::kStore: {
            if (r->kind == RK::kLoad && r->op.kind == OTMA_OP_TENSOR_LOAD && !can_produce(r)) {
              blocked = true;
              break;
            }
            if (r->kind == RK::kStore && r->have_src) {
              SWrite(static_cast<uint32_t>(r->rank), r->op.smem_addr, r->src.data(),
                     static_cast<uint32_t>(r->src.size()));
              res_.tensor_bytes -= r->src.size();  // the consumer's write, not the engine's
            }
            otma_token t = 0;
            otma_status st = OTMA_OK;
            ++res_.executed;
            sm.submitting = r;
            timed_call([&] { st = sm.port->Submit(r->op, &t); });
            sm.submitting = nullptr;
            if (st == OTMA_E_BUSY) {
              --res_.executed;
              w.busy = now_ + 1;
              blocked = true;
              break;
            }
            sm.ops[t] = r;
            tok_rec_[{r->rank, t}] = r;
            if (st != OTMA_OK && t == 0) {
              ++res_.faults;
            }
            if (r->kind == RK::kLoad) {
              const size_t rk = static_cast<size_t>(r->rank);
              sim_first[rk] = std::min(sim_first[rk], now_);
            }
            ++w.pc;
            w.busy = now_ + issue_cost;
            break;
          }
          case RK::kWait: {
            const bool skip = faulted_.count({r->mbar, r->phase}) > 0;
            Bar& b = bars_[{static_cast<uint32_t>(r->rank), r->mbar}];
            const bool done = b.mb.initialized() && b.mb.phase() > static_cast<uint64_t>(r->phase);
            if (!skip && !done) {
              blocked = true;
              break;
            }
            if (skip) {
              ++res_.waits_skipped;
            } else if (!r->stage_sha.empty()) {
              ++res_.waits;
              const std::vector<uint8_t>& wdata = win_[static_cast<size_t>(r->rank)];
              const std::string sha =
                  r->stage_addr + static_cast<uint64_t>(r->stage_bytes) <= kWindow
                      ? m::Sha256Hex(wdata.data() + r->stage_addr, r->stage_bytes)
                      : "";
              if (sha == r->stage_sha) {
                ++res_.waits_ok;
              } else {
                Mismatch("wait seq " + std::to_string(r->seq) + " (rank " +
                         std::to_string(r->rank) + ", mbar +" + std::to_string(r->mbar) +
                         ", phase " + std::to_string(r->phase) + "): stage " + sha +
                         " != silicon " + r->stage_sha);
              }
            }
            const uint64_t hold = timed && r->t_release > r->t_done ? r->t_release - r->t_done : 0;
            const bool skip_ck = opt_.mutate == "skip_release" && r->seq == mutated_seq_;
            releases.emplace(now_ + ok_cost + hold,
                             Release{r->mbar, r->phase, static_cast<uint32_t>(r->rank),
                                     r->stage_addr, r->stage_bytes, skip_ck});
            sim_last[static_cast<size_t>(r->rank)] =
                std::max(sim_last[static_cast<size_t>(r->rank)], now_);
            ++w.pc;
            w.busy = now_ + ok_cost + hold;  // the consumer works on the stage until it releases
            break;
          }
          case RK::kCommit:
            sm.port->BulkCommit(static_cast<uint32_t>(r->warp));
            ++w.pc;
            break;
          case RK::kWaitGroup:
            if (!sm.port->BulkWait(static_cast<uint32_t>(r->warp), r->n, r->read)) {
              blocked = true;
              break;
            }
            ++w.pc;
            break;
          default:
            ++w.pc;
        }
        w.blocked = blocked;
        w.blocked_epoch = epoch_;
        if (blocked) {
          if (w.busy <= now_)
            w.busy = now_ + retry_cost;
          break;
        }
        last_progress = now_;
        ++epoch_;
      }
      if (w.pc < w.recs.size())
        all_done = false;
    }
    bool engines_busy = false;
    uint64_t nxt = UINT64_MAX;
    for (auto& sm : sms_) {
      const uint64_t ne = sm->port->NextEvent();
      if (ne != UINT64_MAX) {
        engines_busy = true;
        nxt = std::min(nxt, now_ + std::max<uint64_t>(ne, 1));
      }
      if (!sm->inflight.empty()) {
        engines_busy = true;
        nxt = std::min(nxt, std::max(sm->inflight.front().first, now_ + 1));
      }
    }
    if (all_done && !engines_busy && releases.empty())
      break;
    if (trapped_)
      break;
    for (auto& [key, w] : warps) {
      if (w.pc < w.recs.size())
        nxt = std::min(nxt, std::max(w.busy, now_ + 1));
    }
    if (!releases.empty())
      nxt = std::min(nxt, std::max(releases.begin()->first, now_ + 1));
    bool all_blocked = true;
    for (auto& [key, w] : warps) {
      if (w.pc < w.recs.size() && (!w.blocked || w.blocked_epoch != epoch_))
        all_blocked = false;
    }
    if (nxt == UINT64_MAX || now_ - last_progress > kHang ||
        (all_blocked && !engines_busy && releases.empty())) {
      res_.hang = true;
      Mismatch("no progress: the replay hangs at cycle " + std::to_string(now_));
      break;
    }
    const uint64_t step = nxt - now_;
    now_ = nxt;
    for (auto& sm : sms_) {
      sm->port->Tick(step);
    }
  }
  if (ck_ != nullptr) {
    otma_checker_finish(ck_);
  }
  // A3: per barrier phase, the complete-tx sum equals the kernel's expect_tx (every rank).
  for (const auto& [key, tx] : armed) {
    const auto [rank, mb, phase] = key;
    if (faulted_.count({mb, phase}))
      continue;
    ++res_.phases;
    const Bar& b = bars_[{static_cast<uint32_t>(rank), mb}];
    auto it = b.tx.find(phase);
    const int64_t got = it == b.tx.end() ? 0 : it->second;
    if (got == tx) {
      ++res_.phases_ok;
    } else {
      Mismatch("rank " + std::to_string(rank) + " mbar +" + std::to_string(mb) + " phase " +
               std::to_string(phase) + ": complete-tx " + std::to_string(got) + " != expect_tx " +
               std::to_string(tx));
    }
  }
  if (timed) {
    for (size_t k = 0; k < sil_first.size(); ++k) {
      if (sil_first[k] != UINT64_MAX && sil_last[k] > sil_first[k] && sim_first[k] != UINT64_MAX &&
          sim_last[k] > sim_first[k]) {
        ratios_.push_back(static_cast<double>(sim_last[k] - sim_first[k]) /
                          static_cast<double>(sil_last[k] - sil_first[k]));
      }
    }
  }
  res_.sim_cycles += now_;
  if (opt_.mode != OTMA_MODE_FUNCTIONAL)
    res_.engine_seconds = engine0 + (CpuNow() - cpu0);
  sms_.clear();
  if (ck_ != nullptr) {
    for (uint32_t c = 1; c < OTMA_CHK_NUM_CLASSES; ++c)
      (void)c;
    otma_checker_destroy(ck_);
    ck_ = nullptr;
  }
}

// ---- the direct port: the C ABI --------------------------------------------------------------
class DirectPort : public EnginePort {
 public:
  explicit DirectPort(otma_engine* e) : e_(e) {}
  ~DirectPort() override { otma_destroy(e_); }
  otma_status Submit(const otma_op& op, otma_token* t) override { return otma_submit(e_, &op, t); }
  void Tick(uint64_t n) override { otma_tick(e_, n); }
  uint64_t NextEvent() override { return otma_next_event(e_); }
  otma_status MemResp(uint64_t tag, otma_status st) override { return otma_mem_resp(e_, tag, st); }
  void BulkCommit(uint32_t warp) override { otma_bulk_commit(e_, warp); }
  bool BulkWait(uint32_t warp, uint32_t n, bool read) override {
    return otma_bulk_wait(e_, warp, n, read ? 1 : 0) != 0;
  }
  uint64_t Cycle() override { return otma_cycle(e_); }

 private:
  otma_engine* e_;
};

}  // namespace

std::unique_ptr<EnginePort> MakeDirectPort(const otma_config& cfg, const otma_host& host,
                                           uint32_t rank, const MemoryView& mem, std::string* err) {
  (void)rank;
  (void)mem;
  otma_engine* e = nullptr;
  const otma_status st = otma_create(&cfg, &host, &e);
  if (st != OTMA_OK) {
    *err = otma_status_str(st);
    return nullptr;
  }
  return std::make_unique<DirectPort>(e);
}

bool Result::ok() const {
  return !hang && faults == 0 && waits_ok == waits && phases_ok == phases && finals_ok == finals &&
         check_reports == 0 && mismatches.empty();
}

bool ReplayTrace(const std::string& path, const Options& opt, Result* out, std::string* err) {
  const auto t0 = std::chrono::steady_clock::now();
  *out = Result{};
  out->file = path;
  Replay r(opt, out);
  if (!r.Load(path, err))
    return false;
  out->mutated_seq = r.mutated_seq();
  r.Run();
  out->wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return true;
}

void PrintSummary(const std::vector<Result>& rs, const Options& opt, std::ostream& os) {
  const char* mode = opt.mode == OTMA_MODE_FUNCTIONAL ? "functional"
                     : opt.mode == OTMA_MODE_TIMED    ? "timed"
                                                      : "rtl";
  os << "tma cosim: mode " << mode << ", port " << opt.port_name
     << (opt.check ? ", checker on" : "") << "\n";
  os << std::left << std::setw(22) << "trace" << std::right << std::setw(6) << "ops" << std::setw(7)
     << "mcast" << std::setw(7) << "im2col" << std::setw(5) << "oob" << std::setw(6) << "store"
     << std::setw(6) << "red" << std::setw(7) << "groups" << std::setw(6) << "skip" << std::setw(12)
     << "stage hash" << std::setw(12) << "tx phases" << std::setw(8) << "finals" << std::setw(7)
     << "check" << std::setw(12) << "cycles" << std::setw(9) << "GB/s"
     << "  verdict\n";
  for (const Result& r : rs) {
    std::string name = r.file.substr(r.file.find_last_of('/') + 1);
    std::ostringstream hs, ps, fs;
    hs << r.waits_ok << "/" << r.waits;
    ps << r.phases_ok << "/" << r.phases;
    fs << r.finals_ok << "/" << r.finals;
    const double gbs = r.engine_seconds > 0 ? r.tensor_bytes / r.engine_seconds / 1e9 : 0;
    os << std::left << std::setw(22) << name << std::right << std::setw(6) << r.ops << std::setw(7)
       << r.multicast << std::setw(7) << r.im2col << std::setw(5) << r.oob_ops << std::setw(6)
       << r.stores << std::setw(6) << r.reduces << std::setw(7) << r.groups << std::setw(6)
       << r.skipped << std::setw(12) << hs.str() << std::setw(12) << ps.str() << std::setw(8)
       << fs.str() << std::setw(7) << r.check_reports << std::setw(12) << r.sim_cycles
       << std::setw(9) << std::fixed << std::setprecision(2) << gbs << "  "
       << (r.ok() ? "PASS" : "FAIL") << (r.timing_capture ? " (timing capture)" : "")
       << (r.hang ? " HANG" : "") << "\n";
    if (r.timeline_ratio_median > 0) {
      os << "    timeline (first load issue -> last consumer wait, per CTA): simulated / silicon "
         << std::setprecision(3) << r.timeline_ratio_median << " median, " << r.timeline_ratio_min
         << " .. " << r.timeline_ratio_max << "\n";
    }
    if (opt.mode == OTMA_MODE_RTL && r.engine_seconds > 0) {
      os << "    rtl: " << r.sim_cycles << " cycles in " << std::setprecision(2) << r.engine_seconds
         << " s CPU: " << std::setprecision(0) << r.sim_cycles / r.engine_seconds
         << " cycles/s (all engines of a cluster clocked together)\n";
    }
    if (r.skipped > 0) {
      os << "    " << r.skipped << " ops skipped (not implemented by this mode); "
         << r.waits_skipped << " waits and " << r.finals_skipped
         << " final buffers depending on them not compared\n";
    }
    for (const std::string& m : r.mismatches)
      os << "    " << m << "\n";
  }
}

}  // namespace otma_trace
