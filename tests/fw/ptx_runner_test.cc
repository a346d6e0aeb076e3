// SPDX-License-Identifier: Apache-2.0
//
// PTX text through the model's front end onto the driver (tma/fw/ptx_runner.h), and
// tensormap.replace on a map in global memory followed by the descriptor-cache invalidate.
// Statements are spelled as in the seeds (001: cp.async.bulk.tensor, 002: commit_group /
// wait_group and tensormap.replace, 003: cp.reduce.async.bulk.tensor).
#include "tma/fw/ptx_runner.h"

#include <gtest/gtest.h>

#include "tma/fw/mock_engine.h"
#include "tma/fw/mock_link.h"

#include "sim/autogen/tma_structs.h"

namespace tma::fw {
namespace {

namespace m = tma::model;
namespace pkg = tma::pkg;

struct Rig {
  Rig() : engine(&link), dev(&link, &engine, Cfg()) {}
  static DeviceConfig Cfg() {
    DeviceConfig c;
    c.gmem_link_base = 0x4000'0000;
    return c;
  }
  MockLink link;
  MockEngine engine;
  Device dev;
};

TEST(FwPtx, TensorLoadStatementBecomesACommand) {
  Rig r;
  m::PtxBindings b;
  b.values = {{"tmap", 0x2000}, {"x", 32}, {"y", 4}, {"smem", 0x800}, {"mbar", 0x10}};
  Ticket k;
  const Error e = RunPtx(&r.dev,
                         "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::"
                         "bytes [smem], [tmap, {x, y}], [mbar];",
                         b, {}, &k);
  ASSERT_TRUE(e.ok()) << e.ToString();
  ASSERT_EQ(r.engine.commands().size(), 1u);
  const pkg::cmd_t& c = r.engine.commands()[0];
  EXPECT_EQ(c.op, pkg::OpLoad);
  EXPECT_EQ(c.dim, 2);
  EXPECT_EQ(c.desc_addr, 0x2000u);
  EXPECT_EQ(c.coords.v[0], 32u);
  EXPECT_EQ(c.coords.v[1], 4u);
  EXPECT_EQ(c.smem_addr, 0x800u);
  EXPECT_EQ(c.mbar_addr, 0x10u);
  EXPECT_TRUE(r.dev.Wait(k.tag, 1000).ok());
}

TEST(FwPtx, ReduceCommitWait) {
  Rig r;
  m::PtxBindings b;
  b.values = {{"tmap", 0x2000}, {"x", 0}, {"y", 0}, {"z", 0}, {"smem", 0x400}};
  ASSERT_TRUE(RunPtx(&r.dev,
                     "cp.reduce.async.bulk.tensor.3d.global.shared::cta.add.tile.bulk_group "
                     "[tmap, {x, y, z}], [smem];",
                     b)
                  .ok());
  EXPECT_EQ(r.engine.commands()[0].op, pkg::OpReduce);
  EXPECT_EQ(r.engine.commands()[0].redop, pkg::RedAdd);
  EXPECT_EQ(r.engine.commands()[0].dim, 3);
  ASSERT_TRUE(RunPtx(&r.dev, "cp.async.bulk.commit_group;", b).ok());
  EXPECT_EQ(r.dev.pending_groups(), 1);
  ASSERT_TRUE(RunPtx(&r.dev, "cp.async.bulk.wait_group 0;", b).ok());
  EXPECT_EQ(r.dev.pending_groups(), 0);
}

// Non-tensor bulk statements (seed 004 spellings) become the engine's bulk commands.
TEST(FwPtx, NonTensorBulkStatements) {
  Rig r;
  m::PtxBindings b;
  b.values = {{"dst", 0x5000}, {"src", 0x100}, {"size", 64}, {"mbar", 0x40}};
  ASSERT_TRUE(
      RunPtx(&r.dev, "cp.async.bulk.global.shared::cta.bulk_group [dst], [src], size;", b).ok());
  ASSERT_TRUE(RunPtx(&r.dev,
                     "cp.reduce.async.bulk.global.shared::cta.bulk_group.max.s32 [dst], [src], "
                     "size;",
                     b)
                  .ok());
  ASSERT_TRUE(RunPtx(&r.dev,
                     "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [src], "
                     "[dst], size, [mbar];",
                     b)
                  .ok());
  ASSERT_TRUE(RunPtx(&r.dev, "cp.async.bulk.prefetch.L2.global [dst], size;", b).ok());
  const auto& c = r.engine.commands();
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c[0].op, pkg::OpStore);
  EXPECT_EQ(c[0].mode, pkg::BulkMode);
  EXPECT_EQ(c[0].desc_addr, 0x5000u);
  EXPECT_EQ(c[0].smem_addr, 0x100u);
  EXPECT_EQ(c[0].coords.v[0], 64u);
  EXPECT_EQ(c[1].op, pkg::OpReduce);
  EXPECT_EQ(c[1].redop, pkg::RedMax);
  EXPECT_EQ(c[1].coords.v[2], uint32_t{pkg::BulkTS32});
  EXPECT_EQ(c[2].op, pkg::OpLoad);
  EXPECT_EQ(c[2].desc_addr, 0x5000u);
  EXPECT_EQ(c[2].smem_addr, 0x100u);
  EXPECT_EQ(c[2].mbar_addr, 0x40u);
  EXPECT_EQ(c[2].coords.v[2], 32u);  // .shared::cluster
  EXPECT_EQ(c[3].op, pkg::OpPrefetch);
  EXPECT_EQ(c[3].desc_addr, 0x5000u);
}

// The shared::cta -> shared::cluster forms (seed 004): with a window map (cluster_window_bytes)
// the dstMem and mbar addresses name the destination CTA; the commands are the engine's
// shared::cluster store / reduction (coords[2] bit 5), completed by one complete-tx there.
TEST(FwPtx, SharedCtaToSharedCluster) {
  Rig r;
  m::PtxBindings b;
  b.issuer_cta = 1;
  b.cluster_window_bytes = 0x10000;
  // CTA 3's window: destination at 0x240, its mbarrier at 0x18; the issuer's source at 0x80.
  b.values = {{"dst", 0x30240}, {"src", 0x80}, {"size", 96}, {"mbar", 0x30018}};
  Ticket copy, red;
  ASSERT_TRUE(RunPtx(&r.dev,
                     "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes "
                     "[dst], [src], size, [mbar];",
                     b, {}, &copy)
                  .ok());
  const Error e = RunPtx(&r.dev,
                         "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::"
                         "bytes.add.u32 [dst], [src], size, [mbar];",
                         b, {}, &red);
  ASSERT_TRUE(e.ok()) << e.ToString();
  const auto& c = r.engine.commands();
  ASSERT_EQ(c.size(), 2u);
  for (const pkg::cmd_t& k : c) {
    EXPECT_EQ(k.mode, pkg::BulkMode);
    EXPECT_EQ(k.desc_addr, 0x240u);
    EXPECT_EQ(k.smem_addr, 0x80u);
    EXPECT_EQ(k.mbar_addr, 0x18u);
    EXPECT_EQ(k.coords.v[0], 96u);
    EXPECT_EQ(k.issuer, 1);
    EXPECT_EQ(k.dst_cta, 3);
  }
  EXPECT_EQ(c[0].op, pkg::OpStore);
  EXPECT_EQ(c[0].coords.v[2], 32u);
  EXPECT_EQ(c[1].op, pkg::OpReduce);
  EXPECT_EQ(c[1].redop, pkg::RedAdd);
  EXPECT_EQ(c[1].coords.v[2], uint32_t{pkg::BulkTU32} | 32u);
  ASSERT_TRUE(r.dev.Wait(copy.tag, 1000).ok());
  ASSERT_TRUE(r.dev.Wait(red.tag, 1000).ok());
  EXPECT_EQ(r.dev.tx_bytes(3), 192u);
  // Neither joined a bulk group: commit_group then wait_group 0 passes at once.
  ASSERT_TRUE(RunPtx(&r.dev, "cp.async.bulk.commit_group;", b).ok());
  ASSERT_TRUE(RunPtx(&r.dev, "cp.async.bulk.wait_group 0;", b).ok());
  // .noftz exists only on the .global form: the front end refuses it here.
  EXPECT_EQ(RunPtx(&r.dev,
                   "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::"
                   "bytes.add.noftz.f16 [dst], [src], size, [mbar];",
                   b)
                .status,
            Status::kBadArgument);
  EXPECT_EQ(c.size(), 2u);
}

TEST(FwPtx, ErrorsFromTheFrontEnd) {
  Rig r;
  m::PtxBindings b;
  const Error parse = RunPtx(&r.dev, "cp.async.bulk.tensor.9d.bogus [a], [b, {c}];", b);
  EXPECT_EQ(parse.status, Status::kBadArgument);
  EXPECT_EQ(parse.error_class, ErrorClass::kInvalidInstruction);
  EXPECT_FALSE(parse.field.empty());
  EXPECT_EQ(RunPtx(&r.dev, "mbarrier.init.shared::cta.b64 [mbar], 1;", b).status,
            Status::kUnsupported);
  EXPECT_TRUE(r.engine.commands().empty());
}

TEST(FwPtx, TensormapReplaceInGlobalMemoryThenInvalidate) {
  Rig r;
  // A rank-2 u16 tile map at global 0x3000 (encoder), then box_dim[1] := 16 by PTX.
  const uint64_t dims[2] = {64, 64};
  const uint64_t strides[1] = {128};
  const uint32_t box[2] = {64, 8};
  const uint32_t es[2] = {1, 1};
  TensorMap map;
  ASSERT_EQ(EncodeTiled(&map, TensorMapDataType::kUint16, 2, 0x10000, dims, strides, box, es,
                        TensorMapInterleave::kNone, TensorMapSwizzle::kNone,
                        TensorMapL2Promotion::kNone, TensorMapFloatOobFill::kNone),
            Result::kSuccess);
  ASSERT_TRUE(r.dev.WriteTensorMap(0x3000, map).ok());
  m::PtxBindings b;
  b.values = {{"tmap", 0x3000}, {"v", 16}};
  const Error e =
      RunPtx(&r.dev, "tensormap.replace.tile.box_dim.global.b1024.b32 [tmap], 1, v;", b);
  ASSERT_TRUE(e.ok()) << e.ToString();
  TensorMap after;
  ASSERT_TRUE(r.dev.ReadTensorMap(0x3000, &after).ok());
  EXPECT_EQ(GetTensorMapBits(after.bytes.data(), 448, 8), 15u);  // boxDim[1] - 1
  // The derived box bytes follow: 64 x 16 x 2.
  EXPECT_EQ(GetTensorMapBits(after.bytes.data(), 512, 32), 2048u);
  // The map was written back before the invalidate; nothing else was sent to the engine.
  EXPECT_EQ(r.engine.events(), std::vector<std::string>{"inval"});
  const std::vector<uint32_t> last = r.link.WritesTo(0x4000'3000 + 124);
  EXPECT_EQ(last.size(), 2u);  // the initial write and the write-back
  // A value Table 33 rejects leaves the map unchanged and does not invalidate.
  b.values["v"] = 300;
  EXPECT_EQ(
      RunPtx(&r.dev, "tensormap.replace.tile.box_dim.global.b1024.b32 [tmap], 1, v;", b).field,
      "box_dim");
  EXPECT_EQ(r.engine.events().size(), 1u);
}

TEST(FwPtx, BlockOfStatements) {
  Rig r;
  m::PtxBindings b;
  b.values = {{"tmap", 0x2000}, {"c0", 0}, {"c1", 8}, {"smem", 0x400}};
  const std::string block = R"(
    .reg .b32 c0, c1;            // declarations are skipped
    cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [tmap, {c0, c1}], [smem];
    cp.async.bulk.prefetch.tensor.2d.L2.global [tmap, {c0, c1}];  // comment; with a ';'
    cp.async.bulk.commit_group;
    cp.async.bulk.wait_group.read 0;
  )";
  int ran = 0;
  const Error e = RunPtxBlock(&r.dev, block, b, {}, &ran);
  ASSERT_TRUE(e.ok()) << e.ToString();
  EXPECT_EQ(ran, 4);
  ASSERT_EQ(r.engine.commands().size(), 2u);
  EXPECT_EQ(r.engine.commands()[0].op, pkg::OpStore);
  EXPECT_EQ(r.engine.commands()[1].op, pkg::OpPrefetch);
  EXPECT_EQ(r.dev.pending_groups(), 0);
  // The second statement fails: the first ran, the third did not.
  const Error f = RunPtxBlock(&r.dev,
                              "cp.async.bulk.commit_group; cp.async.bulk.wait_group x; "
                              "cp.async.bulk.commit_group;",
                              b, {}, &ran);
  EXPECT_FALSE(f.ok());
  EXPECT_EQ(ran, 1);
  EXPECT_EQ(f.message.rfind("statement 2: ", 0), 0u) << f.message;
}

}  // namespace
}  // namespace tma::fw
