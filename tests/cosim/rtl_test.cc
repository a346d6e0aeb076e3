// SPDX-License-Identifier: Apache-2.0
//
// RTL mode of the library (the Verilated tma_sim_top on the sim/ harness, clocked by
// otma_tick), through the C ABI:
//   * every (op, load mode) pair the RTL claims for sm_90 (rtl_claims of
//     rtl/data/tma_numbering.json, kClaim* of numbering.h) runs in RTL mode with the same
//     global memory, shared windows, complete-tx and op_done events as FUNCTIONAL mode (the
//     reference model), the reductions over every redop and the element types they take;
//     the pairs the masks name but PTX does not allow answer the same class in both modes;
//   * an op the RTL does not claim answers OTMA_E_UNSUPPORTED with op_done(FAULT) and
//     touches nothing;
//   * tick interleaving: ops submitted back to back are in flight together, complete at the
//     RTL's cycles inside otma_tick (never inside otma_submit), at the same cycles whether
//     the host ticks one cycle at a time or in large steps, and a batch of them takes fewer
//     cycles than the same ops one after the other;
//   * desc_va maps: the RTL caches the map it fetched; otma_invalidate_desc makes it fetch
//     the rewritten one (fence.proxy.tensormap);
//   * each fault class of the seeds comes back from the RTL with the class FUNCTIONAL gives;
//   * the global sectors the RTL's AXI bursts touch are the ones otma_expand lists (A4);
//   * the host's memory system (mem_req): the RTL's bursts become 32-byte requests (and one
//     descriptor fetch), wait for otma_mem_resp, keep the bytes, fault on a bus error and
//     survive refusals;
//   * READ_DONE at the store's last shared-memory read: before DONE when the writes wait, and
//     the predicted read count matches the RTL's for every claimed store and reduction;
//   * two RTL engines on two threads give what they give one after the other (A9).
#include <algorithm>
#include <cstring>
#include <deque>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "test_host.h"
#include "tma/types.h"

#include "tma/autogen/numbering.h"

namespace {

using cosim_test::Load2D;
using cosim_test::Map2D;
using cosim_test::TestHost;

constexpr uint64_t kBase = 0x40000;
constexpr size_t kGlobal = 16384;
constexpr uint32_t kWin = 8192;
constexpr uint32_t kU8 = 0, kU32 = 2, kS32 = 3, kU64 = 4, kS64 = 5, kF16 = 6, kF32 = 7, kF64 = 8,
                   kBf16 = 9;

int ElemBytes(uint32_t dt) {
  return tma::model::ElementBytes(static_cast<tma::model::DType>(dt));
}

// An im2col map of an NWC tensor (C x W x N), corners lower / upper along W.
std::vector<uint8_t> MapIm2col3D(uint32_t dtype, uint64_t c, uint64_t w, uint64_t n, int32_t lower,
                                 int32_t upper, uint32_t cpp, uint32_t ppc) {
  otma_tensor_params p = cosim_test::Params(dtype, 3, kBase);
  p.mode = 1;
  p.dims[0] = c;
  p.dims[1] = w;
  p.dims[2] = n;
  const uint64_t e = static_cast<uint64_t>(ElemBytes(dtype));
  p.strides[0] = c * e;
  p.strides[1] = c * w * e;
  p.im2col_lower[0] = lower;
  p.im2col_upper[0] = upper;
  p.channels_per_pixel = cpp;
  p.pixels_per_column = ppc;
  return cosim_test::Encode(p);
}

// A 3-D op of `kind` and `mode` on `map` at coordinates {c0, c1, c2}.
otma_op Op3D(const uint8_t* map, uint32_t kind, uint32_t mode, int32_t c0, int32_t c1, int32_t c2,
             uint32_t smem, uint32_t mbar) {
  otma_op op = Load2D(std::vector<uint8_t>(), c0, c1, smem, mbar);
  op.desc_bytes = map;
  op.kind = kind;
  op.load_mode = mode;
  op.dim = 3;
  op.coords[2] = c2;
  return op;
}

// Global byte i and shared byte i of rank r: fixed patterns (any bytes: the comparison is
// between the two modes).
void Fill(TestHost& h, int ctas) {
  for (size_t i = 0; i < h.g().size(); ++i)
    h.g()[i] = static_cast<uint8_t>((i * 13 + 5) & 0xff);
  for (int r = 0; r < ctas; ++r) {
    for (size_t i = 0; i < kWin; ++i)
      h.s(r)[i] = static_cast<uint8_t>((i * 7 + 3 + 91 * static_cast<size_t>(r)) & 0xff);
  }
}

struct Outcome {
  std::vector<uint8_t> g;
  std::vector<std::vector<uint8_t>> s;
  std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> tx;  // (rank, mbar, bytes), sorted
  std::vector<std::tuple<otma_token, uint32_t, otma_status>> ev;
  uint64_t cycles = 0;
  uint64_t last_event = 0;  // the cycle of the last op_done
};

// What an engine left behind, once nothing is in flight.
Outcome Collect(TestHost& h, int ctas) {
  Outcome o;
  EXPECT_EQ(otma_in_flight(h.e()), 0u);
  o.g = h.g();
  for (int r = 0; r < ctas; ++r)
    o.s.push_back(h.s(r));
  for (const cosim_test::Tx& t : h.tx)
    o.tx.emplace_back(t.rank, t.mbar, t.bytes);
  std::sort(o.tx.begin(), o.tx.end());
  for (const cosim_test::Ev& e : h.events) {
    o.ev.emplace_back(e.op, e.event, e.status);
    o.last_event = std::max(o.last_event, e.cycle);
  }
  o.cycles = otma_cycle(h.e());
  return o;
}

// One op on a fresh engine of `mode`, run to completion.
Outcome RunOne(uint32_t mode, const otma_op& op, int ctas = 2, uint32_t arch = OTMA_ARCH_SM90) {
  TestHost h(kBase, kGlobal, ctas, kWin);
  Fill(h, ctas);
  EXPECT_EQ(h.Create(mode, 0, nullptr, arch), OTMA_OK);
  if (h.e() == nullptr)
    return Outcome{};
  (void)cosim_test::SubmitRetry(h.e(), &op, nullptr);
  otma_drain(h.e());
  return Collect(h, ctas);
}

std::string Events(const Outcome& o) {
  std::string s;
  for (const auto& [t, ev, st] : o.ev)
    s += "(" + std::to_string(t) + "," + std::to_string(ev) + "," + otma_status_str(st) + ")";
  return s;
}

struct OpCase {
  std::string name;
  otma_op op;
};

// The ops of the claims test; maps live in `maps` (stable storage).
std::vector<OpCase> ClaimCases(std::vector<std::vector<uint8_t>>* maps) {
  maps->reserve(64);
  std::vector<OpCase> v;
  auto keep = [&](std::vector<uint8_t> m) {
    EXPECT_FALSE(m.empty());
    maps->push_back(std::move(m));
    return maps->back().data();
  };
  // Tile loads: plain, out of bounds, 128B swizzle, multicast to both CTAs, remote destination.
  {
    const uint8_t* m = keep(Map2D(kBase, kBf16, 64, 16, 128, 32, 4));
    otma_op op = Load2D(std::vector<uint8_t>(), 8, 2, 1024, 16);
    op.desc_bytes = m;
    v.push_back({"load_tile", op});
    op.coords[0] = 48;
    op.coords[1] = 14;
    v.push_back({"load_tile_oob", op});
    op.coords[0] = -8;
    op.coords[1] = -2;
    v.push_back({"load_tile_oob_negative", op});
    const uint8_t* sw = keep(Map2D(kBase, kBf16, 64, 16, 128, 64, 8, 3));
    otma_op s = op;
    s.desc_bytes = sw;
    s.coords[0] = 0;
    s.coords[1] = 3;
    v.push_back({"load_tile_swizzle128", s});
    otma_op mc = op;
    mc.coords[0] = 16;
    mc.coords[1] = 1;
    mc.flags = OTMA_OPF_MULTICAST;
    mc.cta_mask = 0x3;
    v.push_back({"load_tile_multicast", mc});
    otma_op rd = mc;
    rd.flags = 0;
    rd.cta_mask = 0;
    rd.dst_rank = 1;
    v.push_back({"load_tile_remote", rd});
  }
  // im2col load (3-D NWC, corners -1 / -1, offset 1) and prefetches.
  {
    const uint8_t* m = keep(MapIm2col3D(kU8, 16, 16, 2, -1, -1, 16, 8));
    otma_op op = Op3D(m, OTMA_OP_TENSOR_LOAD, OTMA_LOAD_IM2COL, 0, 3, 1, 2048, 24);
    op.im2col_info[0] = 1;
    v.push_back({"load_im2col", op});
    otma_op pf = op;
    pf.kind = OTMA_OP_TENSOR_PREFETCH;
    v.push_back({"prefetch_im2col", pf});
    // Pairs the claim masks name that PTX does not have: the RTL must answer as the model.
    otma_op bad = op;
    bad.load_mode = OTMA_LOAD_IM2COL_NO_OFFS;
    v.push_back({"load_im2col_no_offs_invalid", bad});
    bad.kind = OTMA_OP_TENSOR_PREFETCH;
    v.push_back({"prefetch_im2col_no_offs_invalid", bad});
    bad.kind = OTMA_OP_TENSOR_STORE;
    bad.load_mode = OTMA_LOAD_IM2COL;
    v.push_back({"store_im2col_invalid", bad});
    bad.kind = OTMA_OP_TENSOR_REDUCE;
    v.push_back({"reduce_im2col_invalid", bad});
  }
  {
    const uint8_t* m = keep(Map2D(kBase, kBf16, 64, 16, 128, 32, 4));
    otma_op pf = Load2D(std::vector<uint8_t>(), 8, 2, 0, 0);
    pf.desc_bytes = m;
    pf.kind = OTMA_OP_TENSOR_PREFETCH;
    v.push_back({"prefetch_tile", pf});
  }
  // Stores: tile (in bounds, clipped at the edge), im2col_no_offs.
  {
    const uint8_t* m = keep(Map2D(kBase, kU32, 32, 16, 128, 8, 4));
    otma_op st = Load2D(std::vector<uint8_t>(), 8, 2, 512, 0);
    st.desc_bytes = m;
    st.kind = OTMA_OP_TENSOR_STORE;
    st.issuer_warp = 1;
    v.push_back({"store_tile", st});
    st.coords[0] = 28;
    st.coords[1] = 14;
    v.push_back({"store_tile_edge", st});
    const uint8_t* im = keep(MapIm2col3D(kU8, 16, 16, 2, 0, 0, 16, 8));
    otma_op si = Op3D(im, OTMA_OP_TENSOR_STORE, OTMA_LOAD_IM2COL_NO_OFFS, 0, 4, 1, 512, 0);
    si.issuer_warp = 1;
    v.push_back({"store_im2col_no_offs", si});
  }
  // Reductions: every redop on the element types that take it (and some that do not).
  {
    const uint32_t dts[] = {kU32, kS32, kU64, kS64, kF16, kBf16, kF32, kF64};
    for (uint32_t dt : dts) {
      const uint32_t e = static_cast<uint32_t>(ElemBytes(dt));
      const uint8_t* m = keep(Map2D(kBase, dt, 128 / e * 2, 16, 256, 32 / e, 4));
      for (uint32_t redop = 0; redop < 8; ++redop) {
        otma_op r = Load2D(std::vector<uint8_t>(), static_cast<int32_t>(32 / e), 3, 1024, 0);
        r.desc_bytes = m;
        r.kind = OTMA_OP_TENSOR_REDUCE;
        r.redop = redop;
        r.issuer_warp = 2;
        v.push_back({"reduce_tile_dt" + std::to_string(dt) + "_op" + std::to_string(redop), r});
      }
    }
    const uint8_t* im = keep(MapIm2col3D(kU32, 4, 16, 2, 0, 0, 4, 8));
    otma_op ri = Op3D(im, OTMA_OP_TENSOR_REDUCE, OTMA_LOAD_IM2COL_NO_OFFS, 0, 2, 1, 1024, 0);
    ri.issuer_warp = 2;
    v.push_back({"reduce_im2col_no_offs_add", ri});
    ri.redop = 2;  // max
    v.push_back({"reduce_im2col_no_offs_max", ri});
  }
  return v;
}

TEST(CosimRtl, EveryClaimedOpEqualsFunctional) {
  std::vector<std::vector<uint8_t>> maps;
  const std::vector<OpCase> cases = ClaimCases(&maps);
  std::set<std::pair<uint32_t, uint32_t>> covered;  // (model op, load mode)
  int faults = 0, ran = 0;
  for (const OpCase& c : cases) {
    SCOPED_TRACE(c.name);
    const Outcome f = RunOne(OTMA_MODE_FUNCTIONAL, c.op);
    const Outcome r = RunOne(OTMA_MODE_RTL, c.op);
    ASSERT_FALSE(f.ev.empty());
    EXPECT_EQ(Events(r), Events(f));
    EXPECT_TRUE(r.g == f.g) << "global memory differs";
    EXPECT_TRUE(r.s == f.s) << "shared memory differs";
    EXPECT_EQ(r.tx, f.tx);
    for (const auto& [t, ev, st] : r.ev) {
      EXPECT_NE(st, OTMA_E_UNSUPPORTED) << "a claimed op came back unsupported";
      faults += ev == OTMA_EV_FAULT;
    }
    EXPECT_GT(r.cycles, 0u) << "the RTL ran no cycle";
    ++ran;
    // The claim the op exercises: the model's op numbering (load 0, store 1, reduce 2,
    // prefetch 3) and the load mode.
    const uint32_t mop = c.op.kind == OTMA_OP_TENSOR_LOAD     ? 0
                         : c.op.kind == OTMA_OP_TENSOR_STORE  ? 1
                         : c.op.kind == OTMA_OP_TENSOR_REDUCE ? 2
                                                              : 3;
    covered.insert({mop, c.op.load_mode});
  }
  // Every (op, mode) pair of the sm_90 claims is exercised, except the sm_100 load modes: they
  // are claimed at sm_90 only so that the RTL's refusal is compared with the model's (the
  // golden replay's `tma-rtl --arch sm_90` verdict check covers that); an sm_90 engine moves
  // no data for them.
  using LM = tma::model::LoadMode;
  const auto sm100_mode = [](uint32_t mode) {
    return mode == static_cast<uint32_t>(LM::kIm2colW) ||
           mode == static_cast<uint32_t>(LM::kIm2colW128) ||
           mode == static_cast<uint32_t>(LM::kTileGather4);
  };
  for (uint32_t op = 0; op < 4; ++op) {
    for (uint32_t mode = 0; mode < 7; ++mode) {
      if (!sm100_mode(mode) && ((tma::model::num::kClaimOpsSm90 >> op) & 1) &&
          ((tma::model::num::kClaimModesSm90 >> mode) & 1)) {
        EXPECT_TRUE(covered.count({op, mode}))
            << "claimed op " << op << " mode " << mode << " has no case";
      }
    }
  }
  // The list has both outcomes: ops that move data and ops the model (and the RTL) refuse.
  EXPECT_GT(faults, 4);
  EXPECT_GT(ran - faults, 40);
}

// ---- ops the RTL does not claim --------------------------------------------------------------
TEST(CosimRtl, UnclaimedOpsAnswerUnsupported) {
  std::vector<std::vector<uint8_t>> maps;
  maps.push_back(Map2D(kBase, kBf16, 64, 16, 128, 32, 4));
  const otma_op base = Load2D(maps[0], 8, 2, 1024, 16);
  struct U {
    std::string name;
    otma_op op;
    uint32_t arch;
  };
  std::vector<U> us;
  otma_op b = base;
  b.kind = OTMA_OP_BULK_COPY;
  b.bulk_dir = OTMA_BULK_G2S_CTA;
  b.bulk_gaddr = kBase;
  b.bulk_size = 64;
  us.push_back({"bulk_copy_g2s", b, OTMA_ARCH_SM90});
  b.bulk_dir = OTMA_BULK_S2G;
  b.bulk_saddr = 0;
  us.push_back({"bulk_copy_s2g", b, OTMA_ARCH_SM90});
  b.kind = OTMA_OP_BULK_REDUCE;
  b.bulk_type = 1;
  us.push_back({"bulk_reduce", b, OTMA_ARCH_SM90});
  b.kind = OTMA_OP_BULK_PREFETCH;
  us.push_back({"bulk_prefetch", b, OTMA_ARCH_SM90});
  otma_op rp = base;
  rp.kind = OTMA_OP_TENSORMAP_REPLACE;
  rp.desc_va = kBase + 8192;
  rp.replace_field = 3;
  rp.replace_ordinal = 1;
  rp.replace_value = 2;
  us.push_back({"tensormap_replace", rp, OTMA_ARCH_SM90});
  otma_op g4 = base;
  g4.load_mode = OTMA_LOAD_TILE_GATHER4;
  us.push_back({"gather4", g4, OTMA_ARCH_SM100});
  otma_op w = base;
  w.load_mode = OTMA_LOAD_IM2COL_W;
  us.push_back({"im2col_w", w, OTMA_ARCH_SM100});
  otma_op cg = base;
  cg.cta_group = 2;
  us.push_back({"cta_group2", cg, OTMA_ARCH_SM100});
  otma_op st = base;
  st.kind = OTMA_OP_TENSOR_STORE;
  us.push_back({"store_sm100", st, OTMA_ARCH_SM100});
  // Whether the claim masks name a tensor op (bulk ops and tensormap.replace: never).
  namespace num = tma::model::num;
  auto claimed = [](const otma_op& op, uint32_t arch) {
    if (op.kind > OTMA_OP_TENSOR_PREFETCH)
      return false;
    const uint32_t mop = op.kind == OTMA_OP_TENSOR_LOAD     ? 0
                         : op.kind == OTMA_OP_TENSOR_STORE  ? 1
                         : op.kind == OTMA_OP_TENSOR_REDUCE ? 2
                                                            : 3;
    const bool sm90 = arch == OTMA_ARCH_SM90;
    return ((sm90 ? num::kClaimOpsSm90 : num::kClaimOpsSm100) >> mop & 1) &&
           ((sm90 ? num::kClaimModesSm90 : num::kClaimModesSm100) >> op.load_mode & 1) &&
           (op.cta_group != 2 || num::kClaimCtaGroup2);
  };
  int refused = 0;
  for (const U& u : us) {
    SCOPED_TRACE(u.name);
    if (claimed(u.op, u.arch))
      continue;  // the RTL claims it now: not a case of this test
    ++refused;
    TestHost h(kBase, kGlobal, 2, kWin);
    Fill(h, 2);
    const std::vector<uint8_t> g0 = h.g(), s0 = h.s(0), s1 = h.s(1);
    ASSERT_EQ(h.Create(OTMA_MODE_RTL, 0, nullptr, u.arch), OTMA_OK);
    otma_token t = 0;
    EXPECT_EQ(cosim_test::SubmitRetry(h.e(), &u.op, &t), OTMA_E_UNSUPPORTED);
    otma_drain(h.e());
    ASSERT_EQ(h.events.size(), 1u);
    EXPECT_EQ(h.events[0].op, t);
    EXPECT_EQ(h.events[0].event, static_cast<uint32_t>(OTMA_EV_FAULT));
    EXPECT_EQ(h.events[0].status, OTMA_E_UNSUPPORTED);
    EXPECT_TRUE(h.tx.empty());
    EXPECT_TRUE(h.g() == g0 && h.s(0) == s0 && h.s(1) == s1) << "an unclaimed op wrote memory";
  }
  EXPECT_GE(refused, 5);  // the four bulk ops and tensormap.replace at least
}

// ---- tick interleaving -----------------------------------------------------------------------
// Eight 1 KiB tile loads (bf16 box {64, 8} of a {256, 64} tensor, pitch 512) into separate
// stages with separate mbarriers, issued back to back. Returns the complete-tx cycles, the
// most ops seen in flight, and whether any callback came inside otma_submit.
struct Batch {
  std::vector<uint64_t> submit, done;
  uint32_t max_in_flight = 0;
  bool callback_in_submit = false;
  uint64_t end = 0;
  std::vector<uint8_t> smem;
};

Batch RunBatch(int n, uint64_t step) {
  TestHost h(kBase, 64 * 512, 1, 16384);
  Fill(h, 1);
  EXPECT_EQ(h.Create(OTMA_MODE_RTL), OTMA_OK);
  const auto map = Map2D(kBase, kBf16, 256, 64, 512, 64, 8);
  Batch b;
  for (int k = 0; k < n; ++k) {
    otma_op op = Load2D(map, 64 * (k % 4), 8 * (k / 4), static_cast<uint32_t>(1024 * k),
                        static_cast<uint32_t>(8 * k));
    // Retry on BUSY one cycle later, as a cycle-driven host does.
    for (;;) {
      const size_t ev0 = h.events.size(), tx0 = h.tx.size();
      const otma_status st = otma_submit(h.e(), &op, nullptr);
      if (h.events.size() != ev0 || h.tx.size() != tx0)
        b.callback_in_submit = true;
      if (st == OTMA_OK)
        break;
      EXPECT_EQ(st, OTMA_E_BUSY);
      otma_tick(h.e(), 1);
    }
    b.submit.push_back(otma_cycle(h.e()));
    b.max_in_flight = std::max(b.max_in_flight, otma_in_flight(h.e()));
  }
  while (otma_in_flight(h.e()) > 0 && otma_cycle(h.e()) < 100000) {
    EXPECT_EQ(otma_next_event(h.e()), 1u);
    otma_tick(h.e(), step);
  }
  otma_drain(h.e());
  EXPECT_EQ(otma_next_event(h.e()), UINT64_MAX);
  b.end = otma_cycle(h.e());
  for (const cosim_test::Tx& t : h.tx)
    b.done.push_back(t.cycle);
  EXPECT_EQ(h.tx.size(), static_cast<size_t>(n));
  for (const cosim_test::Tx& t : h.tx)
    EXPECT_EQ(t.bytes, 1024u);
  b.smem = h.s(0);
  return b;
}

TEST(CosimRtl, OpsAreInFlightTogetherAndCompleteAtRtlCycles) {
  const Batch one = RunBatch(1, 1);
  ASSERT_EQ(one.done.size(), 1u);
  const uint64_t lat = one.done[0] - one.submit[0];
  EXPECT_GT(lat, 64u);  // 1 KiB through a 16-byte port takes at least 64 cycles
  const Batch a = RunBatch(8, 1);
  ASSERT_EQ(a.done.size(), 8u);
  EXPECT_FALSE(a.callback_in_submit);
  EXPECT_GE(a.max_in_flight, 2u);
  // Op k+1 was submitted before op k completed: they overlap in the RTL.
  int overlapped = 0;
  for (size_t k = 0; k + 1 < a.done.size(); ++k) {
    EXPECT_GT(a.done[k], a.submit[k]);
    overlapped += a.submit[k + 1] < a.done[k];
  }
  EXPECT_GE(overlapped, 4);
  // Completions in issue order at increasing cycles, and the batch beats eight single ops.
  for (size_t k = 0; k + 1 < a.done.size(); ++k)
    EXPECT_LT(a.done[k], a.done[k + 1]);
  EXPECT_LT(a.done.back() - a.submit.front(), 8 * lat);
  // An event-driven host ticking 1000 cycles at a time sees the same cycles and bytes.
  const Batch big = RunBatch(8, 1000);
  EXPECT_EQ(big.done, a.done);
  EXPECT_TRUE(big.smem == a.smem);
  // The bytes are the tensor's: stage k holds rows 8*(k/4).. of columns 64*(k%4)..
  for (int k = 0; k < 8; ++k) {
    for (int y = 0; y < 8; ++y) {
      const size_t src = static_cast<size_t>(512 * (8 * (k / 4) + y) + 128 * (k % 4));
      for (int x = 0; x < 128; ++x) {
        ASSERT_EQ(a.smem[static_cast<size_t>(1024 * k + 128 * y + x)],
                  static_cast<uint8_t>(((src + static_cast<size_t>(x)) * 13 + 5) & 0xff));
      }
    }
  }
}

// A store and a load in flight together on one engine, then the bulk group: the store's
// READ_DONE and DONE come from the RTL's completion, not from otma_submit.
TEST(CosimRtl, StoreCompletesThroughTheBulkGroupAtItsRtlCycle) {
  TestHost h(kBase, kGlobal, 1, kWin);
  Fill(h, 1);
  ASSERT_EQ(h.Create(OTMA_MODE_RTL), OTMA_OK);
  const auto sm = Map2D(kBase, kU32, 32, 16, 128, 8, 4);
  otma_op st = Load2D(sm, 8, 2, 512, 0);
  st.kind = OTMA_OP_TENSOR_STORE;
  st.issuer_warp = 5;
  otma_token ts = 0;
  ASSERT_EQ(cosim_test::SubmitRetry(h.e(), &st, &ts), OTMA_OK);
  ASSERT_EQ(otma_bulk_commit(h.e(), 5), OTMA_OK);
  EXPECT_EQ(otma_bulk_wait(h.e(), 5, 0, 1), 0);  // not even read yet
  EXPECT_TRUE(h.events.empty());
  const uint64_t c0 = otma_cycle(h.e());
  otma_drain(h.e());
  const cosim_test::Ev* rd = h.Find(ts, OTMA_EV_READ_DONE);
  const cosim_test::Ev* dn = h.Find(ts, OTMA_EV_DONE);
  ASSERT_NE(rd, nullptr);
  ASSERT_NE(dn, nullptr);
  EXPECT_GT(dn->cycle, c0);
  EXPECT_EQ(otma_bulk_wait(h.e(), 5, 0, 0), 1);
  // Row y of the box (4 x u32 at {8, 2 + y}) = shared bytes [512 + 32 y, 512 + 32 y + 32).
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 32; ++x) {
      ASSERT_EQ(h.g()[static_cast<size_t>(128 * (2 + y) + 32 + x)],
                h.s(0)[static_cast<size_t>(512 + 32 * y + x)]);
    }
  }
}

// A map named only by desc_va: the RTL fetches it from the host and caches it; after the host
// rewrites it (box 32 x 4 -> 32 x 2) the cached map serves until otma_invalidate_desc.
TEST(CosimRtl, DescriptorCacheAndInvalidate) {
  TestHost h(kBase, kGlobal, 1, kWin);
  Fill(h, 1);
  const auto a = Map2D(kBase, kU8, 64, 8, 64, 32, 4);
  const auto b2 = Map2D(kBase, kU8, 64, 8, 64, 32, 2);
  std::memcpy(h.g().data() + 8192, a.data(), 128);
  ASSERT_EQ(h.Create(OTMA_MODE_RTL), OTMA_OK);
  otma_op ld = Load2D(a, 0, 0, 0, 8);
  ld.desc_bytes = nullptr;
  ld.desc_va = kBase + 8192;
  ASSERT_EQ(cosim_test::SubmitRetry(h.e(), &ld, nullptr), OTMA_OK);
  otma_drain(h.e());
  EXPECT_EQ(h.Sum(0, 8), 128u);
  std::memcpy(h.g().data() + 8192, b2.data(), 128);
  ASSERT_EQ(cosim_test::SubmitRetry(h.e(), &ld, nullptr), OTMA_OK);
  otma_drain(h.e());
  EXPECT_EQ(h.Sum(0, 8), 256u);  // the cached 32 x 4 map
  ASSERT_EQ(otma_invalidate_desc(h.e(), kBase + 8192), OTMA_OK);
  ASSERT_EQ(cosim_test::SubmitRetry(h.e(), &ld, nullptr), OTMA_OK);
  otma_drain(h.e());
  EXPECT_EQ(h.Sum(0, 8), 256u + 64u);
}

// ---- A8 in RTL mode: each fault class of the seeds, as FUNCTIONAL answers it ------------------
TEST(CosimRtl, FaultClassesEqualFunctional) {
  const std::pair<const char*, otma_status> cases[] = {
      {"invalid_descriptor", OTMA_E_INVALID_DESCRIPTOR},
      {"misaligned", OTMA_E_MISALIGNED},
      {"misaligned_coordinate", OTMA_E_MISALIGNED_COORDINATE},
      {"invalid_coordinate", OTMA_E_INVALID_COORDINATE},
      {"unsupported_reduction", OTMA_E_UNSUPPORTED_REDUCTION},
      {"bus_error", OTMA_E_BUS_ERROR}};
  for (const auto& [name, want] : cases) {
    SCOPED_TRACE(name);
    auto map = Map2D(kBase, kBf16, 64, 8, 128, 16, 2);
    otma_op op = Load2D(map, 0, 0, 0, 8);
    const std::string n = name;
    if (n == "invalid_descriptor") {
      map[127] = 0xff;
    } else if (n == "misaligned") {
      op.smem_addr = 64;
    } else if (n == "misaligned_coordinate") {
      op.coords[0] = 4;
    } else if (n == "invalid_coordinate") {
      op.kind = OTMA_OP_TENSOR_STORE;
      op.coords[1] = -1;
    } else if (n == "unsupported_reduction") {
      op.kind = OTMA_OP_TENSOR_REDUCE;
      op.redop = 3;
    } else if (n == "bus_error") {
      map = Map2D(kBase + 0x100000, kBf16, 64, 8, 128, 16, 2);
      op.desc_bytes = map.data();
    }
    const Outcome f = RunOne(OTMA_MODE_FUNCTIONAL, op, 1);
    const Outcome r = RunOne(OTMA_MODE_RTL, op, 1);
    ASSERT_EQ(r.ev.size(), 1u);
    EXPECT_EQ(std::get<1>(r.ev[0]), static_cast<uint32_t>(OTMA_EV_FAULT));
    EXPECT_EQ(std::get<2>(r.ev[0]), want) << otma_status_str(std::get<2>(r.ev[0]));
    EXPECT_EQ(Events(r), Events(f));
    EXPECT_TRUE(r.tx.empty());
  }
}

// ---- A4: the RTL's global accesses are the sectors otma_expand lists --------------------------
// One op at a time on an RTL engine: the distinct 32-byte sectors of every host gmem_read
// (loads, and the old data of reductions) and gmem_write (stores, reductions) the AXI slaves
// made equal otma_expand's requests of the op (granularity 32).
TEST(CosimRtl, GlobalSectorsEqualExpand) {
  std::vector<std::vector<uint8_t>> maps;
  const std::vector<OpCase> cases = ClaimCases(&maps);
  int compared = 0;
  for (const OpCase& c : cases) {
    SCOPED_TRACE(c.name);
    TestHost h(kBase, kGlobal, 2, kWin);
    Fill(h, 2);
    ASSERT_EQ(h.Create(OTMA_MODE_RTL), OTMA_OK);
    std::vector<otma_mem_req> req(1024);
    uint32_t n = 0;
    uint64_t payload = 0, oob = 0;
    if (otma_expand(h.e(), &c.op, req.data(), 1024, &n, &payload, &oob) != OTMA_OK)
      continue;  // the op faults: nothing to compare
    ASSERT_LE(n, 1024u);
    h.record_global = true;
    ASSERT_EQ(cosim_test::SubmitRetry(h.e(), &c.op, nullptr), OTMA_OK);
    otma_drain(h.e());
    auto sectors = [](const std::vector<std::pair<uint64_t, uint32_t>>& v) {
      std::set<uint64_t> s;
      for (const auto& [a, len] : v) {
        for (uint64_t x = a / 32 * 32; x < a + len; x += 32)
          s.insert(x);
      }
      return s;
    };
    std::set<uint64_t> want;
    for (uint32_t i = 0; i < n; ++i)
      want.insert(req[i].addr);
    const bool writes = c.op.kind == OTMA_OP_TENSOR_STORE || c.op.kind == OTMA_OP_TENSOR_REDUCE;
    // (a prefetch reads the box's in-bounds sectors and drops them: PrefetchReads = 1)
    EXPECT_EQ(writes ? sectors(h.gwrites) : sectors(h.greads), want);
    if (c.op.kind == OTMA_OP_TENSOR_REDUCE) {
      EXPECT_EQ(sectors(h.greads), want);  // read-modify-write: the old data of the same bytes
    } else if (writes) {
      EXPECT_TRUE(h.greads.empty());
    } else {
      EXPECT_TRUE(h.gwrites.empty());
    }
    ++compared;
  }
  EXPECT_GT(compared, 30);
}

// ---- the host's memory system (mem_req / otma_mem_resp) ---------------------------------------
// A host memory model: every request accepted and answered `latency` cycles later with
// `answer`. The callbacks reach it through a pointer (otma_host.user is the TestHost).
struct HostMemory {
  otma_engine* e = nullptr;
  uint64_t latency = 0;
  otma_status answer = OTMA_OK;
  std::deque<std::pair<uint64_t, uint64_t>> due;  // (cycle, tag)
  std::vector<otma_mem_req> reqs;
  uint64_t last_due = 0;  // the cycle the last request's answer is due
  std::vector<std::string> logs;
};
HostMemory* g_mem = nullptr;

void UseHostMemory(TestHost& h, HostMemory& m, uint64_t latency) {
  g_mem = &m;
  m.latency = latency;
  h.host().mem_req = [](void*, const otma_mem_req* r) {
    g_mem->reqs.push_back(*r);
    g_mem->last_due = otma_cycle(g_mem->e) + g_mem->latency;
    g_mem->due.emplace_back(g_mem->last_due, r->tag);
    return 0;
  };
  h.host().log = [](void*, int, const char* msg) { g_mem->logs.emplace_back(msg); };
}

// Ticks one cycle at a time, answering the requests that are due, until nothing is in flight.
void RunWithHostMemory(HostMemory& m, uint64_t limit = 200000) {
  for (uint64_t i = 0; i < limit && otma_in_flight(m.e) > 0; ++i) {
    while (!m.due.empty() && m.due.front().first <= otma_cycle(m.e)) {
      EXPECT_EQ(otma_mem_resp(m.e, m.due.front().second, m.answer), OTMA_OK);
      m.due.pop_front();
    }
    otma_tick(m.e, 1);
  }
}

// One op on a fresh RTL engine whose global memory answers through mem_req after `latency`.
Outcome RunHostMemory(const otma_op& op, uint64_t latency, HostMemory* m, int ctas = 2) {
  TestHost h(kBase, kGlobal, ctas, kWin);
  Fill(h, ctas);
  UseHostMemory(h, *m, latency);
  EXPECT_EQ(h.Create(OTMA_MODE_RTL), OTMA_OK);
  if (h.e() == nullptr)
    return Outcome{};
  m->e = h.e();
  (void)cosim_test::SubmitRetry(h.e(), &op, nullptr);
  RunWithHostMemory(*m);
  g_mem = nullptr;
  return Collect(h, ctas);
}

// Every claimed op with the host's memory 300 cycles away: the same bytes, complete-tx and
// events as FUNCTIONAL; the requests are the 32-byte sectors otma_expand lists (loads: READ,
// stores: WRITE, reductions: READ and WRITE of the same sectors), each answered once; the op
// completes no earlier than its last request's answer, and about the latency later than with
// the RTL's zero-latency memory (a few cycles of the zero-latency run's own work, such as
// out-of-bounds fill, overlap the wait).
TEST(CosimRtl, HostMemoryCarriesTheRtlsTrafficWithItsLatency) {
  std::vector<std::vector<uint8_t>> maps;
  const std::vector<OpCase> cases = ClaimCases(&maps);
  constexpr uint64_t kLat = 300;
  int moved = 0;
  for (const OpCase& c : cases) {
    SCOPED_TRACE(c.name);
    const Outcome f = RunOne(OTMA_MODE_FUNCTIONAL, c.op);
    const Outcome z = RunOne(OTMA_MODE_RTL, c.op);
    HostMemory m;
    const Outcome r = RunHostMemory(c.op, kLat, &m);
    EXPECT_EQ(Events(r), Events(f));
    EXPECT_TRUE(r.g == f.g) << "global memory differs";
    EXPECT_TRUE(r.s == f.s) << "shared memory differs";
    EXPECT_EQ(r.tx, f.tx);
    EXPECT_TRUE(m.due.empty());
    bool fault = false;
    for (const auto& [t, ev, st] : f.ev)
      fault |= ev == OTMA_EV_FAULT;
    if (fault)
      continue;  // no data moved
    // (a prefetch's reads are PREFETCH requests of the box's in-bounds sectors)
    const uint32_t read_kind =
        c.op.kind == OTMA_OP_TENSOR_PREFETCH ? OTMA_REQ_PREFETCH : OTMA_REQ_READ;
    std::set<uint64_t> rd, wr;
    for (const otma_mem_req& q : m.reqs) {
      EXPECT_EQ(q.size, 32u);
      EXPECT_EQ(q.addr % 32, 0u);
      EXPECT_EQ(q.op, 1u);
      ASSERT_TRUE(q.kind == read_kind || q.kind == OTMA_REQ_WRITE) << q.kind;
      (q.kind == read_kind ? rd : wr).insert(q.addr);
    }
    TestHost x(kBase, kGlobal, 2, kWin);
    ASSERT_EQ(x.Create(OTMA_MODE_FUNCTIONAL), OTMA_OK);
    std::vector<otma_mem_req> req(1024);
    uint32_t n = 0;
    ASSERT_EQ(otma_expand(x.e(), &c.op, req.data(), 1024, &n, nullptr, nullptr), OTMA_OK);
    std::set<uint64_t> want;
    for (uint32_t i = 0; i < n; ++i)
      want.insert(req[i].addr);
    const bool writes = c.op.kind == OTMA_OP_TENSOR_STORE || c.op.kind == OTMA_OP_TENSOR_REDUCE;
    EXPECT_EQ(writes ? wr : rd, want);
    if (c.op.kind == OTMA_OP_TENSOR_REDUCE)
      EXPECT_EQ(rd, want);
    else if (writes)
      EXPECT_TRUE(rd.empty());
    else
      EXPECT_TRUE(wr.empty());
    EXPECT_GE(r.last_event, m.last_due);  // no op completes before its last answer
    EXPECT_GE(r.last_event, z.last_event + kLat - 10);
    ++moved;
  }
  EXPECT_GT(moved, 30);
}

// A map named by desc_va: the RTL's descriptor fetch (several bursts) is one OTMA_REQ_DESC
// request of 128 bytes at desc_va; a map given as bytes needs none.
TEST(CosimRtl, HostMemorySeesTheDescriptorFetch) {
  TestHost h(kBase, kGlobal, 1, kWin);
  Fill(h, 1);
  HostMemory m;
  UseHostMemory(h, m, 50);
  ASSERT_EQ(h.Create(OTMA_MODE_RTL), OTMA_OK);
  m.e = h.e();
  const auto map = Map2D(kBase, kBf16, 64, 16, 128, 32, 4);
  constexpr uint64_t kMapAt = kBase + 0x3000;
  std::memcpy(h.g().data() + (kMapAt - kBase), map.data(), 128);
  otma_op op = Load2D(map, 8, 2, 1024, 16);
  op.desc_bytes = nullptr;
  op.desc_va = kMapAt;
  ASSERT_EQ(cosim_test::SubmitRetry(h.e(), &op, nullptr), OTMA_OK);
  op.desc_bytes = map.data();
  op.desc_va = 0;
  op.smem_addr = 2048;
  ASSERT_EQ(cosim_test::SubmitRetry(h.e(), &op, nullptr), OTMA_OK);
  RunWithHostMemory(m);
  int desc = 0;
  for (const otma_mem_req& q : m.reqs) {
    if (q.kind == OTMA_REQ_DESC) {
      ++desc;
      EXPECT_EQ(q.addr, kMapAt);
      EXPECT_EQ(q.size, 128u);
      EXPECT_EQ(q.op, 1u);
    }
  }
  EXPECT_EQ(desc, 1);
  ASSERT_NE(h.Find(1, OTMA_EV_DONE), nullptr);
  ASSERT_NE(h.Find(2, OTMA_EV_DONE), nullptr);
}

// The host answers a bus error: the RTL sees SLVERR and the op faults with bus_error (a load
// on its R beats, a store on its B).
TEST(CosimRtl, HostMemoryBusErrorFaultsTheOp) {
  const auto lm = Map2D(kBase, kBf16, 64, 16, 128, 32, 4);
  const auto sm = Map2D(kBase, kU32, 32, 16, 128, 8, 4);
  otma_op ld = Load2D(lm, 8, 2, 1024, 16);
  otma_op st = Load2D(sm, 8, 2, 512, 0);
  st.kind = OTMA_OP_TENSOR_STORE;
  st.issuer_warp = 1;
  for (const otma_op& op : {ld, st}) {
    HostMemory m;
    m.answer = OTMA_E_BUS_ERROR;
    const Outcome r = RunHostMemory(op, 20, &m);
    ASSERT_FALSE(r.ev.empty());
    EXPECT_EQ(std::get<1>(r.ev.back()), static_cast<uint32_t>(OTMA_EV_FAULT)) << Events(r);
    EXPECT_EQ(std::get<2>(r.ev.back()), OTMA_E_BUS_ERROR) << Events(r);
  }
}

// A host that refuses requests (at most one accepted per cycle): the refused ones are offered
// again, in order, and the op completes with the FUNCTIONAL bytes.
TEST(CosimRtl, HostMemoryRefusalsAreRetried) {
  const auto lm = Map2D(kBase, kBf16, 64, 16, 128, 32, 4);
  const otma_op ld = Load2D(lm, 8, 2, 1024, 16);
  const Outcome f = RunOne(OTMA_MODE_FUNCTIONAL, ld);
  TestHost h(kBase, kGlobal, 2, kWin);
  Fill(h, 2);
  HostMemory m;
  UseHostMemory(h, m, 10);
  static uint64_t last_cycle;
  static int refused;
  last_cycle = UINT64_MAX;
  refused = 0;
  h.host().mem_req = [](void*, const otma_mem_req* r) {
    const uint64_t now = otma_cycle(g_mem->e);
    if (now == last_cycle) {
      ++refused;
      return 1;
    }
    last_cycle = now;
    g_mem->reqs.push_back(*r);
    g_mem->due.emplace_back(now + g_mem->latency, r->tag);
    return 0;
  };
  ASSERT_EQ(h.Create(OTMA_MODE_RTL), OTMA_OK);
  m.e = h.e();
  ASSERT_EQ(cosim_test::SubmitRetry(h.e(), &ld, nullptr), OTMA_OK);
  RunWithHostMemory(m);
  EXPECT_GT(refused, 0);
  for (size_t i = 1; i < m.reqs.size(); ++i)
    EXPECT_GT(m.reqs[i].tag, m.reqs[i - 1].tag) << "requests offered out of order";
  EXPECT_TRUE(h.s(0) == f.s[0]);
  ASSERT_NE(h.Find(1, OTMA_EV_DONE), nullptr);
  g_mem = nullptr;
}

// ---- READ_DONE at the store's last shared-memory read --------------------------------------
// A store whose writes wait 400 cycles for their B responses (the host's memory): READ_DONE
// comes strictly before DONE, and between the two cp.async.bulk.wait_group.read returns while
// cp.async.bulk.wait_group does not.
TEST(CosimRtl, StoreReadDoneComesBeforeDoneWhenWritesWait) {
  TestHost h(kBase, kGlobal, 1, kWin);
  Fill(h, 1);
  HostMemory m;
  constexpr uint64_t kLat = 400;
  UseHostMemory(h, m, kLat);
  ASSERT_EQ(h.Create(OTMA_MODE_RTL), OTMA_OK);
  m.e = h.e();
  const auto sm = Map2D(kBase, kU32, 32, 16, 128, 8, 4);
  otma_op st = Load2D(sm, 8, 2, 512, 0);
  st.kind = OTMA_OP_TENSOR_STORE;
  st.issuer_warp = 3;
  otma_token t = 0;
  ASSERT_EQ(cosim_test::SubmitRetry(h.e(), &st, &t), OTMA_OK);
  ASSERT_EQ(otma_bulk_commit(h.e(), 3), OTMA_OK);
  bool read_window_seen = false;
  for (int i = 0; i < 20000 && otma_in_flight(h.e()) > 0; ++i) {
    while (!m.due.empty() && m.due.front().first <= otma_cycle(h.e())) {
      otma_mem_resp(h.e(), m.due.front().second, OTMA_OK);
      m.due.pop_front();
    }
    otma_tick(h.e(), 1);
    if (h.Find(t, OTMA_EV_READ_DONE) != nullptr && h.Find(t, OTMA_EV_DONE) == nullptr) {
      EXPECT_EQ(otma_bulk_wait(h.e(), 3, 0, 1), 1);
      EXPECT_EQ(otma_bulk_wait(h.e(), 3, 0, 0), 0);
      read_window_seen = true;
    }
  }
  const cosim_test::Ev* rd = h.Find(t, OTMA_EV_READ_DONE);
  const cosim_test::Ev* dn = h.Find(t, OTMA_EV_DONE);
  ASSERT_NE(rd, nullptr);
  ASSERT_NE(dn, nullptr);
  EXPECT_LT(rd->cycle, dn->cycle);
  EXPECT_GE(dn->cycle - rd->cycle, kLat);  // the B responses wait for the host's answers
  EXPECT_TRUE(read_window_seen);
  for (const std::string& l : m.logs)
    EXPECT_EQ(l.find("predicted"), std::string::npos) << l;
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 32; ++x) {
      ASSERT_EQ(h.g()[static_cast<size_t>(128 * (2 + y) + 32 + x)],
                h.s(0)[static_cast<size_t>(512 + 32 * y + x)]);
    }
  }
  g_mem = nullptr;
}

// For every claimed store and reduction, the RTL's shared-memory reads match the count the
// library predicts from the model's rows (the READ_DONE rule), so none falls back to READ_DONE
// with DONE; READ_DONE never comes after DONE.
TEST(CosimRtl, StoreSharedReadsMatchThePrediction) {
  std::vector<std::vector<uint8_t>> maps;
  const std::vector<OpCase> cases = ClaimCases(&maps);
  int stores = 0;
  for (const OpCase& c : cases) {
    if (c.op.kind != OTMA_OP_TENSOR_STORE && c.op.kind != OTMA_OP_TENSOR_REDUCE)
      continue;
    SCOPED_TRACE(c.name);
    TestHost h(kBase, kGlobal, 2, kWin);
    Fill(h, 2);
    HostMemory m;
    UseHostMemory(h, m, 0);
    h.host().mem_req = nullptr;  // zero latency; the log callback stays
    ASSERT_EQ(h.Create(OTMA_MODE_RTL), OTMA_OK);
    m.e = h.e();
    otma_token t = 0;
    ASSERT_EQ(cosim_test::SubmitRetry(h.e(), &c.op, &t), OTMA_OK);
    otma_drain(h.e());
    const cosim_test::Ev* rd = h.Find(t, OTMA_EV_READ_DONE);
    const cosim_test::Ev* dn = h.Find(t, OTMA_EV_DONE);
    if (dn == nullptr)
      continue;  // the op faults
    ASSERT_NE(rd, nullptr);
    EXPECT_LE(rd->cycle, dn->cycle);
    for (const std::string& l : m.logs)
      EXPECT_EQ(l.find("predicted"), std::string::npos) << l;
    ++stores;
    g_mem = nullptr;
  }
  EXPECT_GT(stores, 20);
}

// ---- A9: two RTL engines on two threads --------------------------------------------------------
TEST(CosimRtl, TwoEnginesOnTwoThreadsEqualASerialRun) {
  const Batch s1 = RunBatch(8, 1);
  const Batch s2 = RunBatch(5, 13);
  Batch t1, t2;
  std::thread a([&] { t1 = RunBatch(8, 1); });
  std::thread b([&] { t2 = RunBatch(5, 13); });
  a.join();
  b.join();
  EXPECT_EQ(t1.done, s1.done);
  EXPECT_EQ(t2.done, s2.done);
  EXPECT_TRUE(t1.smem == s1.smem);
  EXPECT_TRUE(t2.smem == s2.smem);
}

}  // namespace
