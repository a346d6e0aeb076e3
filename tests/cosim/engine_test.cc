// SPDX-License-Identifier: Apache-2.0
//
// The engine through the C ABI: every op kind of the seeds in FUNCTIONAL and TIMED mode with
// values derived by hand in each test, bulk-group bookkeeping, tensormap.replace on a map in
// memory, the fault classes (A8: an op mutated into each class answers that class, in every
// mode, and nothing hangs), and two engines on two threads against a serial run (A9).
#include <cstring>
#include <set>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "test_host.h"

namespace {

using cosim_test::Load2D;
using cosim_test::Map2D;
using cosim_test::TestHost;

constexpr uint64_t kBase = 0x20000;
constexpr uint32_t kU8 = 0, kU32 = 2, kBf16 = 9;

// Global byte i = (i * 13 + 5) & 0xff.
void FillPattern(std::vector<uint8_t>& g) {
  for (size_t i = 0; i < g.size(); ++i)
    g[i] = static_cast<uint8_t>((i * 13 + 5) & 0xff);
}
uint8_t Pat(uint64_t i) {
  return static_cast<uint8_t>((i * 13 + 5) & 0xff);
}

void Drive(TestHost& h) {
  otma_drain(h.e());
}

class Modes : public ::testing::TestWithParam<uint32_t> {};

// A multicast 2-D u8 load, box {32, 4} at {16, 1} of a {64, 8} tensor (pitch 64): both CTAs of
// the mask get rows y = 1..4, bytes [64*y + 16, 64*y + 48); one complete_tx of 128 B per rank.
TEST_P(Modes, MulticastLoadFansOutToEveryRank) {
  TestHost h(kBase, 4096, 2, 4096);
  FillPattern(h.g());
  ASSERT_EQ(h.Create(GetParam()), OTMA_OK);
  const auto map = Map2D(kBase, kU8, 64, 8, 64, 32, 4);
  ASSERT_FALSE(map.empty());
  otma_op op = Load2D(map, 16, 1, 1024, 16, 0);
  op.flags = OTMA_OPF_MULTICAST;
  op.cta_mask = 0x3;
  ASSERT_EQ(cosim_test::SubmitRetry(h.e(), &op, nullptr), OTMA_OK);
  Drive(h);
  ASSERT_EQ(h.tx.size(), 2u);
  for (uint32_t r = 0; r < 2; ++r) {
    EXPECT_EQ(h.Sum(r, 16), 128u);
    for (int y = 0; y < 4; ++y) {
      for (int x = 0; x < 32; ++x) {
        ASSERT_EQ(h.s(static_cast<int>(r))[1024 + 32 * y + x], Pat(64 * (1 + y) + 16 + x));
      }
    }
  }
}

// Out-of-bounds rows and columns read as zero and still count in complete_tx (silicon D1):
// box {32, 4} at {48, 6} of {64, 8}: 16 in-bounds columns x 2 in-bounds rows.
TEST_P(Modes, OutOfBoundsFillCountsInCompleteTx) {
  TestHost h(kBase, 4096, 1, 4096);
  FillPattern(h.g());
  std::memset(h.s(0).data(), 0xee, 4096);
  ASSERT_EQ(h.Create(GetParam()), OTMA_OK);
  const auto map = Map2D(kBase, kU8, 64, 8, 64, 32, 4);
  otma_op op = Load2D(map, 48, 6, 0, 8);
  ASSERT_EQ(cosim_test::SubmitRetry(h.e(), &op, nullptr), OTMA_OK);
  Drive(h);
  EXPECT_EQ(h.Sum(0, 8), 128u);
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 32; ++x) {
      const bool in = y < 2 && x < 16;
      ASSERT_EQ(h.s(0)[32 * y + x], in ? Pat(64 * (6 + y) + 48 + x) : 0) << y << "," << x;
    }
  }
  uint32_t n = 0;
  uint64_t payload = 0, oob = 0;
  ASSERT_EQ(otma_expand(h.e(), &op, nullptr, 0, &n, &payload, &oob), OTMA_OK);
  EXPECT_EQ(payload, 128u);
  EXPECT_EQ(oob, 128u - 32u);
  EXPECT_EQ(n, 2u);  // rows 6 and 7: 16 bytes each, one 32-byte sector each
}

// Tensor store of u32 box {4, 2} at {4, 1} of {16, 4} (pitch 64) from shared offset 0, then
// a reduce-add of the same box; bulk-group bookkeeping around both.
TEST_P(Modes, StoreAndReduceWithBulkGroups) {
  TestHost h(kBase, 4096, 1, 4096);
  ASSERT_EQ(h.Create(GetParam()), OTMA_OK);
  for (uint32_t i = 0; i < 8; ++i) {
    const uint32_t v = 100 + i;
    std::memcpy(h.s(0).data() + 4 * i, &v, 4);
  }
  const auto map = Map2D(kBase, kU32, 16, 4, 64, 4, 2);
  otma_op op = Load2D(map, 4, 1, 0, 0);
  op.kind = OTMA_OP_TENSOR_STORE;
  op.issuer_warp = 3;
  ASSERT_EQ(cosim_test::SubmitRetry(h.e(), &op, nullptr), OTMA_OK);
  ASSERT_EQ(otma_bulk_commit(h.e(), 3), OTMA_OK);
  if (GetParam() == OTMA_MODE_TIMED) {
    EXPECT_EQ(otma_bulk_wait(h.e(), 3, 0, 0), 0);  // still in flight
  }
  Drive(h);
  EXPECT_EQ(otma_bulk_wait(h.e(), 3, 0, 1), 1);
  EXPECT_EQ(otma_bulk_wait(h.e(), 3, 0, 0), 1);
  for (uint32_t y = 0; y < 2; ++y) {
    for (uint32_t x = 0; x < 4; ++x) {
      uint32_t v;
      std::memcpy(&v, h.g().data() + 64 * (1 + y) + 4 * (4 + x), 4);
      EXPECT_EQ(v, 100 + 4 * y + x);
    }
  }
  op.kind = OTMA_OP_TENSOR_REDUCE;
  op.redop = 0;  // add
  ASSERT_EQ(cosim_test::SubmitRetry(h.e(), &op, nullptr), OTMA_OK);
  otma_bulk_commit(h.e(), 3);
  Drive(h);
  EXPECT_EQ(otma_bulk_wait(h.e(), 3, 0, 0), 1);
  uint32_t v;
  std::memcpy(&v, h.g().data() + 64 * 2 + 4 * 7, 4);
  EXPECT_EQ(v, 2u * 107u);
  std::memcpy(&v, h.g().data() + 64 * 1 + 4 * 3, 4);
  EXPECT_EQ(v, 0u);  // outside the box
}

// Non-tensor bulk ops: G->S copy, S->G copy with .cp_mask, shared::cta -> shared::cluster,
// reduce-add u32 to global, prefetch.
TEST_P(Modes, BulkOps) {
  TestHost h(kBase, 4096, 2, 4096);
  FillPattern(h.g());
  ASSERT_EQ(h.Create(GetParam()), OTMA_OK);
  otma_op op;
  std::memset(&op, 0, sizeof op);
  op.struct_size = sizeof op;
  op.dst_rank = -1;
  op.mbar_rank = -1;
  op.kind = OTMA_OP_BULK_COPY;
  op.bulk_dir = OTMA_BULK_G2S_CTA;
  op.bulk_gaddr = kBase + 256;
  op.smem_addr = 512;
  op.bulk_size = 64;
  op.mbar_addr = 8;
  ASSERT_EQ(cosim_test::SubmitRetry(h.e(), &op, nullptr), OTMA_OK);
  Drive(h);
  EXPECT_EQ(h.Sum(0, 8), 64u);
  for (int i = 0; i < 64; ++i)
    ASSERT_EQ(h.s(0)[512 + i], Pat(256 + i));
  // S->G with .cp_mask 0x00ff: bytes 0..7 of every 16-byte chunk.
  op.bulk_dir = OTMA_BULK_S2G;
  op.bulk_saddr = 512;
  op.bulk_gaddr = kBase + 2048;
  op.bulk_size = 32;
  op.flags = OTMA_OPF_CP_MASK;
  op.byte_mask = 0x00ff;
  ASSERT_EQ(cosim_test::SubmitRetry(h.e(), &op, nullptr), OTMA_OK);
  Drive(h);
  for (int i = 0; i < 32; ++i) {
    ASSERT_EQ(h.g()[2048 + i], (i % 16) < 8 ? Pat(256 + i) : Pat(2048 + i)) << i;
  }
  // shared::cta of rank 0 -> shared::cluster of rank 1.
  op.flags = 0;
  op.bulk_dir = OTMA_BULK_S2S_CLUSTER;
  op.bulk_saddr = 512;
  op.smem_addr = 1024;
  op.dst_rank = 1;
  op.mbar_addr = 16;
  op.bulk_size = 16;
  ASSERT_EQ(cosim_test::SubmitRetry(h.e(), &op, nullptr), OTMA_OK);
  Drive(h);
  EXPECT_EQ(h.Sum(1, 16), 16u);
  for (int i = 0; i < 16; ++i)
    ASSERT_EQ(h.s(1)[1024 + i], Pat(256 + i));
  // reduce-add u32: global word at 3072 += shared word at 512.
  uint32_t a, b;
  std::memcpy(&a, h.g().data() + 3072, 4);
  std::memcpy(&b, h.s(0).data() + 512, 4);
  op.kind = OTMA_OP_BULK_REDUCE;
  op.bulk_dir = OTMA_BULK_S2G;
  op.dst_rank = -1;
  op.redop = 0;
  op.bulk_type = 1;  // u32
  op.bulk_gaddr = kBase + 3072;
  op.bulk_saddr = 512;
  op.bulk_size = 16;
  ASSERT_EQ(cosim_test::SubmitRetry(h.e(), &op, nullptr), OTMA_OK);
  Drive(h);
  uint32_t c;
  std::memcpy(&c, h.g().data() + 3072, 4);
  EXPECT_EQ(c, a + b);
  op.kind = OTMA_OP_BULK_PREFETCH;
  op.bulk_gaddr = kBase;
  op.bulk_size = 256;
  otma_token t = 0;
  ASSERT_EQ(cosim_test::SubmitRetry(h.e(), &op, &t), OTMA_OK);
  Drive(h);
  EXPECT_NE(h.Find(t, OTMA_EV_DONE), nullptr);
}

// tensormap.replace.tile.box_dim on a map in global memory, then a load through desc_va: the
// new box (dim 1: 4 -> 2 rows) gives 32 x 2 = 64 bytes of complete_tx.
TEST_P(Modes, TensormapReplaceOnMapInMemory) {
  TestHost h(kBase, 8192, 1, 4096);
  FillPattern(h.g());
  const auto map = Map2D(kBase, kU8, 64, 8, 64, 32, 4);
  std::memcpy(h.g().data() + 4096, map.data(), 128);
  ASSERT_EQ(h.Create(GetParam()), OTMA_OK);
  otma_op ld = Load2D(map, 0, 0, 0, 8);
  ld.desc_bytes = nullptr;
  ld.desc_va = kBase + 4096;
  ASSERT_EQ(cosim_test::SubmitRetry(h.e(), &ld, nullptr), OTMA_OK);
  Drive(h);
  EXPECT_EQ(h.Sum(0, 8), 128u);
  otma_op rp;
  std::memset(&rp, 0, sizeof rp);
  rp.struct_size = sizeof rp;
  rp.kind = OTMA_OP_TENSORMAP_REPLACE;
  rp.desc_va = kBase + 4096;
  rp.replace_field = 3;  // box_dim
  rp.replace_ordinal = 1;
  rp.replace_value = 2;
  ASSERT_EQ(cosim_test::SubmitRetry(h.e(), &rp, nullptr), OTMA_OK);
  Drive(h);
  ASSERT_EQ(cosim_test::SubmitRetry(h.e(), &ld, nullptr), OTMA_OK);
  Drive(h);
  EXPECT_EQ(h.Sum(0, 8), 128u + 64u);
}

INSTANTIATE_TEST_SUITE_P(Cosim, Modes, ::testing::Values(OTMA_MODE_FUNCTIONAL, OTMA_MODE_TIMED),
                         [](const ::testing::TestParamInfo<uint32_t>& i) {
                           return i.param == OTMA_MODE_FUNCTIONAL ? "Functional" : "Timed";
                         });

// ---- A8: each fault class, each mode, no hang ---------------------------------------------------
struct FaultCase {
  const char* name;
  otma_status want;
};

TEST_P(Modes, EveryFaultClassIsReportedAndNothingHangs) {
  const FaultCase cases[] = {{"invalid_descriptor", OTMA_E_INVALID_DESCRIPTOR},
                             {"misaligned", OTMA_E_MISALIGNED},
                             {"misaligned_coordinate", OTMA_E_MISALIGNED_COORDINATE},
                             {"invalid_coordinate", OTMA_E_INVALID_COORDINATE},
                             {"unsupported_reduction", OTMA_E_UNSUPPORTED_REDUCTION},
                             {"bus_error", OTMA_E_BUS_ERROR}};
  for (const FaultCase& fc : cases) {
    TestHost h(kBase, 4096, 1, 4096);
    ASSERT_EQ(h.Create(GetParam()), OTMA_OK);
    auto map = Map2D(kBase, kBf16, 64, 8, 128, 16, 2);
    otma_op op = Load2D(map, 0, 0, 0, 8);
    const std::string n = fc.name;
    if (n == "invalid_descriptor") {
      map[127] = 0xff;  // bits outside every field
    } else if (n == "misaligned") {
      op.smem_addr = 64;  // F2: 128-byte alignment
    } else if (n == "misaligned_coordinate") {
      op.coords[0] = 4;  // F1: 4 x 2 B is not a multiple of 16 B
    } else if (n == "invalid_coordinate") {
      op.kind = OTMA_OP_TENSOR_STORE;  // F3: negative coordinate of a store
      op.coords[1] = -1;
    } else if (n == "unsupported_reduction") {
      op.kind = OTMA_OP_TENSOR_REDUCE;  // F5: .inc on bf16
      op.redop = 3;
    } else if (n == "bus_error") {
      map = Map2D(kBase + 0x100000, kBf16, 64, 8, 128, 16, 2);  // nothing mapped there
      op.desc_bytes = map.data();
    }
    otma_token t = 0;
    const otma_status st = cosim_test::SubmitRetry(h.e(), &op, &t);
    otma_drain(h.e());
    const cosim_test::Ev* ev = h.Find(t, OTMA_EV_FAULT);
    ASSERT_NE(ev, nullptr) << fc.name;
    EXPECT_EQ(ev->status, fc.want) << fc.name << ": " << otma_status_str(ev->status);
    if (GetParam() == OTMA_MODE_FUNCTIONAL) {
      EXPECT_EQ(st, fc.want);
    }
    EXPECT_TRUE(h.tx.empty()) << fc.name;  // a fault signals no complete_tx
    EXPECT_EQ(otma_in_flight(h.e()), 0u);
  }
}

// A host memory that never answers: the watchdog ends the op with TX_WATCHDOG.
TEST(Cosim, WatchdogEndsAnOpWhoseMemoryNeverAnswers) {
  TestHost h(kBase, 4096, 1, 4096);
  h.host().mem_req = [](void*, const otma_mem_req*) { return 0; };
  otma_config c = cosim_test::Config(OTMA_MODE_TIMED);
  c.watchdog_cycles = 5000;
  otma_engine* e = nullptr;
  ASSERT_EQ(otma_create(&c, &h.host(), &e), OTMA_OK);
  const auto map = Map2D(kBase, kU8, 64, 8, 64, 32, 4);
  otma_op op = Load2D(map, 0, 0, 0, 8);
  otma_token t = 0;
  ASSERT_EQ(otma_submit(e, &op, &t), OTMA_OK);
  otma_tick(e, 20000);
  EXPECT_EQ(otma_in_flight(e), 0u);
  const cosim_test::Ev* ev = h.Find(t, OTMA_EV_FAULT);
  ASSERT_NE(ev, nullptr);
  EXPECT_EQ(ev->status, OTMA_E_TX_WATCHDOG);
  otma_destroy(e);
}

// A descriptor fetch (desc_va) the host's memory refuses is offered again on later cycles with
// the same address until accepted (Accel-Sim's ldst_unit::memory_cycle stalls on a full
// interconnect), and the load then completes.
TEST(Cosim, TimedRefusedDescriptorFetchIsRetried) {
  TestHost h(kBase, 4096, 1, 4096);
  static std::vector<std::pair<otma_mem_req, int>> reqs;
  static int refuse;
  reqs.clear();
  refuse = 3;
  h.host().mem_req = [](void*, const otma_mem_req* r) {
    const int rc = r->kind == OTMA_REQ_DESC && refuse > 0 ? (--refuse, 1) : 0;
    reqs.emplace_back(*r, rc);
    return rc;
  };
  otma_config c = cosim_test::Config(OTMA_MODE_TIMED);
  otma_engine* e = nullptr;
  ASSERT_EQ(otma_create(&c, &h.host(), &e), OTMA_OK);
  const auto map = Map2D(kBase, kU8, 64, 8, 64, 64, 4);
  std::memcpy(h.g().data() + 2048, map.data(), 128);
  otma_op op = Load2D(map, 0, 2, 0, 8);
  op.desc_bytes = nullptr;
  op.desc_va = kBase + 2048;
  otma_token t = 0;
  ASSERT_EQ(otma_submit(e, &op, &t), OTMA_OK);
  std::set<uint64_t> answered;
  for (int i = 0; i < 2000 && h.Find(t, OTMA_EV_DONE) == nullptr; ++i) {
    for (const auto& [r, rc] : reqs) {
      if (rc == 0 && answered.insert(r.tag).second) {
        EXPECT_EQ(otma_mem_resp(e, r.tag, OTMA_OK), OTMA_OK);
      }
    }
    otma_tick(e, 1);
  }
  int desc_tries = 0, desc_ok = 0;
  for (const auto& [r, rc] : reqs) {
    if (r.kind == OTMA_REQ_DESC) {
      ++desc_tries;
      desc_ok += rc == 0;
      EXPECT_EQ(r.addr, kBase + 2048);
    }
  }
  EXPECT_EQ(desc_tries, 4);  // three refusals, then accepted once
  EXPECT_EQ(desc_ok, 1);
  ASSERT_NE(h.Find(t, OTMA_EV_DONE), nullptr);
  EXPECT_EQ(h.Sum(0, 8), 256u);
  otma_destroy(e);
}

// The host's memory system: requests go out through mem_req at 32-byte granularity, at most
// the engine's rate, and the op completes only after every response.
TEST(Cosim, TimedRequestsGoThroughTheHostMemory) {
  TestHost h(kBase, 4096, 1, 4096);
  static std::vector<otma_mem_req> reqs;
  reqs.clear();
  h.host().mem_req = [](void*, const otma_mem_req* r) {
    reqs.push_back(*r);
    return 0;
  };
  otma_config c = cosim_test::Config(OTMA_MODE_TIMED);
  otma_engine* e = nullptr;
  ASSERT_EQ(otma_create(&c, &h.host(), &e), OTMA_OK);
  const auto map = Map2D(kBase, kU8, 64, 8, 64, 64, 4);  // 4 rows x 64 B = 8 sectors
  otma_op op = Load2D(map, 0, 2, 0, 8);
  ASSERT_EQ(otma_submit(e, &op, nullptr), OTMA_OK);
  otma_tick(e, 100);
  ASSERT_EQ(reqs.size(), 8u);
  for (size_t i = 0; i < reqs.size(); ++i) {
    EXPECT_EQ(reqs[i].size, 32u);
    EXPECT_EQ(reqs[i].addr, kBase + 128 + 32 * i);  // rows 2..5, 64-byte pitch
    EXPECT_EQ(reqs[i].kind, static_cast<uint32_t>(OTMA_REQ_READ));
  }
  EXPECT_TRUE(h.tx.empty());
  for (size_t i = 0; i + 1 < reqs.size(); ++i)
    otma_mem_resp(e, reqs[i].tag, OTMA_OK);
  otma_tick(e, 100);
  EXPECT_TRUE(h.tx.empty());  // one response missing
  EXPECT_EQ(otma_mem_resp(e, reqs.back().tag, OTMA_OK), OTMA_OK);
  EXPECT_EQ(otma_mem_resp(e, reqs.back().tag, OTMA_OK), OTMA_E_UNKNOWN_TAG);
  otma_tick(e, 100);
  ASSERT_EQ(h.tx.size(), 1u);
  EXPECT_EQ(h.tx[0].bytes, 256u);
  otma_destroy(e);
}

// ---- A9: two engines on two threads give what a serial run gives -----------------------------
std::vector<uint8_t> RunCluster(uint32_t mode, int seed) {
  TestHost h(kBase, 65536, 2, 16384);
  FillPattern(h.g());
  if (h.Create(mode) != OTMA_OK)
    return {};
  const auto map = Map2D(kBase, kBf16, 128, 256, 256, 64, 16);
  for (int i = 0; i < 64; ++i) {
    otma_op op = Load2D(map, 64 * ((i + seed) % 2), 16 * ((i * 7 + seed) % 16),
                        2048 * static_cast<uint32_t>(i % 4), 8 * static_cast<uint32_t>(1 + i % 4));
    op.flags = OTMA_OPF_MULTICAST;
    op.cta_mask = 3;
    while (cosim_test::SubmitRetry(h.e(), &op, nullptr) == OTMA_E_BUSY)
      otma_tick(h.e(), 1);
    otma_tick(h.e(), 10);
  }
  otma_drain(h.e());
  std::vector<uint8_t> out = h.s(0);
  out.insert(out.end(), h.s(1).begin(), h.s(1).end());
  for (const auto& t : h.tx) {
    out.push_back(static_cast<uint8_t>(t.bytes));
    out.push_back(static_cast<uint8_t>(t.rank));
  }
  return out;
}

TEST(Cosim, TwoEnginesOnTwoThreadsEqualASerialRun) {
  for (uint32_t mode : {OTMA_MODE_FUNCTIONAL, OTMA_MODE_TIMED}) {
    const std::vector<uint8_t> a = RunCluster(mode, 1);
    const std::vector<uint8_t> b = RunCluster(mode, 2);
    ASSERT_FALSE(a.empty());
    ASSERT_NE(a, b);  // the two clusters do different work
    std::vector<uint8_t> ta, tb;
    std::thread t1([&] { ta = RunCluster(mode, 1); });
    std::thread t2([&] { tb = RunCluster(mode, 2); });
    t1.join();
    t2.join();
    EXPECT_EQ(ta, a);
    EXPECT_EQ(tb, b);
  }
}

}  // namespace

namespace {

// A8: destroying an engine with ops in flight (queued, generating, waiting for memory) drops
// them without callbacks and leaks nothing (the sanitizer build's LeakSanitizer checks).
TEST(Cosim, DestroyWithOpsInFlight) {
  TestHost h(kBase, 4096, 1, 4096);
  otma_config c = cosim_test::Config(OTMA_MODE_TIMED);
  c.flags = OTMA_FLAG_CHECK;
  otma_engine* e = nullptr;
  ASSERT_EQ(otma_create(&c, &h.host(), &e), OTMA_OK);
  const auto map = Map2D(kBase, kU8, 64, 8, 64, 32, 4);
  for (int i = 0; i < 3; ++i) {
    otma_op op = Load2D(map, 0, i, 0, 8);
    ASSERT_EQ(cosim_test::SubmitRetry(e, &op, nullptr), OTMA_OK);
  }
  otma_tick(e, 40);
  EXPECT_GT(otma_in_flight(e), 0u);
  const size_t events = h.events.size();
  otma_destroy(e);
  EXPECT_EQ(h.events.size(), events);
}

}  // namespace

namespace {

// Accel-Sim's ldst_unit::mbarrier_complete_tx credits each returning 32-byte sector; a box with
// 16-byte rows on a 128-byte pitch fetches 4 sectors (128 bytes) for 64 bytes of payload. The
// engine credits the payload: complete_tx 64 = 16 x 4 (cosim.md §1.4, the over-credit risk).
TEST(Cosim, MbarrierCompleteTx_NarrowBoxCreditsPayloadNotSectors) {
  for (uint32_t mode : {OTMA_MODE_FUNCTIONAL, OTMA_MODE_TIMED}) {
    TestHost h(kBase, 4096, 1, 4096);
    ASSERT_EQ(h.Create(mode), OTMA_OK);
    const auto map = Map2D(kBase, kU8, 128, 8, 128, 16, 4);
    otma_op op = Load2D(map, 16, 2, 0, 8);
    uint32_t n = 0;
    uint64_t payload = 0;
    otma_mem_req reqs[8];
    ASSERT_EQ(otma_expand(h.e(), &op, reqs, 8, &n, &payload, nullptr), OTMA_OK);
    EXPECT_EQ(n, 4u);
    EXPECT_EQ(payload, 64u);
    for (uint32_t i = 0; i < n; ++i) {
      EXPECT_EQ(reqs[i].addr, kBase + 128 * (2 + i));  // bytes 16..31 of each row: sector 0
      EXPECT_EQ(reqs[i].size, 32u);
    }
    ASSERT_EQ(cosim_test::SubmitRetry(h.e(), &op, nullptr), OTMA_OK);
    otma_drain(h.e());
    EXPECT_EQ(h.Sum(0, 8), 64u);
  }
}

}  // namespace
