// SPDX-License-Identifier: Apache-2.0
//
// The driver (tma/fw/device.h) on MockLink + MockEngine: the engine commands (tma_pkg cmd_t
// fields) each call produces, completion counting by the engine's rules (docs/interfaces.md:
// one complete-tx per destination CTA, one done per store / reduce / prefetch, one error
// instead), errors with class and tag, timeouts, interrupt and polling, bulk groups
// (commit_group / wait_group of seed 002), tensor maps in global memory.
#include "tma/fw/device.h"

#include <gtest/gtest.h>

#include "tma/fw/mock_engine.h"
#include "tma/fw/mock_link.h"

#include "sim/autogen/tma_structs.h"

namespace tma::fw {
namespace {

namespace pkg = tma::pkg;

struct Rig {
  explicit Rig(DeviceConfig cfg = {}) : engine(&link), dev(&link, &engine, Defaults(cfg)) {}
  static DeviceConfig Defaults(DeviceConfig c) {
    c.gmem_link_base = 0x8000'0000;
    return c;
  }
  MockLink link;
  MockEngine engine;
  Device dev;
};

TensorOperands Tile2d(uint64_t map, int32_t x, int32_t y) {
  TensorOperands t;
  t.tensor_map = map;
  t.dim = 2;
  t.coords = {x, y};
  t.smem = 0x400;
  return t;
}

TEST(FwDevice, LoadBecomesTheEngineCommand) {
  Rig r;
  TensorOperands t = Tile2d(0x1000, 16, -3);
  t.cta = 1;
  LoadOptions o;
  o.mbar = 0x20;
  Ticket k;
  ASSERT_TRUE(r.dev.LoadTensor(t, o, &k).ok());
  ASSERT_TRUE(k.ok);
  ASSERT_EQ(r.engine.commands().size(), 1u);
  const pkg::cmd_t& c = r.engine.commands()[0];
  EXPECT_EQ(c.op, pkg::OpLoad);
  EXPECT_EQ(c.mode, pkg::ModeTile);
  EXPECT_EQ(c.dim, 2);
  EXPECT_EQ(c.desc_addr, 0x1000u);
  EXPECT_EQ(c.coords.v[0], 16u);
  EXPECT_EQ(c.coords.v[1], 0xfffffffdu);  // -3, two's complement
  EXPECT_EQ(c.coords.v[2], 0u);
  EXPECT_EQ(c.smem_addr, 0x400u);
  EXPECT_EQ(c.mbar_addr, 0x20u);
  EXPECT_FALSE(c.multicast);
  EXPECT_EQ(c.issuer, 1);
  EXPECT_EQ(c.dst_cta, 1);  // shared::cluster destination defaults to the issuer
  EXPECT_EQ(c.tag, k.tag);
  EXPECT_TRUE(r.dev.Wait(k.tag, 1000).ok());
  EXPECT_EQ(r.dev.tx_bytes(1), 1024u);
  EXPECT_EQ(r.dev.outstanding(), 0);
}

TEST(FwDevice, MulticastWaitsForEveryDestination) {
  Rig r;
  r.engine.auto_complete = false;
  LoadOptions o;
  o.cta_mask = 0b1011;  // CTAs 0, 1, 3
  o.cta_group = 0;
  Ticket k;
  ASSERT_TRUE(r.dev.LoadTensor(Tile2d(0x1000, 0, 0), o, &k).ok());
  EXPECT_TRUE(r.engine.commands()[0].multicast);
  EXPECT_EQ(r.engine.commands()[0].cta_mask, 0b1011);
  EXPECT_EQ(r.dev.Wait(k.tag, 200).status, Status::kTimeout);  // nothing released yet
  r.engine.Release();
  ASSERT_TRUE(r.dev.Wait(k.tag, 1000).ok());
  EXPECT_EQ(r.dev.tx_bytes(0), 1024u);
  EXPECT_EQ(r.dev.tx_bytes(2), 0u);
  EXPECT_EQ(r.dev.tx_bytes(3), 1024u);
  // A mask outside the 4-CTA cluster and .cta_group on sm_90 are refused before the engine.
  o.cta_mask = 0x10;
  EXPECT_EQ(r.dev.LoadTensor(Tile2d(0x1000, 0, 0), o).field, "ctaMask");
  o.cta_mask = 0;
  o.cta_group = 2;
  EXPECT_EQ(r.dev.LoadTensor(Tile2d(0x1000, 0, 0), o).status, Status::kUnsupported);
  EXPECT_EQ(r.engine.commands().size(), 1u);
}

TEST(FwDevice, CtaGroupOnSm100) {
  DeviceConfig c;
  c.arch = Arch::kSm100;
  Rig r(c);
  LoadOptions o;
  o.cta_group = 2;
  o.dst_cta = 2;
  ASSERT_TRUE(r.dev.LoadTensor(Tile2d(0x1000, 0, 0), o).ok());
  EXPECT_EQ(r.engine.commands()[0].cta_group, 2);
  EXPECT_EQ(r.engine.commands()[0].dst_cta, 2);
}

TEST(FwDevice, OperandChecks) {
  Rig r;
  TensorOperands t = Tile2d(0x1000, 0, 0);
  t.coords.pop_back();
  EXPECT_EQ(r.dev.LoadTensor(t, {}).field, "coords");
  t = Tile2d(0x1010, 0, 0);  // not 64-byte aligned
  EXPECT_EQ(r.dev.StoreTensor(t).field, "tensorMap");
  t = Tile2d(0x1000, 0, 0);
  t.dim = 3;
  t.coords = {0, 0, 0};
  t.mode = TensorMode::kIm2col;
  EXPECT_EQ(r.dev.LoadTensor(t, {}).field, "im2colInfo");  // dim 3 im2col: one offset
  t.im2col = {1};
  EXPECT_TRUE(r.dev.LoadTensor(t, {}).ok());
  EXPECT_EQ(r.engine.commands().back().im2col.v[0], 1);
  t = Tile2d(0x1000, 0, 0);
  t.mode = TensorMode::kTileGather4;
  t.coords = {0, 1, 2, 3, 4};
  EXPECT_EQ(r.dev.StoreTensor(t).field, "mode");
  EXPECT_TRUE(r.dev.LoadTensor(t, {}).ok());
  EXPECT_EQ(r.engine.commands().back().coords.v[4], 4u);
}

TEST(FwDevice, StoreReducePrefetchAndBulkGroups) {
  Rig r;
  r.engine.auto_complete = false;
  Ticket s, d, p;
  ASSERT_TRUE(r.dev.StoreTensor(Tile2d(0x1000, 0, 0), &s).ok());
  r.dev.CommitGroup();  // group 0: the store
  ASSERT_TRUE(r.dev.ReduceTensor(RedOp::kMax, Tile2d(0x1000, 8, 0), &d).ok());
  ASSERT_TRUE(r.dev.PrefetchTensor(Tile2d(0x1000, 0, 8), &p).ok());
  r.dev.CommitGroup();  // group 1: reduce + prefetch
  const auto& cmds = r.engine.commands();
  EXPECT_EQ(cmds[0].op, pkg::OpStore);
  EXPECT_EQ(cmds[1].op, pkg::OpReduce);
  EXPECT_EQ(cmds[1].redop, pkg::RedMax);
  EXPECT_EQ(cmds[2].op, pkg::OpPrefetch);
  EXPECT_EQ(cmds[2].smem_addr, 0u);  // a prefetch has no shared-memory operand
  EXPECT_EQ(r.dev.pending_groups(), 2);
  // wait_group 1: the store's group must finish; the newest may stay pending.
  EXPECT_EQ(r.dev.WaitGroup(1, 200).status, Status::kTimeout);
  r.engine.Release(1);
  ASSERT_TRUE(r.dev.WaitGroup(1, 1000).ok());
  EXPECT_EQ(r.dev.pending_groups(), 1);
  EXPECT_FALSE(r.dev.Done(d.tag));
  r.engine.Release();
  ASSERT_TRUE(r.dev.WaitGroup(0, 1000).ok());
  EXPECT_EQ(r.dev.pending_groups(), 0);
  EXPECT_TRUE(r.dev.Done(p.tag));
}

TEST(FwDevice, EngineErrorsCarryClassAndTag) {
  Rig r;
  r.engine.FailTag(1, ErrorClass::kInvalidCoordinate);
  Ticket a, b;
  ASSERT_TRUE(r.dev.StoreTensor(Tile2d(0x1000, 0, 0), &a).ok());
  ASSERT_TRUE(r.dev.StoreTensor(Tile2d(0x1000, 1 << 20, 0), &b).ok());
  r.dev.CommitGroup();
  const Error e = r.dev.WaitGroup(0, 1000);
  EXPECT_EQ(e.status, Status::kEngineError);
  EXPECT_EQ(e.error_class, ErrorClass::kInvalidCoordinate);
  EXPECT_EQ(e.tag, 1);
  EXPECT_NE(e.ToString().find("invalid_coordinate"), std::string::npos) << e.ToString();
  EXPECT_TRUE(r.dev.Wait(a.tag, 10).ok());
  // Not yet returned by Wait: still in TakeErrors (once).
  const std::vector<Error> errs = r.dev.TakeErrors();
  ASSERT_EQ(errs.size(), 1u);
  EXPECT_EQ(errs[0].tag, 1);
  EXPECT_TRUE(r.dev.TakeErrors().empty());
  // A failed load ends at its error: no complete-tx is counted.
  r.engine.FailTag(2, ErrorClass::kBusError);
  LoadOptions o;
  o.cta_mask = 0b11;
  Ticket c;
  ASSERT_TRUE(r.dev.LoadTensor(Tile2d(0x1000, 0, 0), o, &c).ok());
  const Error le = r.dev.Wait(c.tag, 1000);
  EXPECT_EQ(le.error_class, ErrorClass::kBusError);
  EXPECT_EQ(r.dev.tx_bytes(0), 0u);
  EXPECT_EQ(r.dev.outstanding(), 0);
}

TEST(FwDevice, InterruptOrPolling) {
  Rig r;
  r.engine.auto_complete = false;
  // The engine finishes while the driver sleeps on the interrupt.
  r.link.OnWait([&] { r.engine.Release(); });
  Ticket k;
  ASSERT_TRUE(r.dev.StoreTensor(Tile2d(0x1000, 0, 0), &k).ok());
  ASSERT_TRUE(r.dev.Wait(k.tag, 100000).ok());
  EXPECT_GE(r.engine.acks(), 1);  // INTR_STATE cleared
  // A link without an interrupt: the driver polls, never calls WaitInterrupt twice.
  Rig p;
  p.link.SetHasIrq(false);
  p.engine.auto_complete = false;
  ASSERT_TRUE(p.dev.StoreTensor(Tile2d(0x1000, 0, 0), &k).ok());
  EXPECT_EQ(p.dev.Wait(k.tag, 2000).status, Status::kTimeout);
  p.engine.Release();
  EXPECT_TRUE(p.dev.Wait(k.tag, 2000).ok());
  int waits = 0;
  for (const auto& a : p.link.log())
    waits += a.kind == MockLink::Kind::kWaitIrq;
  EXPECT_EQ(waits, 1);
  EXPECT_EQ(p.engine.acks(), 0);
}

TEST(FwDevice, QueueFullAndTags) {
  Rig r;
  r.engine.auto_complete = false;
  r.engine.capacity = 2;
  EXPECT_TRUE(r.dev.StoreTensor(Tile2d(0x1000, 0, 0)).ok());
  EXPECT_TRUE(r.dev.StoreTensor(Tile2d(0x1000, 0, 0)).ok());
  EXPECT_EQ(r.dev.StoreTensor(Tile2d(0x1000, 0, 0)).status, Status::kQueueFull);
  EXPECT_EQ(r.dev.outstanding(), 2);
  r.engine.Release();
  ASSERT_TRUE(r.dev.WaitAll(1000).ok());
  // 256 commands outstanding use every tag: the 257th is refused until one completes.
  Rig t;
  t.engine.auto_complete = false;
  t.engine.capacity = 1000;
  for (int i = 0; i < 256; ++i)
    ASSERT_TRUE(t.dev.StoreTensor(Tile2d(0x1000, i, 0)).ok()) << i;
  EXPECT_EQ(t.dev.StoreTensor(Tile2d(0x1000, 0, 0)).field, "tag");
  t.engine.Release(1);
  EXPECT_TRUE(t.dev.Poll().ok());
  EXPECT_TRUE(t.dev.StoreTensor(Tile2d(0x1000, 0, 0)).ok());
}

TEST(FwDevice, TensorMapsInGlobalMemory) {
  Rig r;
  TensorMap m;
  for (size_t i = 0; i < m.bytes.size(); ++i)
    m.bytes[i] = static_cast<uint8_t>(i * 7 + 1);
  ASSERT_TRUE(r.dev.WriteTensorMap(0x1040, m).ok());
  // 32 little-endian words at the global-memory window + 0x1040.
  EXPECT_EQ(r.link.Peek(0x8000'1040), 0x16'0f'08'01u);
  auto byte = [](uint32_t i) { return (i * 7 + 1) & 0xffu; };
  EXPECT_EQ(r.link.Peek(0x8000'1040 + 124),
            byte(124) | byte(125) << 8 | byte(126) << 16 | byte(127) << 24);
  TensorMap back;
  ASSERT_TRUE(r.dev.ReadTensorMap(0x1040, &back).ok());
  EXPECT_EQ(back.bytes, m.bytes);
  EXPECT_EQ(r.dev.WriteTensorMap(0x1020, m).field, "tensorMap");  // 64-byte alignment
  // Unaligned byte writes keep the neighbouring bytes.
  r.link.Poke(0x8000'2000, 0xaabbccdd);
  r.link.Poke(0x8000'2004, 0x11223344);
  const uint8_t two[2] = {0x55, 0x66};
  ASSERT_TRUE(r.dev.WriteGlobal(0x2003, two, 2).ok());
  EXPECT_EQ(r.link.Peek(0x8000'2000), 0x55bbccddu);
  EXPECT_EQ(r.link.Peek(0x8000'2004), 0x11223366u);
  // A bus error on the way is a link error naming the link's status.
  r.link.FailAt(0x8000'3000);
  const Error e = r.dev.ReadTensorMap(0x3000, &back);
  EXPECT_EQ(e.status, Status::kLinkError);
  EXPECT_EQ(e.link_status, LinkStatus::kBusError);
}

TEST(FwDevice, InvalidateAndNonTensorBulk) {
  Rig r;
  ASSERT_TRUE(r.dev.InvalidateDescriptors().ok());
  EXPECT_EQ(r.engine.events(), std::vector<std::string>{"inval"});
  // The bulk commands (docs/interfaces.md "Bulk commands"): mode BulkMode, desc_addr the global
  // operand, smem_addr the shared one, coords[0] the size, coords[1] .cp_mask (bit 16: given),
  // coords[2] .type | .noftz << 4 | .shared::cluster << 5.
  BulkLoadOptions o;
  o.cta = 1;
  ASSERT_TRUE(r.dev.LoadBulk(0x100, 0x2000, 256, 0x8, o).ok());
  o.to_cluster = true;
  o.cta_mask = 0x6;
  ASSERT_TRUE(r.dev.LoadBulk(0x200, 0x2100, 64, 0x10, o).ok());
  ASSERT_TRUE(r.dev.StoreBulk(0x3000, 0x100, 64, 2, 0x00ff).ok());
  ASSERT_TRUE(r.dev.ReduceBulk(RedOp::kAdd, BulkType::kF16, 0x3100, 0x140, 32, 3).ok());
  ASSERT_TRUE(r.dev.ReduceBulk(RedOp::kMin, BulkType::kS32, 0x3200, 0x180, 32).ok());
  ASSERT_TRUE(r.dev.PrefetchBulk(0x4000, 128).ok());
  const auto& c = r.engine.commands();
  ASSERT_EQ(c.size(), 6u);
  for (const pkg::cmd_t& k : c) {
    EXPECT_EQ(k.mode, pkg::BulkMode);
  }
  EXPECT_EQ(c[0].op, pkg::OpLoad);
  EXPECT_EQ(c[0].desc_addr, 0x2000u);
  EXPECT_EQ(c[0].smem_addr, 0x100u);
  EXPECT_EQ(c[0].mbar_addr, 0x8u);
  EXPECT_EQ(c[0].coords.v[0], 256u);
  EXPECT_EQ(c[0].coords.v[2], 0u);
  EXPECT_EQ(c[0].issuer, 1);
  EXPECT_EQ(c[0].dst_cta, 1);
  EXPECT_FALSE(c[0].multicast);
  EXPECT_EQ(c[1].coords.v[2], 32u);
  EXPECT_TRUE(c[1].multicast);
  EXPECT_EQ(c[1].cta_mask, 0x6);
  EXPECT_EQ(c[2].op, pkg::OpStore);
  EXPECT_EQ(c[2].desc_addr, 0x3000u);
  EXPECT_EQ(c[2].coords.v[1], 0x100ffu);
  EXPECT_EQ(c[2].issuer, 2);
  EXPECT_EQ(c[3].op, pkg::OpReduce);
  EXPECT_EQ(c[3].redop, pkg::RedAdd);
  EXPECT_EQ(c[3].coords.v[2], uint32_t{pkg::BulkTF16} | 16u);  // .add.noftz.f16
  EXPECT_EQ(c[4].redop, pkg::RedMin);
  EXPECT_EQ(c[4].coords.v[2], uint32_t{pkg::BulkTS32});
  EXPECT_EQ(c[5].op, pkg::OpPrefetch);
  EXPECT_EQ(c[5].coords.v[0], 128u);
  ASSERT_TRUE(r.dev.WaitAll(1000).ok());
  // The mock's load_bytes per destination: CTA 1 twice (unicast, multicast), CTA 2 once.
  EXPECT_EQ(r.dev.tx_bytes(1), 2048u);
  EXPECT_EQ(r.dev.tx_bytes(2), 1024u);
  // What the command cannot carry.
  o = BulkLoadOptions{};
  o.cta = 4;
  EXPECT_EQ(r.dev.LoadBulk(0, 0, 16, 0, o).field, "cta");
  EXPECT_EQ(r.dev.StoreBulk(0, 0, 16, 0, 0x10000).field, "cp_mask");
  EXPECT_EQ(r.dev.StoreBulk(0, 0, 16, 5).field, "cta");
  EXPECT_EQ(c.size(), 6u);
}

// cp.async.bulk / cp.reduce.async.bulk .shared::cluster.shared::cta (seed 004): the bulk
// command with op store / reduce, coords[2] bit 5 (.shared::cluster destination), desc_addr the
// destination offset in CTA dst_cta's window, smem_addr the source in the issuer's; completed
// by one complete-tx on the destination CTA, and in no bulk group.
TEST(FwDevice, SharedCtaToSharedCluster) {
  DeviceConfig cfg;
  cfg.engine_groups = true;
  Rig r(cfg);
  Ticket copy, red;
  ASSERT_TRUE(r.dev.CopyBulkToCluster(0x400, 0x100, 72, 0x20, 2, 1, &copy).ok());
  ASSERT_TRUE(
      r.dev.ReduceBulkToCluster(RedOp::kMax, BulkType::kS32, 0x800, 0x200, 64, 0x28, 0, 3, &red)
          .ok());
  ASSERT_TRUE(copy.ok && red.ok);
  const auto& c = r.engine.commands();
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].op, pkg::OpStore);
  EXPECT_EQ(c[0].mode, pkg::BulkMode);
  EXPECT_EQ(c[0].desc_addr, 0x400u);
  EXPECT_EQ(c[0].smem_addr, 0x100u);
  EXPECT_EQ(c[0].mbar_addr, 0x20u);
  EXPECT_EQ(c[0].coords.v[0], 72u);
  EXPECT_EQ(c[0].coords.v[1], 0u);
  EXPECT_EQ(c[0].coords.v[2], 32u);
  EXPECT_EQ(c[0].issuer, 1);
  EXPECT_EQ(c[0].dst_cta, 2);
  EXPECT_FALSE(c[0].multicast);
  EXPECT_EQ(c[1].op, pkg::OpReduce);
  EXPECT_EQ(c[1].redop, pkg::RedMax);
  EXPECT_EQ(c[1].desc_addr, 0x800u);
  EXPECT_EQ(c[1].smem_addr, 0x200u);
  EXPECT_EQ(c[1].mbar_addr, 0x28u);
  EXPECT_EQ(c[1].coords.v[2], uint32_t{pkg::BulkTS32} | 32u);  // no .noftz on this form
  EXPECT_EQ(c[1].issuer, 3);
  EXPECT_EQ(c[1].dst_cta, 0);
  // Their completions: one complete-tx each, on the destination CTA (72 bytes move 64, B1).
  ASSERT_TRUE(r.dev.Wait(copy.tag, 1000).ok());
  ASSERT_TRUE(r.dev.Wait(red.tag, 1000).ok());
  EXPECT_EQ(r.dev.tx_bytes(2), 64u);
  EXPECT_EQ(r.dev.tx_bytes(0), 64u);
  EXPECT_EQ(r.dev.tx_bytes(1), 0u);
  // No bulk group: the commit that follows has no command and no engine group to send.
  ASSERT_TRUE(r.dev.CommitGroup().ok());
  EXPECT_EQ(c.size(), 2u);
  ASSERT_TRUE(r.dev.WaitGroup(0, 1000).ok());
  // The same record through SubmitCommand joins no group either.
  pkg::cmd_t raw = c[0];
  Ticket k;
  ASSERT_TRUE(r.dev.SubmitCommand(raw, &k).ok());
  ASSERT_TRUE(r.dev.CommitGroup().ok());
  EXPECT_EQ(c.size(), 3u);  // no commit_group command
  ASSERT_TRUE(r.dev.WaitAll(1000).ok());
  // What the command cannot carry: CTAs outside the cluster (4 CTAs), unknown .redOp / .type.
  EXPECT_EQ(r.dev.CopyBulkToCluster(0, 0, 16, 0, 4, 0).field, "dstMem");
  EXPECT_EQ(r.dev.CopyBulkToCluster(0, 0, 16, 0, -1, 0).field, "dstMem");
  EXPECT_EQ(r.dev.CopyBulkToCluster(0, 0, 16, 0, 1, 4).field, "cta");
  EXPECT_EQ(
      r.dev.ReduceBulkToCluster(static_cast<RedOp>(8), BulkType::kU32, 0, 0, 16, 0, 1, 0).field,
      "redOp");
  EXPECT_EQ(
      r.dev.ReduceBulkToCluster(RedOp::kAdd, static_cast<BulkType>(10), 0, 0, 16, 0, 1, 0).field,
      "type");
  EXPECT_EQ(c.size(), 3u);
  // An engine error completes the command with its class.
  r.engine.FailTag(static_cast<uint8_t>(k.tag + 1), ErrorClass::kInvalidInstruction);
  Ticket bad;
  ASSERT_TRUE(r.dev.CopyBulkToCluster(0x10, 0, 16, 0, 1, 1, &bad).ok());
  const Error e = r.dev.Wait(bad.tag, 1000);
  EXPECT_EQ(e.status, Status::kEngineError);
  EXPECT_EQ(e.error_class, ErrorClass::kInvalidInstruction);
}

// DeviceConfig::engine_groups: CommitGroup sends one commit_group per issuer with a store or
// reduction in the group; wait_group.read passes on the engine's read-done, wait_group on its
// done and the commands' completions.
TEST(FwDevice, EngineBulkGroups) {
  DeviceConfig cfg;
  cfg.engine_groups = true;
  Rig r(cfg);
  r.engine.auto_complete = false;
  ASSERT_TRUE(r.dev.StoreBulk(0x3000, 0x100, 64, 0).ok());
  ASSERT_TRUE(r.dev.StoreBulk(0x3100, 0x100, 64, 2).ok());
  ASSERT_TRUE(r.dev.CommitGroup().ok());
  const auto& c = r.engine.commands();
  ASSERT_EQ(c.size(), 4u);
  for (size_t i = 2; i < 4; ++i) {
    EXPECT_EQ(c[i].mode, pkg::BulkMode);
    EXPECT_EQ(c[i].coords.v[2], 64u);  // commit_group
  }
  EXPECT_EQ(c[2].issuer, 0);
  EXPECT_EQ(c[3].issuer, 2);
  EXPECT_EQ(r.dev.WaitGroupRead(0, 200).status, Status::kTimeout);
  r.engine.Release(3);  // the stores and CTA 0's commit: CTA 2's group is not reported yet
  EXPECT_EQ(r.dev.WaitGroupRead(0, 200).status, Status::kTimeout);
  EXPECT_EQ(r.dev.WaitGroup(0, 200).status, Status::kTimeout);
  r.engine.Release();
  ASSERT_TRUE(r.dev.WaitGroupRead(0, 1000).ok());
  EXPECT_EQ(r.dev.pending_groups(), 1);  // .read retires nothing
  ASSERT_TRUE(r.dev.WaitGroup(0, 1000).ok());
  EXPECT_EQ(r.dev.pending_groups(), 0);
  // The next group of CTA 0 is its sequence 1; a group of loads only sends no commit.
  ASSERT_TRUE(r.dev.ReduceBulk(RedOp::kAdd, BulkType::kU32, 0x3000, 0x100, 64, 0).ok());
  ASSERT_TRUE(r.dev.CommitGroup().ok());
  ASSERT_TRUE(r.dev.LoadBulk(0x100, 0x2000, 64, 0x8).ok());
  ASSERT_TRUE(r.dev.CommitGroup().ok());
  EXPECT_EQ(c.size(), 7u);
  r.engine.Release();
  ASSERT_TRUE(r.dev.WaitGroup(0, 1000).ok());
}

}  // namespace
}  // namespace tma::fw
