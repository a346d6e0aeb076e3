// SPDX-License-Identifier: Apache-2.0
//
// A5: the trace host's rules (cosim/host, `tma cosim`), each test named after the Accel-Sim 2.0
// function whose rule it mirrors (shared/research/cosim.md §1, docs/cosim/accel-sim.md). The
// host replays a small SYNTHETIC otma-trace v1 file written here (a 2-CTA cluster: a multicast
// tile load of 128 bytes into both CTAs, a narrow box of 16-byte rows at a 128-byte stride, a
// wide box of two 256-byte rows, a tensor store in a bulk group waited with wait_group.read
// and wait_group) through a spy port
// that forwards every call and callback to a real engine and records them:
//   * MemoryCoalescingArch (warp_inst_t::memory_coalescing_arch): requests are 32-byte
//     sectors, 32-byte aligned, and per op exactly the sectors otma_expand lists;
//   * LdstUnitMemoryCycle (ldst_unit::memory_cycle, l1_banks = 4): at most 4 requests accepted
//     per SM per cycle, a refusal only after 4, every request accepted once (RTL: the wide
//     box's bursts offer 8 in a cycle, so refusals happen and are retried);
//   * LdstUnitMbarrierCompleteTx (ldst_unit::mbarrier_complete_tx with
//     lookup_clustermbars_by_offset): a multicast signals the mbarrier at the same offset in
//     every CTA of the mask, the box bytes each; the per-phase sums equal expect_tx;
//   * NarrowBox (the over-credit risk of cosim.md §1.4): a box of 16-byte rows at a 128-byte
//     stride fetches four 32-byte sectors (128 bytes) and credits the 64 payload bytes;
//   * CommitTmaGroup (shd_warp_t bulk groups: commit_tma_group, m_waiting_tma_bulk_group):
//     wait_group.read returns at or after the store's READ_DONE and wait_group at or after its
//     DONE, never before;
//   * CheckTrywaitReady (gpgpu_trywait_retry_cycles): a blocked wait (the store's wait_group)
//     is polled again every trywait_retry cycles (TIMED) and succeeds within one retry of the
//     event.
// TIMED mode, and RTL mode with the host's memory (--host-memory), where the requests are the
// Verilated engine's AXI bursts.
#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <tuple>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

#include "calibration.h"
#include "replay.h"
#include "synth_trace.h"
#include "test_host.h"
#include "tma/golden.h"

namespace {

using nlohmann::json;
namespace m = tma::model;

constexpr uint64_t kIn = cosim_test::kSynthIn, kOut = cosim_test::kSynthOut;
constexpr uint32_t kMcMbar = 8192, kNarrowMbar = 8200, kWideMbar = 8208, kMcStage = 1024,
                   kNarrowStage = 2048, kWideStage = 2560;
// rank 0's ops in issue order (tokens): the multicast, the narrow box, the wide box, the store.
constexpr otma_token kMcOp = 1, kNarrowOp = 2, kStoreOp = 4;
constexpr int kStoreWarp = 2;

// ---- the spy port ------------------------------------------------------------------------------
struct Spy {
  otma_host orig{};
  otma_engine* e = nullptr;
  uint32_t rank = 0;
  struct Req {
    uint64_t cycle;
    otma_mem_req r;
    int rc;
  };
  std::vector<Req> reqs;
  std::vector<std::tuple<otma_token, uint32_t, uint32_t, uint32_t>> tx;  // (op, rank, mbar, bytes)
  std::map<otma_token, otma_op> ops;
  std::map<otma_token, std::vector<uint8_t>> descs;
  std::map<std::pair<otma_token, uint32_t>, uint64_t> events;  // (op, event) -> cycle
  struct Wait {
    uint64_t cycle;
    uint32_t n;
    bool read, ok;
  };
  std::vector<Wait> waits;
  otma_token current = 0;  // the op whose submit is running (complete_tx inside it)
  std::map<uint32_t, otma_token> last_load_to_mbar;
};
std::vector<std::unique_ptr<Spy>> g_spies;

class SpyPort : public otma_trace::EnginePort {
 public:
  explicit SpyPort(Spy* s) : s_(s) {}
  ~SpyPort() override { otma_destroy(s_->e); }
  otma_status Submit(const otma_op& op, otma_token* t) override {
    const otma_status st = otma_submit(s_->e, &op, t);
    if (*t != 0) {
      s_->ops[*t] = op;
      s_->descs[*t].assign(op.desc_bytes, op.desc_bytes + 128);
      if (op.kind == OTMA_OP_TENSOR_LOAD)
        s_->last_load_to_mbar[op.mbar_addr] = *t;
    }
    return st;
  }
  void Tick(uint64_t n) override { otma_tick(s_->e, n); }
  uint64_t NextEvent() override { return otma_next_event(s_->e); }
  otma_status MemResp(uint64_t tag, otma_status st) override {
    return otma_mem_resp(s_->e, tag, st);
  }
  void BulkCommit(uint32_t warp) override { otma_bulk_commit(s_->e, warp); }
  bool BulkWait(uint32_t warp, uint32_t n, bool read) override {
    const bool ok = otma_bulk_wait(s_->e, warp, n, read ? 1 : 0) != 0;
    s_->waits.push_back({otma_cycle(s_->e), n, read, ok});
    return ok;
  }
  uint64_t Cycle() override { return otma_cycle(s_->e); }

 private:
  Spy* s_;
};

std::unique_ptr<otma_trace::EnginePort> MakeSpyPort(const otma_config& cfg, const otma_host& host,
                                                    uint32_t rank, const otma_trace::MemoryView&,
                                                    std::string* err) {
  g_spies.push_back(std::make_unique<Spy>());
  Spy* s = g_spies.back().get();
  s->orig = host;
  s->rank = rank;
  otma_host h = host;
  h.user = s;
  h.gmem_read = [](void* u, uint64_t a, void* d, uint32_t n) {
    const Spy* s2 = static_cast<Spy*>(u);
    return s2->orig.gmem_read(s2->orig.user, a, d, n);
  };
  h.gmem_write = [](void* u, uint64_t a, const void* d, uint32_t n) {
    const Spy* s2 = static_cast<Spy*>(u);
    return s2->orig.gmem_write(s2->orig.user, a, d, n);
  };
  h.smem_read = [](void* u, uint32_t r, uint32_t a, void* d, uint32_t n) {
    const Spy* s2 = static_cast<Spy*>(u);
    return s2->orig.smem_read(s2->orig.user, r, a, d, n);
  };
  h.smem_write = [](void* u, uint32_t r, uint32_t a, const void* d, uint32_t n) {
    const Spy* s2 = static_cast<Spy*>(u);
    return s2->orig.smem_write(s2->orig.user, r, a, d, n);
  };
  h.complete_tx = [](void* u, uint32_t r, uint32_t mb, uint32_t b) {
    Spy* s2 = static_cast<Spy*>(u);
    auto it = s2->last_load_to_mbar.find(mb);
    s2->tx.emplace_back(it == s2->last_load_to_mbar.end() ? 0 : it->second, r, mb, b);
    s2->orig.complete_tx(s2->orig.user, r, mb, b);
  };
  h.op_done = [](void* u, otma_token t, uint32_t ev, otma_status st) {
    Spy* s2 = static_cast<Spy*>(u);
    s2->events.emplace(std::make_pair(t, ev), otma_cycle(s2->e));
    s2->orig.op_done(s2->orig.user, t, ev, st);
  };
  if (host.mem_req != nullptr) {
    h.mem_req = [](void* u, const otma_mem_req* q) {
      Spy* s2 = static_cast<Spy*>(u);
      const int rc = s2->orig.mem_req(s2->orig.user, q);
      s2->reqs.push_back({otma_cycle(s2->e), *q, rc});
      return rc;
    };
  }
  if (host.log != nullptr) {
    h.log = [](void* u, int level, const char* msg) {
      const Spy* s2 = static_cast<Spy*>(u);
      s2->orig.log(s2->orig.user, level, msg);
    };
  }
  if (otma_create(&cfg, &h, &s->e) != OTMA_OK) {
    *err = "otma_create failed";
    return nullptr;
  }
  return std::make_unique<SpyPort>(s);
}

// ---- the synthetic trace ----------------------------------------------------------------------
std::string WriteTrace() {
  const std::string path =
      std::string(::testing::TempDir()) + "otma_accel_sim_" + std::to_string(::getpid()) + ".jsonl";
  const std::vector<uint8_t> in = cosim_test::SynthIn();
  // IN seen three ways: {64, 16} at a 64-byte pitch (the multicast box {32, 4}), {128, 8} at a
  // 128-byte pitch (the narrow box {16, 4}: 16-byte rows, 128-byte stride) and {256, 4} (the
  // wide box {256, 2}).
  const auto map_mc = cosim_test::Map2D(kIn, 0, 64, 16, 64, 32, 4);
  const auto map_nb = cosim_test::Map2D(kIn, 0, 128, 8, 128, 16, 4);
  const auto map_wide = cosim_test::Map2D(kIn, 0, 256, 4, 256, 256, 2);
  const auto map_out = cosim_test::Map2D(kOut, 0, 64, 8, 64, 32, 4);
  std::ofstream f(path);
  f << cosim_test::SynthHeader("synthetic_accel_sim_contract",
                               "tests/cosim/accel_sim_contract_test.cc", 2, 96)
           .dump()
    << "\n";
  cosim_test::SynthRecords rec;
  auto hash = [](const std::vector<uint8_t>& v) { return m::Sha256Hex(v.data(), v.size()); };
  auto arm = [&](int rank, uint32_t mbar, uint32_t tx) {
    json a = rec.Base("arm", rank, 0);
    a.update({{"mbar_addr", mbar}, {"phase", 0}, {"expect_tx", tx}});
    f << a.dump() << "\n";
  };
  // A load by rank 0's warp 0 on `mbar`, phase 0 (cluster: the cluster operand's record).
  auto load = [&](json r, uint32_t mbar, const json& cluster, const char* ptx) {
    r.update({{"mbar_addr", mbar}, {"phase", 0}, {"cluster", cluster}, {"ptx", ptx}});
    f << r.dump() << "\n";
  };
  // Both CTAs arm their barrier for the multicast's 128 bytes; rank 0 issues it.
  arm(0, kMcMbar, 128);
  arm(1, kMcMbar, 128);
  load(rec.Tile("load", 0, 0, map_mc, 64, 16, 64, 32, 4, {32, 4}, kMcStage, 128), kMcMbar,
       {{"ctas", 2}, {"issuer", 0}, {"cta_mask", 3}},
       "cp.async.bulk.tensor.2d.shared::cluster.global.tile.multicast::cluster");
  std::vector<uint8_t> mc_stage(128);
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 32; ++x)
      mc_stage[static_cast<size_t>(32 * y + x)] = in[static_cast<size_t>(64 * (4 + y) + 32 + x)];
  }
  const json one = {{"ctas", 2}, {"issuer", 0}};
  const char* tile = "cp.async.bulk.tensor.2d.shared::cluster.global.tile";
  // The narrow box on rank 0: rows 2..5, columns 16..31 of the 128-byte-pitch view.
  arm(0, kNarrowMbar, 64);
  load(rec.Tile("load", 0, 0, map_nb, 128, 8, 128, 16, 4, {16, 2}, kNarrowStage, 64), kNarrowMbar,
       one, tile);
  std::vector<uint8_t> nb_stage(64);
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 16; ++x)
      nb_stage[static_cast<size_t>(16 * y + x)] = in[static_cast<size_t>(128 * (2 + y) + 16 + x)];
  }
  // The wide box on rank 0: rows 1..2 of the 256-byte-pitch view, 256 bytes each.
  arm(0, kWideMbar, 512);
  load(rec.Tile("load", 0, 0, map_wide, 256, 4, 256, 256, 2, {0, 1}, kWideStage, 512), kWideMbar,
       one, tile);
  const std::vector<uint8_t> wide_stage(in.begin() + 256, in.begin() + 768);
  auto wait = [&](int rank, uint32_t mbar, uint32_t stage, const std::vector<uint8_t>& bytes) {
    json w = rec.Base("wait", rank, 1);
    w.update({{"mbar_addr", mbar},
              {"phase", 0},
              {"t_start", rec.t},
              {"t_done", rec.t + 5},
              {"t_release", rec.t + 50},
              {"stage_addr", stage},
              {"stage_bytes", bytes.size()},
              {"stage_sha256", hash(bytes)}});
    f << w.dump() << "\n";
  };
  wait(0, kMcMbar, kMcStage, mc_stage);
  wait(1, kMcMbar, kMcStage, mc_stage);
  wait(0, kNarrowMbar, kNarrowStage, nb_stage);
  wait(0, kWideMbar, kWideStage, wide_stage);
  // Epilogue: rank 0's warp 2 stores 128 bytes as box {32, 4} at {32, 2} of OUT in group 0.
  std::vector<uint8_t> src(128);
  for (int k = 0; k < 128; ++k)
    src[static_cast<size_t>(k)] = static_cast<uint8_t>(3 * k + 1);
  json st = rec.Tile("store", 0, kStoreWarp, map_out, 64, 8, 64, 32, 4, {32, 2}, 4096, 128);
  st.update({{"group", 0}, {"src_hex", m::ToHex(src.data(), 128)}, {"src_sha256", hash(src)}});
  f << st.dump() << "\n";
  json cm = rec.Base("commit", 0, kStoreWarp);
  cm["group"] = 0;
  f << cm.dump() << "\n";
  for (const bool read : {true, false}) {
    json wg = rec.Base("wait_group", 0, kStoreWarp);
    wg.update({{"n", 0}, {"read", read}, {"t_start", rec.t}, {"t_done", rec.t + 100}});
    f << wg.dump() << "\n";
  }
  std::vector<uint8_t> out(512, 0);
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 32; ++x)
      out[static_cast<size_t>(64 * (2 + y) + 32 + x)] = src[static_cast<size_t>(32 * y + x)];
  }
  f << cosim_test::SynthFinal("IN", in).dump() << "\n";
  f << cosim_test::SynthFinal("OUT", out).dump() << "\n";
  return path;
}

// Replays the synthetic trace in `mode` through spy ports (one per CTA); the replay must pass.
void Replay(uint32_t mode) {
  g_spies.clear();
  const std::string path = WriteTrace();
  otma_trace::Options opt;
  opt.mode = mode;
  opt.check = true;
  opt.host_memory = true;  // RTL: the Verilated engine's bursts through the host's memory
  opt.port = MakeSpyPort;
  opt.port_name = "spy";
  otma_trace::Result res;
  std::string err;
  ASSERT_TRUE(otma_trace::ReplayTrace(path, opt, &res, &err)) << err;
  std::remove(path.c_str());
  for (const std::string& s : res.mismatches)
    ADD_FAILURE() << s;
  EXPECT_TRUE(res.ok());
  EXPECT_FALSE(res.hang);
  EXPECT_EQ(res.skipped, 0u);
  EXPECT_EQ(res.waits_ok, 4u);
  EXPECT_EQ(res.phases, 4u);
  EXPECT_EQ(res.phases_ok, 4u);
  EXPECT_EQ(res.check_reports, 0u);
  ASSERT_EQ(g_spies.size(), 2u);
}

// The sectors otma_expand lists for `op` (descriptor bytes `desc`).
std::set<uint64_t> ExpandSectors(otma_op op, const std::vector<uint8_t>& desc) {
  cosim_test::TestHost x(0, 0, 2, 8192);
  EXPECT_EQ(x.Create(OTMA_MODE_FUNCTIONAL), OTMA_OK);
  op.desc_bytes = desc.data();
  std::vector<otma_mem_req> req(256);
  uint32_t n = 0;
  EXPECT_EQ(otma_expand(x.e(), &op, req.data(), 256, &n, nullptr, nullptr), OTMA_OK);
  std::set<uint64_t> s;
  for (uint32_t i = 0; i < n && i < 256; ++i)
    s.insert(req[i].addr);
  return s;
}

class AccelSimContract : public ::testing::TestWithParam<uint32_t> {
 protected:
  void SetUp() override { Replay(GetParam()); }
  void TearDown() override { g_spies.clear(); }
  Spy& rank(int r) { return *g_spies[static_cast<size_t>(r)]; }
};

TEST_P(AccelSimContract, MemoryCoalescingArch_RequestsAreTheOpsThirtyTwoByteSectors) {
  std::map<otma_token, std::set<uint64_t>> got;
  for (const Spy::Req& q : rank(0).reqs) {
    if (q.r.kind == OTMA_REQ_DESC || q.rc != 0)
      continue;
    EXPECT_EQ(q.r.size, 32u);
    EXPECT_EQ(q.r.addr % 32, 0u);
    got[q.r.op].insert(q.r.addr);
  }
  ASSERT_EQ(rank(0).ops.size(), 4u);  // multicast, narrow box, wide box, store
  for (const auto& [t, op] : rank(0).ops)
    EXPECT_EQ(got[t], ExpandSectors(op, rank(0).descs[t])) << "op " << t;
  EXPECT_TRUE(rank(1).reqs.empty());  // rank 1 issues nothing
}

TEST_P(AccelSimContract, LdstUnitMemoryCycle_AtMostFourRequestsPerSmPerCycle) {
  int refusals = 0;
  for (int r = 0; r < 2; ++r) {
    std::map<uint64_t, int> accepted;
    std::map<uint64_t, int> tries;  // per tag
    for (const Spy::Req& q : rank(r).reqs) {
      ++tries[q.r.tag];
      if (q.rc == 0) {
        ++accepted[q.cycle];
      } else {
        EXPECT_EQ(accepted[q.cycle], 4) << "a refusal before the cycle's 4th request";
      }
    }
    for (const auto& [cycle, n] : accepted)
      EXPECT_LE(n, 4) << "cycle " << cycle;
    std::set<uint64_t> once;
    for (const Spy::Req& q : rank(r).reqs) {
      if (q.rc == 0) {
        EXPECT_TRUE(once.insert(q.r.tag).second) << "tag " << q.r.tag << " accepted twice";
      } else {
        ++refusals;
      }
    }
    EXPECT_EQ(once.size(), tries.size()) << "a refused request never accepted";
  }
  // RTL: the wide box's 256-byte bursts offer 8 sectors in one cycle, so the limit is met (the
  // TIMED engine's address generator offers at most 4 per cycle itself).
  if (GetParam() == OTMA_MODE_RTL) {
    EXPECT_GT(refusals, 0);
  }
}

TEST_P(AccelSimContract, LdstUnitMbarrierCompleteTx_MulticastFansOutByOffset) {
  // The multicast: one complete_tx per CTA of the mask, at the same
  // mbarrier offset, the whole box each; rank 1's engine signals nothing (it issued nothing).
  std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> mc;
  for (const auto& [t, r, mb, b] : rank(0).tx) {
    if (t == kMcOp)
      mc.emplace_back(r, mb, b);
  }
  std::sort(mc.begin(), mc.end());
  const std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> want = {{0, kMcMbar, 128},
                                                                      {1, kMcMbar, 128}};
  EXPECT_EQ(mc, want);
  EXPECT_TRUE(rank(1).tx.empty());
}

TEST_P(AccelSimContract, NarrowBox_CreditsThePayloadNotTheSectors) {
  // The narrow box: 4 rows of 16 bytes at a 128-byte stride = four 32-byte sectors fetched
  // (128 bytes), 64 bytes credited.
  uint64_t credited = 0;
  for (const auto& [t, r, mb, b] : rank(0).tx) {
    if (t == kNarrowOp) {
      EXPECT_EQ(mb, kNarrowMbar);
      credited += b;
    }
  }
  EXPECT_EQ(credited, 64u);
  std::set<uint64_t> sectors;
  for (const Spy::Req& q : rank(0).reqs) {
    if (q.r.op == kNarrowOp && q.rc == 0 && q.r.kind == OTMA_REQ_READ)
      sectors.insert(q.r.addr);
  }
  const std::set<uint64_t> want = {kIn + 128 * 2, kIn + 128 * 3, kIn + 128 * 4, kIn + 128 * 5};
  EXPECT_EQ(sectors, want);
}

TEST_P(AccelSimContract, CommitTmaGroup_WaitGroupReturnsAfterReadDoneAndDone) {
  // The store (warp 2, group 0).
  const Spy& s = rank(0);
  const auto rd = s.events.find({kStoreOp, OTMA_EV_READ_DONE});
  const auto dn = s.events.find({kStoreOp, OTMA_EV_DONE});
  ASSERT_NE(rd, s.events.end());
  ASSERT_NE(dn, s.events.end());
  EXPECT_LE(rd->second, dn->second);
  bool read_ok = false, all_ok = false;
  for (const Spy::Wait& w : s.waits) {
    if (w.read) {
      EXPECT_EQ(w.ok, w.cycle >= rd->second) << "wait_group.read at cycle " << w.cycle;
      read_ok |= w.ok;
    } else {
      EXPECT_EQ(w.ok, w.cycle >= dn->second) << "wait_group at cycle " << w.cycle;
      all_ok |= w.ok;
    }
  }
  EXPECT_TRUE(read_ok);
  EXPECT_TRUE(all_ok);
}

TEST_P(AccelSimContract, CheckTrywaitReady_BlockedWaitsRetryEveryTrywaitRetryCycles) {
  // The polls of the store's wait_group (its writes wait for the memory's answers): in TIMED
  // each failed poll is followed by the next one trywait_retry cycles later (RTL: every
  // cycle), and the first successful poll comes at most one retry after DONE.
  const uint64_t retry =
      GetParam() == OTMA_MODE_TIMED ? otma_impl::DefaultCalibration().trywait_retry : 1;
  const Spy& s = rank(0);
  const uint64_t dn = s.events.at({kStoreOp, OTMA_EV_DONE});
  std::vector<Spy::Wait> polls;
  for (const Spy::Wait& w : s.waits) {
    if (!w.read)
      polls.push_back(w);
  }
  ASSERT_GE(polls.size(), 2u) << "the wait was never blocked";
  for (size_t i = 0; i + 1 < polls.size(); ++i) {
    EXPECT_FALSE(polls[i].ok);
    EXPECT_EQ(polls[i + 1].cycle - polls[i].cycle, retry);
  }
  EXPECT_TRUE(polls.back().ok);
  EXPECT_LE(polls.back().cycle, dn + retry);
}

// RTL only where the library has it (built with the testbench).
INSTANTIATE_TEST_SUITE_P(Modes, AccelSimContract,
                         ::testing::Values(static_cast<uint32_t>(OTMA_MODE_TIMED)
#ifdef OTMA_TEST_HAVE_RTL
                                               ,
                                           static_cast<uint32_t>(OTMA_MODE_RTL)
#endif
                                               ),
                         [](const ::testing::TestParamInfo<uint32_t>& i) {
                           return std::string(i.param == OTMA_MODE_TIMED ? "timed" : "rtl");
                         });

}  // namespace
