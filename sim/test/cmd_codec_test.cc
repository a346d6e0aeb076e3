// SPDX-License-Identifier: Apache-2.0
//
// Unit tests of the command codec (sim/cmd_port.h): a command to tma_pkg::cmd_t and back.
// Expected values are written from the command port's definition (docs/interfaces.md,
// rtl/top/tma_sim_top.sv): cmd_coords_i holds coordinate i at bits [32i+31:32i], cmd_im2col_i
// offset i at bits [16i+15:16i]; a command without a destination CTA goes to its issuer; the
// decoder returns as many coordinates and im2col offsets as the mode and dimension use.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "sim/cmd_port.h"

namespace tma::sim {
namespace {

namespace m = tma::model;
namespace pkg = tma::pkg;

EngineCommand Im2col5d() {
  EngineCommand c;
  m::TensorInstr& in = c.instr;
  in.op = m::Op::kLoad;
  in.mode = m::LoadMode::kIm2col;
  in.dim = 5;
  in.coords = {1, -2, 3, 4, 5};
  in.im2col_info = {7, 8, 0xFFFF};
  in.smem_addr = 0x1100;
  in.mbar_addr = 0x2200;
  in.issuer_cta = 3;
  in.dst_cta = -1;
  in.multicast = true;
  in.cta_mask = 0x00F0;
  in.cta_group = 1;
  c.desc_addr = 0x123456789ABCDEF0ull;
  c.tag = 0x5A;
  return c;
}

TEST(CmdCodec, EncodesTheFields) {
  const pkg::cmd_t cmd = CmdCodec::Encode(Im2col5d());
  EXPECT_EQ(cmd.op, pkg::OpLoad);
  EXPECT_EQ(cmd.mode, pkg::ModeIm2col);
  EXPECT_EQ(cmd.dim, 5u);
  EXPECT_EQ(cmd.desc_addr, 0x123456789ABCDEF0ull);
  EXPECT_EQ(cmd.coords.v[1], 0xFFFFFFFEu);  // -2, two's complement
  EXPECT_EQ(cmd.coords.v[4], 5u);
  // cmd_im2col_i: offset i at bits [16i+15:16i]
  EXPECT_EQ(pkg::PackU64(cmd.im2col), 0xFFFF00080007ull);
  EXPECT_EQ(cmd.smem_addr, 0x1100u);
  EXPECT_EQ(cmd.mbar_addr, 0x2200u);
  EXPECT_TRUE(cmd.multicast);
  EXPECT_EQ(cmd.cta_mask, 0x00F0u);
  EXPECT_EQ(cmd.issuer, 3u);
  EXPECT_EQ(cmd.dst_cta, 3u);  // no destination given: the issuer
  EXPECT_EQ(cmd.cta_group, 1u);
  EXPECT_EQ(cmd.tag, 0x5Au);
}

TEST(CmdCodec, UnusedCoordinatesAndOffsetsAreZero) {
  EngineCommand c;
  c.instr.dim = 2;
  c.instr.coords = {10, 20};
  c.instr.dst_cta = 1;
  const pkg::cmd_t cmd = CmdCodec::Encode(c);
  EXPECT_EQ(cmd.coords.v[0], 10u);
  EXPECT_EQ(cmd.coords.v[1], 20u);
  for (int i = 2; i < 5; ++i)
    EXPECT_EQ(cmd.coords.v[i], 0u) << i;
  EXPECT_EQ(pkg::PackU64(cmd.im2col), 0u);
  EXPECT_EQ(cmd.dst_cta, 1u);
}

TEST(CmdCodec, DecodesWhatTheModeUses) {
  // im2col 5-D: five coordinates, three offsets
  EngineCommand c = Im2col5d();
  EngineCommand d = CmdCodec::Decode(CmdCodec::Encode(c));
  EXPECT_EQ(d.instr.coords, c.instr.coords);
  EXPECT_EQ(d.instr.im2col_info, c.instr.im2col_info);
  EXPECT_EQ(d.instr.dst_cta, 3);
  EXPECT_EQ(d.instr.cta_mask, 0x00F0u);
  EXPECT_EQ(d.desc_addr, c.desc_addr);
  EXPECT_EQ(d.tag, c.tag);
  // im2col 3-D: one offset
  c.instr.dim = 3;
  c.instr.coords = {1, 2, 3};
  c.instr.im2col_info = {9};
  d = CmdCodec::Decode(CmdCodec::Encode(c));
  EXPECT_EQ(d.instr.coords, (std::vector<int32_t>{1, 2, 3}));
  EXPECT_EQ(d.instr.im2col_info, (std::vector<uint16_t>{9}));
  // im2col::w 4-D: {wHalo, wOffset}
  c.instr.mode = m::LoadMode::kIm2colW;
  c.instr.dim = 4;
  c.instr.coords = {1, 2, 3, 4};
  c.instr.im2col_info = {5, 6};
  d = CmdCodec::Decode(CmdCodec::Encode(c));
  EXPECT_EQ(d.instr.im2col_info, (std::vector<uint16_t>{5, 6}));
  // tile: no offsets; tile::gather4 2-D: five coordinates {col, row0..row3}
  c.instr.mode = m::LoadMode::kTile;
  c.instr.dim = 2;
  c.instr.coords = {7, 8};
  c.instr.im2col_info = {};
  d = CmdCodec::Decode(CmdCodec::Encode(c));
  EXPECT_EQ(d.instr.coords, (std::vector<int32_t>{7, 8}));
  EXPECT_TRUE(d.instr.im2col_info.empty());
  c.instr.mode = m::LoadMode::kTileGather4;
  c.instr.coords = {1, 2, 3, 4, 5};
  d = CmdCodec::Decode(CmdCodec::Encode(c));
  EXPECT_EQ(d.instr.coords, (std::vector<int32_t>{1, 2, 3, 4, 5}));
}

// A bulk command: mode BulkMode, the global operand in desc_addr, the shared one in smem_addr,
// size / .cp_mask / .type, .noftz, .shared::cluster, commit_group in coords[0..2]
// (docs/interfaces.md "Bulk commands"), and back.
TEST(CmdCodec, BulkCommand) {
  EngineCommand c;
  c.instr.op = m::Op::kReduce;
  c.instr.redop = m::RedOp::kMax;
  c.instr.issuer_cta = 3;
  c.instr.mbar_addr = 0x1238;
  c.tag = 0x42;
  BulkCommand b;
  b.gaddr = 0x123456789a0ull;
  b.saddr = 0x4560;
  b.size = 1000;
  b.cp_mask = 0x0F0F;
  b.type = 7;  // bf16
  b.noftz = true;
  b.to_cluster = true;
  c.bulk = b;
  const pkg::cmd_t cmd = CmdCodec::Encode(c);
  EXPECT_EQ(cmd.mode, pkg::BulkMode);
  EXPECT_EQ(cmd.op, pkg::OpReduce);
  EXPECT_EQ(cmd.redop, pkg::RedMax);
  EXPECT_EQ(cmd.desc_addr, 0x123456789a0ull);
  EXPECT_EQ(cmd.smem_addr, 0x4560u);
  EXPECT_EQ(cmd.coords.v[0], 1000u);
  EXPECT_EQ(cmd.coords.v[1], 0x10F0Fu);
  EXPECT_EQ(cmd.coords.v[2], 7u | 16u | 32u);
  EXPECT_EQ(cmd.issuer, 3);
  EXPECT_EQ(cmd.dst_cta, 3);  // no dst_cta: the issuer
  const EngineCommand d = CmdCodec::Decode(cmd);
  ASSERT_TRUE(d.bulk.has_value());
  EXPECT_EQ(d.bulk->gaddr, b.gaddr);
  EXPECT_EQ(d.bulk->saddr, b.saddr);
  EXPECT_EQ(d.bulk->size, b.size);
  EXPECT_EQ(d.bulk->cp_mask, b.cp_mask);
  EXPECT_EQ(d.bulk->type, b.type);
  EXPECT_TRUE(d.bulk->noftz);
  EXPECT_TRUE(d.bulk->to_cluster);
  EXPECT_FALSE(d.bulk->commit);
  EXPECT_EQ(d.instr.op, m::Op::kReduce);
  EXPECT_EQ(d.instr.redop, m::RedOp::kMax);
  EXPECT_EQ(d.instr.mbar_addr, 0x1238u);
  EXPECT_EQ(d.tag, 0x42);
  // commit_group: bit 6 of coords[2]
  BulkCommand k;
  k.commit = true;
  c.bulk = k;
  EXPECT_EQ(CmdCodec::Encode(c).coords.v[2], 64u);
  EXPECT_TRUE(CmdCodec::Decode(CmdCodec::Encode(c)).bulk->commit);
}

// The port: Encode(c, pins) fills TopPins::cmd, Decode(pins) reads it.
TEST(CmdCodec, OnThePins) {
  TopPins p;
  CmdCodec::Encode(Im2col5d(), &p);
  EXPECT_EQ(p.cmd, CmdCodec::Encode(Im2col5d()));
  EXPECT_EQ(CmdCodec::Decode(p).instr.coords, Im2col5d().instr.coords);
}

}  // namespace
}  // namespace tma::sim
