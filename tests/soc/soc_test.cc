// SPDX-License-Identifier: Apache-2.0
//
// The SoC top (tma_soc_top, sim build: 16 CTAs x 64 KiB) through its registers, its AXI4
// global memory and irq only (SocHarness + the register-level driver, fw/src/soc/): register
// access, illegal accesses, the shared-memory window, the command window and ring, ring
// wrap-around, full and empty rings, interrupt masking, soft reset with commands in flight,
// the mbarrier units, non-tensor bulk commands with commit_group and the bulk-group completion
// records. Every test also fails on an RTL assertion (the AXI4-Lite and AXI4 read
// checkers are bound to the SoC ports) or an AXI4-Lite access without a response.
//
// Expected data are derived by hand: global memory byte at G + i holds Pattern(i); a 2-D u8
// tile load of box {W, H} at coordinates {x0, y0} from a row-major tensor of row pitch P
// writes shared byte r * W + x = Pattern((y0 + r) * P + x0 + x) and signals W x H bytes.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "fw/src/soc/tma_soc_driver.h"
#include "sim/soc/soc_harness.h"
#include "tma/descriptor.h"

#include "fw/include/tma/autogen/tma_regs.h"

namespace {

namespace fw = tma::fw;
namespace m = tma::model;
using tma::sim::SocHarness;

#define TMA_OFF(reg) static_cast<uint32_t>(offsetof(tma_regs_t, reg))

constexpr uint64_t kGlobal = 0x10000;  // tensor base
constexpr uint32_t kPitch = 256;       // bytes per tensor row (dims {256, 64}, u8)
constexpr uint64_t kDesc = 0x40000;    // tensor map
constexpr uint64_t kCmdRing = 0x50000;
constexpr uint64_t kCplRing = 0x60000;
constexpr uint32_t kMbar = 0x8000;
constexpr uint32_t kCpl = TMA_REGS__INTR_STATE__CPL_bm;

uint8_t Pattern(uint64_t i) {
  return static_cast<uint8_t>(i * 7 + 3 + (i >> 8));
}

class SocTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<uint8_t> g(kPitch * 64);
    for (size_t i = 0; i < g.size(); ++i) {
      g[i] = Pattern(i);
    }
    h_.MemWrite(kGlobal, g.data(), g.size());
    SetBox(32, 8);
  }
  void TearDown() override {
    EXPECT_FALSE(h_.TakeAssertFailure()) << "an RTL assertion failed";
    EXPECT_FALSE(h_.hung()) << "an AXI4-Lite access got no response";
  }
  // The tensor map: 2-D u8, dims {256, 64}, box {w, h}.
  void SetBox(uint32_t w, uint32_t h) {
    m::TensorMap map;
    map.rank = 2;
    map.dtype = m::DType::kU8;
    map.global_address = kGlobal;
    map.dims = {kPitch, 64, 1, 1, 1};
    map.strides = {kPitch, 0, 0, 0};
    map.box = {w, h, 1, 1, 1};
    const m::DescriptorBytes d = m::EncodeDescriptor(map);
    h_.MemWrite(kDesc, d.data(), d.size());
    box_w_ = w;
    box_h_ = h;
  }
  fw::SocCommand Load(int x0, int y0, uint32_t tag, uint32_t smem = 0, int cta = 0) {
    fw::SocCommand c;
    c.op = 0;    // load
    c.mode = 0;  // tile
    c.dim = 2;
    c.desc_addr = kDesc;
    c.coords = {x0, y0, 0, 0, 0};
    c.smem_addr = smem;
    c.mbar_addr = kMbar;
    c.issuer = cta;
    c.dst_cta = cta;
    c.tag = tag;
    return c;
  }
  // The shared bytes of a box loaded at {x0, y0}, checked through the window.
  void ExpectBox(int cta, uint32_t smem, int x0, int y0) {
    std::vector<uint8_t> got(box_w_ * box_h_);
    ASSERT_TRUE(drv_.SmemRead(cta, smem, got.data(), got.size()));
    for (uint32_t r = 0; r < box_h_; ++r) {
      for (uint32_t x = 0; x < box_w_; ++x) {
        ASSERT_EQ(got[r * box_w_ + x], Pattern((y0 + r) * kPitch + x0 + x))
            << "CTA " << cta << " row " << r << " byte " << x;
      }
    }
  }
  // Completions from the FIFO until `n` arrived (or a cycle budget ran out).
  std::vector<fw::SocCompletion> WaitFifo(size_t n, uint64_t budget = 200000) {
    std::vector<fw::SocCompletion> out;
    const uint64_t t0 = h_.cycles();
    while (out.size() < n && h_.cycles() - t0 < budget) {
      h_.Step(64);
      drv_.PopFifo(&out);
    }
    return out;
  }

  SocHarness h_;
  fw::SocDriver drv_{&h_, SocHarness::kGmemLinkBase};
  uint32_t box_w_ = 0, box_h_ = 0;
};

TEST_F(SocTest, CsrAccessSequences) {
  ASSERT_TRUE(drv_.Probe());
  const uint32_t b0 = drv_.Reg(TMA_OFF(BUILD0));
  EXPECT_EQ((b0 & TMA_REGS__BUILD0__DATA_BYTES_bm) >> TMA_REGS__BUILD0__DATA_BYTES_bp, 16u);
  EXPECT_EQ((b0 & TMA_REGS__BUILD0__NUM_CTAS_bm) >> TMA_REGS__BUILD0__NUM_CTAS_bp, 16u);
  EXPECT_EQ((b0 & TMA_REGS__BUILD0__CACHE_ENTRIES_bm) >> TMA_REGS__BUILD0__CACHE_ENTRIES_bp, 4u);
  EXPECT_EQ((b0 & TMA_REGS__BUILD0__ARCH_bm) >> TMA_REGS__BUILD0__ARCH_bp, 103u);
  const uint32_t b1 = drv_.Reg(TMA_OFF(BUILD1));
  EXPECT_EQ((b1 & TMA_REGS__BUILD1__SMEM_KIB_bm) >> TMA_REGS__BUILD1__SMEM_KIB_bp, 64u);
  EXPECT_EQ((b1 & TMA_REGS__BUILD1__MBAR_SLOTS_bm) >> TMA_REGS__BUILD1__MBAR_SLOTS_bp, 4u);
  // Read-write registers hold what was written, within their fields.
  ASSERT_TRUE(drv_.Wr(TMA_OFF(CMD_W11), 0xdeadbeef));
  ASSERT_TRUE(drv_.Wr(TMA_OFF(MBAR_ADDR), 0x12345678));
  ASSERT_TRUE(drv_.Wr(TMA_OFF(CMDR_THRESH), 0xffffffff));
  ASSERT_TRUE(drv_.Wr(TMA_OFF(CMD_W0), 0xffffffff));
  EXPECT_EQ(drv_.Reg(TMA_OFF(CMD_W11)), 0xdeadbeefu);
  EXPECT_EQ(drv_.Reg(TMA_OFF(MBAR_ADDR)), 0x12345678u);
  EXPECT_EQ(drv_.Reg(TMA_OFF(CMDR_THRESH)), 0x1ffffu);
  EXPECT_EQ(drv_.Reg(TMA_OFF(CMD_W0)), 0xffffffffu);  // every bit a field
  // Back to back: a write then a read of another register, many times.
  for (uint32_t i = 0; i < 32; ++i) {
    ASSERT_TRUE(drv_.Wr(TMA_OFF(CMD_W4) + 4 * (i % 5), i * 0x01010101u));
    EXPECT_EQ(drv_.Reg(TMA_OFF(CMD_W4) + 4 * (i % 5)), i * 0x01010101u);
  }
  // CTRL.arch resets to sm_103 (2), CTRL.cluster to 0 (the whole shell); both hold what was
  // written.
  const uint32_t ctrl = drv_.Reg(TMA_OFF(CTRL));
  EXPECT_EQ((ctrl & TMA_REGS__CTRL__ARCH_bm) >> TMA_REGS__CTRL__ARCH_bp, 2u);
  EXPECT_EQ((ctrl & TMA_REGS__CTRL__CLUSTER_bm) >> TMA_REGS__CTRL__CLUSTER_bp, 0u);
  drv_.SetTarget(1, 5);
  const uint32_t target = TMA_REGS__CTRL__ARCH_bm | TMA_REGS__CTRL__CLUSTER_bm;
  EXPECT_EQ(drv_.Reg(TMA_OFF(CTRL)) & target,
            (1u << TMA_REGS__CTRL__ARCH_bp) | (5u << TMA_REGS__CTRL__CLUSTER_bp));
  // Soft reset keeps the registers (only the ring pointers and state move).
  ASSERT_TRUE(drv_.SoftReset());
  EXPECT_EQ(drv_.Reg(TMA_OFF(CMD_W11)), 0xdeadbeefu);
  EXPECT_EQ(drv_.Reg(TMA_OFF(CTRL)) & target,
            (1u << TMA_REGS__CTRL__ARCH_bp) | (5u << TMA_REGS__CTRL__CLUSTER_bp));
  drv_.SetTarget(2, 0);
}

TEST_F(SocTest, IllegalAccessesAnswerSlverr) {
  uint32_t v = 0;
  EXPECT_FALSE(h_.AxilRead(0x3fc, &v));     // no register there
  EXPECT_FALSE(h_.AxilWrite(0x018, 1));     // a hole in the map
  EXPECT_FALSE(h_.AxilRead(0x000400, &v));  // above the register block
  EXPECT_FALSE(h_.AxilRead(0x0ffffc, &v));  // below the window
  EXPECT_FALSE(h_.AxilWrite(0x080000, 1));
  EXPECT_FALSE(h_.AxilWrite(TMA_OFF(ID), 0));  // read-only register
  EXPECT_FALSE(h_.AxilWrite(TMA_OFF(STATUS), 0));
  EXPECT_FALSE(h_.AxilRead(TMA_OFF(CMD_DOORBELL), &v));  // write-only register
  EXPECT_FALSE(h_.AxilRead(TMA_OFF(INTR_TEST), &v));
  EXPECT_FALSE(h_.hung());
  // The port still works, and nothing happened.
  EXPECT_TRUE(drv_.Probe());
  EXPECT_EQ(drv_.Reg(TMA_OFF(STATUS)) & TMA_REGS__STATUS__WIN_PENDING_bm, 0u);
}

TEST_F(SocTest, SharedMemoryWindow) {
  ASSERT_TRUE(h_.AxilWrite(0x100000, 0x11223344));
  ASSERT_TRUE(h_.AxilWrite(0x100000 + 15 * 0x10000 + 0xfffc, 0xa5a55a5a));
  ASSERT_TRUE(h_.AxilWrite(0x100000 + 7 * 0x10000 + 0x1234, 0x01020304));
  uint32_t v = 0;
  ASSERT_TRUE(h_.AxilRead(0x100000, &v));
  EXPECT_EQ(v, 0x11223344u);
  ASSERT_TRUE(h_.AxilRead(0x100000 + 15 * 0x10000 + 0xfffc, &v));
  EXPECT_EQ(v, 0xa5a55a5au);
  ASSERT_TRUE(h_.AxilRead(0x100000 + 7 * 0x10000 + 0x1234, &v));
  EXPECT_EQ(v, 0x01020304u);
  ASSERT_TRUE(h_.AxilRead(0x100000 + 7 * 0x10000 + 0x1238, &v));  // neighbour word untouched
  EXPECT_EQ(v, 0u);
}

TEST_F(SocTest, WindowCommandLoadsAndCompletesInFifo) {
  drv_.Wr(TMA_OFF(INTR_ENABLE), kCpl);
  ASSERT_TRUE(drv_.SubmitWindow(Load(16, 4, 0x21, 0x400)));
  ASSERT_TRUE(h_.WaitIrq(100000));
  const std::vector<fw::SocCompletion> c = WaitFifo(1);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].kind, 0u);  // complete-tx
  EXPECT_EQ(c[0].cta, 0u);
  EXPECT_EQ(c[0].tag, 0x21u);
  EXPECT_EQ(c[0].mbar_addr, kMbar);
  EXPECT_EQ(c[0].bytes, 32u * 8u);
  ExpectBox(0, 0x400, 16, 4);
  EXPECT_EQ(drv_.Reg(TMA_OFF(CNT_CMDS)), 1u);
  EXPECT_EQ(drv_.Reg(TMA_OFF(CNT_BYTES_LO)), 256u);
  EXPECT_NE(drv_.Reg(TMA_OFF(CNT_BUSY_LO)), 0u);
}

// Non-tensor bulk commands (docs/interfaces.md "Bulk commands") and commit_group through the
// window and the ring: a bulk load global -> shared::cta, a bulk store back to global and a
// bulk reduction (add .u32) onto it, each store / reduction committed as a group of CTA 1; the
// group completions (kind CplGroup: read-done, then done, sequence 0 then 1) reach the FIFO and
// the ring with the grp interrupt. Expected bytes: the load copies Pattern(0x100 + i), the
// store copies them to kOut, the reduction doubles every little-endian 32-bit word there.
TEST_F(SocTest, BulkCommandsAndGroupCompletions) {
  constexpr uint64_t kOut = 0x70000;
  constexpr uint32_t kBytes = 256, kSmem = 0x200;
  const std::vector<uint8_t> zero(kBytes, 0);
  h_.MemWrite(kOut, zero.data(), zero.size());
  auto bulk = [&](uint32_t op, uint64_t gaddr, uint32_t tag) {
    fw::SocCommand c;
    c.op = op;
    c.mode = 7;  // BulkMode
    c.desc_addr = gaddr;
    c.smem_addr = kSmem;
    c.coords = {static_cast<int32_t>(kBytes), 0, 0, 0, 0};
    c.mbar_addr = kMbar;
    c.issuer = 1;
    c.dst_cta = 1;
    c.tag = tag;
    return c;
  };
  const uint32_t grp = TMA_REGS__INTR_STATE__GRP_bm;
  drv_.Wr(TMA_OFF(INTR_ENABLE), grp);
  // Load (FIFO): one complete-tx of 256 bytes to CTA 1, no group completion.
  ASSERT_TRUE(drv_.SubmitWindow(bulk(0, kGlobal + 0x100, 0x41)));
  std::vector<fw::SocCompletion> c = WaitFifo(1);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].kind, 0u);
  EXPECT_EQ(c[0].cta, 1u);
  EXPECT_EQ(c[0].bytes, kBytes);
  std::vector<uint8_t> sm(kBytes);
  ASSERT_TRUE(drv_.SmemRead(1, kSmem, sm.data(), kBytes));
  for (uint32_t i = 0; i < kBytes; ++i) {
    ASSERT_EQ(sm[i], Pattern(0x100 + i)) << "byte " << i;
  }
  h_.Step(20);
  EXPECT_FALSE(h_.irq()) << "grp interrupt without a group";
  // Store + commit_group (FIFO): done of the store, read-done and done of group 0 of CTA 1.
  ASSERT_TRUE(drv_.SubmitWindow(bulk(1, kOut, 0x42)));
  const uint64_t t0 = h_.cycles();
  while (!drv_.SubmitWindow(fw::CommitGroupCommand(1)) && h_.cycles() - t0 < 100000) {
    h_.Step(16);
  }
  ASSERT_TRUE(h_.WaitIrq(100000));
  c = WaitFifo(3);
  ASSERT_EQ(c.size(), 3u);
  int done = 0, groups = 0;
  for (const fw::SocCompletion& k : c) {
    if (k.kind == 2u) {  // done
      EXPECT_EQ(k.tag, 0x42u);
      ++done;
    } else {
      ASSERT_EQ(k.kind, 3u);  // group
      EXPECT_EQ(k.cta, 1u);
      EXPECT_EQ(k.tag, 0u);
      EXPECT_EQ(k.grp_done, groups == 1);  // read-done first
      EXPECT_FALSE(k.grp_err);
      EXPECT_EQ(k.bytes, 0u);
      ++groups;
    }
  }
  EXPECT_EQ(done, 1);
  EXPECT_EQ(groups, 2);
  EXPECT_NE(drv_.Reg(TMA_OFF(INTR_STATE)) & grp, 0u);
  std::vector<uint8_t> out(kBytes);
  h_.MemRead(kOut, out.data(), kBytes);
  EXPECT_EQ(out, sm);
  // Reduction (add .u32) + commit_group through the rings: group 1 of CTA 1.
  drv_.Wr(TMA_OFF(INTR_STATE), ~0u);
  drv_.SetupCplRing(kCplRing, 2);
  drv_.SetupCmdRing(kCmdRing, 2);
  fw::SocCommand red = bulk(2, kOut, 0x43);
  red.redop = 0;      // add
  red.coords[2] = 1;  // .u32 (BulkTU32)
  ASSERT_TRUE(drv_.SubmitRing({red, fw::CommitGroupCommand(1)}));
  std::vector<fw::SocCompletion> r;
  const uint64_t t1 = h_.cycles();
  while (r.size() < 3 && h_.cycles() - t1 < 200000) {
    h_.Step(64);
    ASSERT_TRUE(drv_.DrainCplRing(&r)) << "a record with the wrong lap bit";
  }
  ASSERT_EQ(r.size(), 3u);
  groups = 0;
  for (const fw::SocCompletion& k : r) {
    if (k.kind == 3u) {
      EXPECT_EQ(k.cta, 1u);
      EXPECT_EQ(k.tag, 1u);
      EXPECT_EQ(k.grp_done, groups == 1);
      EXPECT_FALSE(k.grp_err);
      ++groups;
    } else {
      EXPECT_EQ(k.kind, 2u);
      EXPECT_EQ(k.tag, 0x43u);
    }
  }
  EXPECT_EQ(groups, 2);
  EXPECT_NE(drv_.Reg(TMA_OFF(INTR_STATE)) & grp, 0u);
  h_.MemRead(kOut, out.data(), kBytes);
  for (uint32_t i = 0; i < kBytes; i += 4) {
    uint32_t a = 0, b = 0;
    for (int k = 3; k >= 0; --k) {
      a = a << 8 | sm[i + k];
      b = b << 8 | out[i + k];
    }
    ASSERT_EQ(b, 2 * a) << "word " << i / 4;
  }
  // The group interrupt is maskable like every source.
  drv_.Wr(TMA_OFF(INTR_ENABLE), 0);
  h_.Step(2);
  EXPECT_FALSE(h_.irq());
}

TEST_F(SocTest, RingWrapAround) {
  drv_.SetupCplRing(kCplRing, 2);  // 4 records
  drv_.SetupCmdRing(kCmdRing, 2);  // 4 records
  std::vector<fw::SocCompletion> got;
  uint32_t sent = 0;
  const uint64_t t0 = h_.cycles();
  while (got.size() < 11 && h_.cycles() - t0 < 400000) {
    std::vector<fw::SocCommand> batch;
    for (uint32_t free = drv_.CmdRingFree(); free > 0 && sent < 11; --free, ++sent) {
      batch.push_back(Load(16 * (sent % 8), sent % 16, sent, 0x400 * sent));
    }
    ASSERT_TRUE(drv_.SubmitRing(batch));
    h_.Step(200);
    ASSERT_TRUE(drv_.DrainCplRing(&got)) << "a record with the wrong lap bit";
  }
  ASSERT_EQ(got.size(), 11u);
  for (uint32_t i = 0; i < 11; ++i) {
    EXPECT_EQ(got[i].tag, i);
    EXPECT_EQ(got[i].bytes, 256u);
  }
  for (uint32_t i = 0; i < 11; ++i) {
    ExpectBox(0, 0x400 * i, 16 * (i % 8), i % 16);
  }
  // 11 records through rings of 4: both indices are 11 mod 8.
  EXPECT_EQ(drv_.Reg(TMA_OFF(CMDR_HEAD)), 3u);
  EXPECT_EQ(drv_.Reg(TMA_OFF(CPLR_TAIL)), 3u);
}

TEST_F(SocTest, FullAndEmptyRings) {
  drv_.SetupCplRing(kCplRing, 1);  // 2 records
  drv_.SetupCmdRing(kCmdRing, 2);  // 4 records
  drv_.Wr(TMA_OFF(CTRL), drv_.Reg(TMA_OFF(CTRL)) & ~TMA_REGS__CTRL__ENABLE_bm);
  // Empty command ring: at or below the threshold (0).
  drv_.Wr(TMA_OFF(INTR_STATE), ~0u);
  EXPECT_NE(drv_.Reg(TMA_OFF(INTR_STATE)) & TMA_REGS__INTR_STATE__CMDR_LOW_bm, 0u);
  // Fill the command ring with the fetcher off: full, nothing fetched.
  std::vector<fw::SocCommand> four;
  for (uint32_t i = 0; i < 4; ++i) {
    four.push_back(Load(0, i, i, 0x400 * i));
  }
  ASSERT_TRUE(drv_.SubmitRing(four));
  EXPECT_EQ(drv_.CmdRingFree(), 0u);
  EXPECT_FALSE(drv_.SubmitRing({Load(0, 0, 9)}));
  h_.Step(300);
  EXPECT_EQ(drv_.Reg(TMA_OFF(CMDR_HEAD)), 0u);
  EXPECT_EQ(h_.ar_bursts(), 0u);
  drv_.Wr(TMA_OFF(INTR_STATE), ~0u);
  EXPECT_EQ(drv_.Reg(TMA_OFF(INTR_STATE)) & TMA_REGS__INTR_STATE__CMDR_LOW_bm, 0u);
  // Fetcher on: two completions fill the completion ring, the rest wait.
  drv_.Wr(TMA_OFF(CTRL), drv_.Reg(TMA_OFF(CTRL)) | TMA_REGS__CTRL__ENABLE_bm);
  h_.Step(5000);
  EXPECT_EQ(drv_.Reg(TMA_OFF(CPLR_TAIL)), 2u);
  EXPECT_NE(drv_.Reg(TMA_OFF(STATUS)) & TMA_REGS__STATUS__CPL_RING_FULL_bm, 0u);
  // Consume: everything completes, both rings end empty.
  std::vector<fw::SocCompletion> got;
  const uint64_t t0 = h_.cycles();
  while (got.size() < 4 && h_.cycles() - t0 < 100000) {
    ASSERT_TRUE(drv_.DrainCplRing(&got));
    h_.Step(200);
  }
  ASSERT_EQ(got.size(), 4u);
  for (uint32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(got[i].tag, i);
    ExpectBox(0, 0x400 * i, 0, i);
  }
  EXPECT_EQ(drv_.Reg(TMA_OFF(CMDR_HEAD)), drv_.Reg(TMA_OFF(CMDR_TAIL)));
  EXPECT_EQ(drv_.Reg(TMA_OFF(STATUS)) & TMA_REGS__STATUS__CPL_RING_FULL_bm, 0u);
  drv_.Wr(TMA_OFF(INTR_STATE), ~0u);
  EXPECT_NE(drv_.Reg(TMA_OFF(INTR_STATE)) & TMA_REGS__INTR_STATE__CMDR_LOW_bm, 0u);
}

TEST_F(SocTest, InterruptMasking) {
  const uint32_t all = TMA_REGS__INTR_STATE__CPL_bm | TMA_REGS__INTR_STATE__ERR_bm |
                       TMA_REGS__INTR_STATE__CPLR_HIGH_bm | TMA_REGS__INTR_STATE__MBAR_bm |
                       TMA_REGS__INTR_STATE__MBAR_STUCK_bm | TMA_REGS__INTR_STATE__GRP_bm;
  drv_.Wr(TMA_OFF(INTR_ENABLE), 0);
  drv_.Wr(TMA_OFF(INTR_STATE), ~0u);
  EXPECT_EQ(drv_.Reg(TMA_OFF(INTR_STATE)) & all, 0u);
  drv_.Wr(TMA_OFF(INTR_TEST), all);
  EXPECT_EQ(drv_.Reg(TMA_OFF(INTR_STATE)) & all, all);
  h_.Step(10);
  EXPECT_FALSE(h_.irq()) << "irq with every source masked";
  drv_.Wr(TMA_OFF(INTR_ENABLE), TMA_REGS__INTR_STATE__ERR_bm);
  h_.Step(2);
  EXPECT_TRUE(h_.irq());
  drv_.Wr(TMA_OFF(INTR_STATE), TMA_REGS__INTR_STATE__ERR_bm);  // write 1 to clear
  h_.Step(2);
  EXPECT_FALSE(h_.irq());
  EXPECT_EQ(drv_.Reg(TMA_OFF(INTR_STATE)) & all, all & ~TMA_REGS__INTR_STATE__ERR_bm);
  // A real completion with its source masked sets the state, not the line.
  drv_.Wr(TMA_OFF(INTR_STATE), ~0u);
  ASSERT_TRUE(drv_.SubmitWindow(Load(0, 0, 1)));
  ASSERT_EQ(WaitFifo(1).size(), 1u);
  EXPECT_NE(drv_.Reg(TMA_OFF(INTR_STATE)) & kCpl, 0u);
  EXPECT_FALSE(h_.irq());
  drv_.Wr(TMA_OFF(INTR_ENABLE), kCpl);
  h_.Step(2);
  EXPECT_TRUE(h_.irq());
  // An error completion: class and tag in ERR_STATUS, the err source.
  drv_.Wr(TMA_OFF(INTR_STATE), ~0u);
  drv_.Wr(TMA_OFF(INTR_ENABLE), TMA_REGS__INTR_STATE__ERR_bm);
  fw::SocCommand bad = Load(0, 0, 0x33, 0x40);  // shared address not 128-byte aligned
  ASSERT_TRUE(drv_.SubmitWindow(bad));
  ASSERT_TRUE(h_.WaitIrq(100000));
  const std::vector<fw::SocCompletion> c = WaitFifo(1);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].kind, 1u);  // error
  const uint32_t es = drv_.Reg(TMA_OFF(ERR_STATUS));
  EXPECT_NE(es & TMA_REGS__ERR_STATUS__VALID_bm, 0u);
  EXPECT_EQ((es & TMA_REGS__ERR_STATUS__ERR_CLASS_bm) >> TMA_REGS__ERR_STATUS__ERR_CLASS_bp,
            c[0].err);
  EXPECT_EQ((es & TMA_REGS__ERR_STATUS__TAG_bm) >> TMA_REGS__ERR_STATUS__TAG_bp, 0x33u);
  EXPECT_EQ(drv_.Reg(TMA_OFF(CNT_ERRS)), 1u);
  drv_.Wr(TMA_OFF(ERR_CLEAR), 1);
  EXPECT_EQ(drv_.Reg(TMA_OFF(ERR_STATUS)) & TMA_REGS__ERR_STATUS__VALID_bm, 0u);
}

TEST_F(SocTest, SoftResetWithCommandsInFlight) {
  SetBox(256, 32);  // 8 KiB per command
  h_.set_r_stall_every(2);
  drv_.SetupCmdRing(kCmdRing, 2);
  std::vector<fw::SocCommand> four;
  for (uint32_t i = 0; i < 4; ++i) {
    four.push_back(Load(0, 8 * i, i, 0x2000 * i));
  }
  ASSERT_TRUE(drv_.SubmitRing(four));
  h_.Step(300);
  ASSERT_NE(h_.ar_bursts(), 0u);
  ASSERT_NE(drv_.Reg(TMA_OFF(STATUS)) & TMA_REGS__STATUS__BUSY_bm, 0u);
  ASSERT_TRUE(drv_.SoftReset());
  // Both rings and the FIFO are empty, the counters and the error status cleared.
  EXPECT_EQ(drv_.Reg(TMA_OFF(CMDR_HEAD)), drv_.Reg(TMA_OFF(CMDR_TAIL)));
  EXPECT_NE(drv_.Reg(TMA_OFF(CPLF_STATUS)) & TMA_REGS__CPLF_STATUS__EMPTY_bm, 0u);
  EXPECT_EQ(drv_.Reg(TMA_OFF(CNT_CMDS)), 0u);
  h_.Step(500);
  EXPECT_EQ(drv_.Reg(TMA_OFF(STATUS)) & TMA_REGS__STATUS__BUSY_bm, 0u);
  std::vector<fw::SocCompletion> none;
  drv_.PopFifo(&none);
  EXPECT_TRUE(none.empty()) << "a completion of a command from before the soft reset";
  // Records the fetcher has not read yet are dropped too: the ring is empty afterwards.
  drv_.Wr(TMA_OFF(CTRL), drv_.Reg(TMA_OFF(CTRL)) & ~TMA_REGS__CTRL__ENABLE_bm);
  ASSERT_TRUE(drv_.SubmitRing({Load(0, 0, 0x50), Load(0, 1, 0x51)}));
  EXPECT_EQ(drv_.CmdRingFree(), 2u);
  ASSERT_TRUE(drv_.SoftReset());
  EXPECT_EQ(drv_.Reg(TMA_OFF(CMDR_HEAD)), drv_.Reg(TMA_OFF(CMDR_TAIL)));
  EXPECT_EQ(drv_.CmdRingFree(), 4u);
  drv_.Wr(TMA_OFF(CTRL), drv_.Reg(TMA_OFF(CTRL)) | TMA_REGS__CTRL__ENABLE_bm);
  h_.Step(2000);
  drv_.PopFifo(&none);
  EXPECT_TRUE(none.empty()) << "a record written before the soft reset ran after it";
  // The engine works after it: window and ring.
  h_.set_r_stall_every(0);
  SetBox(32, 8);
  ASSERT_TRUE(drv_.SubmitWindow(Load(48, 3, 0x44, 0x800)));
  std::vector<fw::SocCompletion> c = WaitFifo(1);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].tag, 0x44u);
  ExpectBox(0, 0x800, 48, 3);
  ASSERT_TRUE(drv_.SubmitRing({Load(64, 5, 0x45, 0xc00)}));
  c = WaitFifo(1);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].tag, 0x45u);
  ExpectBox(0, 0xc00, 64, 5);
}

TEST_F(SocTest, MbarrierPhaseStuckAndMiss) {
  drv_.Wr(TMA_OFF(INTR_ENABLE), TMA_REGS__INTR_STATE__MBAR_bm);
  // CTA 3, slot 1: one arrival expecting 256 bytes; the copy's complete-tx ends the phase.
  drv_.MbarOperate(3, 1, fw::SocDriver::kMbarInit, 1, kMbar);
  drv_.MbarOperate(3, 1, fw::SocDriver::kMbarArriveExpectTx, 256, kMbar);
  fw::SocDriver::MbarState s = drv_.MbarRead(3, 1);
  EXPECT_TRUE(s.valid);
  EXPECT_FALSE(s.phase);
  EXPECT_EQ(s.pending, 0u);
  EXPECT_EQ(s.tx, 256);
  ASSERT_TRUE(drv_.SubmitWindow(Load(0, 0, 7, 0, 3)));
  ASSERT_TRUE(h_.WaitIrq(100000));
  s = drv_.MbarRead(3, 1);
  EXPECT_TRUE(s.phase);
  EXPECT_EQ(s.pending, 1u);  // reloaded from the expected count
  EXPECT_EQ(s.tx, 0);
  EXPECT_EQ(drv_.Reg(TMA_OFF(MBAR_DONE_LO)), 1u << (4 * 3 + 1));
  drv_.Wr(TMA_OFF(MBAR_DONE_LO), 1u << (4 * 3 + 1));
  EXPECT_EQ(drv_.Reg(TMA_OFF(MBAR_DONE_LO)), 0u);
  ASSERT_EQ(WaitFifo(1).size(), 1u);
  // Slot 2 of CTA 0 expects 100 bytes nobody sends: stuck once the engine idles.
  drv_.MbarOperate(0, 2, fw::SocDriver::kMbarInit, 1, 0x9000);
  drv_.MbarOperate(0, 2, fw::SocDriver::kMbarExpectTx, 100, 0x9000);
  h_.Step(600);
  EXPECT_TRUE(drv_.MbarRead(0, 2).stuck);
  EXPECT_EQ(drv_.Reg(TMA_OFF(MBAR_STUCK_LO)), 1u << 2);
  EXPECT_NE(drv_.Reg(TMA_OFF(INTR_STATE)) & TMA_REGS__INTR_STATE__MBAR_STUCK_bm, 0u);
  // complete_tx from the host clears it; a complete-tx naming no slot sets mbar_miss.
  drv_.MbarOperate(0, 2, fw::SocDriver::kMbarCompleteTx, 100, 0x9000);
  EXPECT_FALSE(drv_.MbarRead(0, 2).stuck);
  EXPECT_EQ(drv_.Reg(TMA_OFF(STATUS)) & TMA_REGS__STATUS__MBAR_MISS_bm, 0u);
  ASSERT_TRUE(drv_.SubmitWindow(Load(0, 0, 8, 0, 5)));  // CTA 5 has no barrier bound
  ASSERT_EQ(WaitFifo(1).size(), 1u);
  EXPECT_NE(drv_.Reg(TMA_OFF(STATUS)) & TMA_REGS__STATUS__MBAR_MISS_bm, 0u);
}

}  // namespace
