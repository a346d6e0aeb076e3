// SPDX-License-Identifier: Apache-2.0
//
// Unit tests of the command intake and the instruction check, each alone (Verilated C++):
//  - tma_cmd_intake: ready only while the sequencer is idle and the tag compares are fresh;
//    the class of a command that needs no map (store / reduce: unsupported; a map address not
//    16-byte aligned: invalid_instruction; else none); the command register and the coordinate
//    flags (tma_pkg::coord_flags_t, hand derived from their definition) load while idle and
//    hold while busy.
//  - tma_instr_check (NumCtas 4): on random commands (tests/rtl/frontend/frontend_tb.cc) over
//    valid random maps, each at a random arch_i (sm_90, sm_100, sm_103) and cluster_i (0 ..
//    15), the error class after W2 equals the model's verdict at that arch and cluster size
//    (the arch's encoder rules, then CheckInstruction, with the RTL's rule of its own:
//    InstrVerdict), and abort_o is that error (a prefetch is walked like its load:
//    PrefetchReads = 1, so it does not abort). The
//    map register's value (decoded fields and derived flags) comes from the descriptor fetch,
//    decode and check (FetchBench); the walk bounds of the F4 compares are hand derived from
//    tma_pkg::walk_bounds_t's definition (an im2col map's spatial walker dims 1 .. rank-2 are
//    tensor dims 1 .. rank-2, or 0 .. rank-3 with interleave; each with its lower corner and
//    dim - 1 + upper corner).

#include <cstdint>
#include <cstdio>
#include <map>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "frontend_tb.h"
#include "tma/descriptor.h"
#include "tma/tensor_copy.h"

#include "Vtma_cmd_intake.h"
#include "Vtma_desc_fetch_tb_db16.h"
#include "Vtma_instr_check.h"
#include "sim/autogen/tma_structs.h"
#include "verilated_dut.h"

namespace tma::tb {
namespace {

namespace pkg = tma::pkg;
namespace model = tma::model;

// The flags of one coordinate (coord_flags_t): bit 3 c[31:16] all sign bits, bit 2 c[31:17]
// all sign bits (one signed 18-bit piece), bits 1:0 the 17-bit pieces that are not zero: one
// piece (bit 0: c != 0) when bit 2, else the low 17 bits (bit 0) and the rest (bit 1).
uint8_t CoordFlags(int32_t c) {
  const bool sm16 = c >= -(1 << 16) && c < (1 << 16);
  const bool sm17 = c >= -(1 << 17) && c < (1 << 17);
  const uint32_t u = static_cast<uint32_t>(c);
  uint8_t pieces = 0;
  if (sm17) {
    pieces = c != 0 ? 1 : 0;
  } else {
    pieces = static_cast<uint8_t>(((u & 0x1FFFF) != 0 ? 1 : 0) | ((u >> 17) != 0 ? 2 : 0));
  }
  return static_cast<uint8_t>((sm16 ? 8 : 0) | (sm17 ? 4 : 0) | pieces);
}

TEST(CmdIntake, ClassReadyAndRegisters) {
  VerilatedDut<Vtma_cmd_intake> dut(3);
  std::mt19937_64 rng(3);
  dut->cmd_valid_i = 0;
  dut->idle_i = 1;
  dut->tag_fresh_i = 0;
  dut.Reset();
  const std::vector<FeCmd> cmds = RandomCmds(rng, 4000, true);
  pkg::cmd_t held{};  // the register's expected value
  bool have_held = false;
  int takes = 0, by_class[16] = {};
  for (size_t i = 0; i < cmds.size(); ++i) {
    pkg::cmd_t c = cmds[i].cmd;
    if (i % 3 == 0) {  // extreme coordinates for the flags
      const int32_t edge[] = {0,         1,       -1,       65535,      65536,      -65536,
                              -65537,    131071,  131072,   -131072,    -131073,    0x7FFFFFFF,
                              INT32_MIN, 0x20000, -0x20001, 0x12345678, -0x12345678};
      for (int d = 0; d < 5; ++d)
        c.coords.v[static_cast<size_t>(d)] = static_cast<uint32_t>(edge[rng() % 17]);
    }
    const bool idle = rng() % 4 != 0;
    const bool fresh = rng() % 3 != 0;
    const bool valid = rng() % 5 != 0;
    dut->idle_i = idle;
    dut->tag_fresh_i = fresh;
    dut->cmd_valid_i = valid;
    pkg::Pack(c, dut->cmd_i.data());
    dut.Settle();
    EXPECT_EQ(static_cast<bool>(dut->cmd_ready_o), idle && fresh) << i;
    EXPECT_EQ(static_cast<bool>(dut->take_o), valid && idle && fresh) << i;
    int want = pkg::ErrNone;
    if (c.desc_addr % 16 != 0)
      want = pkg::ErrInvalidInstr;
    EXPECT_EQ(dut->take_err_o, want) << i;
    if (dut->take_o) {
      ++takes;
      ++by_class[want];
    }
    // The registers show the command of the last idle cycle.
    if (have_held) {
      EXPECT_TRUE(pkg::Unpack<pkg::cmd_t>(dut->cmd_o.data()) == held) << i;
      const auto f = pkg::UnpackU64<pkg::coord_flags_t>(dut->coord_flags_o);
      for (int d = 0; d < 5; ++d) {
        EXPECT_EQ(f.v[static_cast<size_t>(d)],
                  CoordFlags(static_cast<int32_t>(held.coords.v[static_cast<size_t>(d)])))
            << i << " coordinate " << d << " = "
            << static_cast<int32_t>(held.coords.v[static_cast<size_t>(d)]);
      }
    }
    if (idle) {
      held = c;
      have_held = true;
    }
    dut.Cycle();
  }
  EXPECT_FALSE(dut.GotError()) << "assertion failed";
  std::printf("intake: %d commands taken (none %d, invalid_instruction %d)\n", takes,
              by_class[pkg::ErrNone], by_class[pkg::ErrInvalidInstr]);
  EXPECT_GT(by_class[pkg::ErrInvalidInstr], 10);
  EXPECT_GT(by_class[pkg::ErrNone], 100);
}

// The walk bounds of a command on map m (walk_bounds_t), hand derived.
pkg::walk_bounds_t Bounds(const pkg::cmd_t& c, const model::TensorMap& m) {
  pkg::walk_bounds_t b;
  const uint64_t mask34 = (1ull << 34) - 1;
  for (int d = 1; d < 5; ++d) {
    const bool in_rank = d < m.rank;
    const int64_t cd = static_cast<int32_t>(c.coords.v[static_cast<size_t>(d)]);
    b.coord.v[static_cast<size_t>(d)] = in_rank ? static_cast<uint64_t>(cd) & mask34 : 0;
    if (m.mode == model::MapMode::kIm2col && d <= m.rank - 2) {
      // spatial walker dim d: tensor dim d, or d - 1 with interleave (dim 0 is then a spatial
      // dim: the model's FirstSpatialDim)
      const int td = m.interleave == model::Interleave::kNone ? d : d - 1;
      const int64_t ct = static_cast<int32_t>(c.coords.v[static_cast<size_t>(td)]);
      b.coord.v[static_cast<size_t>(d)] = static_cast<uint64_t>(ct) & mask34;
      b.spatial |= static_cast<uint8_t>(1u << d);
      const int64_t lo = m.lower[static_cast<size_t>(d - 1)];
      const int64_t hi = static_cast<int64_t>(m.dims[static_cast<size_t>(td)]) - 1 +
                         m.upper[static_cast<size_t>(d - 1)];
      b.lower.v[static_cast<size_t>(d)] = static_cast<uint64_t>(lo) & mask34;
      b.upper.v[static_cast<size_t>(d)] = static_cast<uint64_t>(hi) & mask34;
    }
  }
  return b;
}

TEST(InstrCheck, RandomCommandsAgainstModel) {
  // Commands on valid random maps; each map register value from the fetch, decode and check.
  // (One Verilated model at a time: two alive at once hang Verilator 5.006 at destruction.)
  struct Case {
    pkg::cmd_t cmd;
    size_t map;
  };
  std::vector<std::pair<model::TensorMap, pkg::map_t>> maps;
  std::vector<Case> cases;
  {
    FetchBench<Vtma_desc_fetch_tb_db16, 16> fetch(11, 2, 100);
    std::mt19937_64 rng(13);
    for (int rep = 0; rep < 60; ++rep) {
      const std::vector<FeCmd> cmds = RandomCmds(rng, 200, false);
      std::map<uint64_t, size_t> slots;  // slot -> valid map
      for (const FeCmd& f : cmds) {
        const uint64_t a = f.cmd.desc_addr & ~uint64_t{15};
        if (f.rewrite) {
          slots.erase(a);
          model::TensorMap m;
          if (!ModelDescVerdict(f.map, &m).ok())
            continue;
          fetch.mem().Write(0x10000, f.map.data(), f.map.size());
          const FetchResult r = fetch.Fetch(0x10000, 0);
          ASSERT_EQ(r.chk_cycles, 9);
          ASSERT_FALSE(r.map.bad);
          slots[a] = maps.size();
          maps.emplace_back(m, r.map);
        }
        auto it = slots.find(a);
        if (it == slots.end() || f.cmd.op == pkg::OpStore || f.cmd.op == pkg::OpReduce)
          continue;  // no valid map, or a command the intake ends
        cases.push_back({f.cmd, it->second});
      }
    }
    EXPECT_FALSE(fetch.GotError()) << "assertion failed";
  }
  VerilatedDut<Vtma_instr_check> dut(12);
  dut->w1b_i = 0;
  dut->w2_i = 0;
  dut->arch_i = pkg::ArchSm103;
  dut->cluster_i = 0;
  dut.Reset();
  std::mt19937_64 rng(14);
  std::map<int, int> by_class;
  int n = 0, prefetch = 0, small_cluster = 0;
  int by_arch[3] = {}, sm100_ok[8] = {}, group2_ok = 0;
  for (const Case& k : cases) {
    const pkg::cmd_t& c = k.cmd;
    const model::TensorMap& m = maps[k.map].first;
    // The settings for this command: an arch (sm_103 half the time) and a cluster size
    // (0: NumCtas; above it counts as NumCtas).
    const int arch = rng() % 2 ? pkg::ArchSm103 : static_cast<int>(rng() % 3);
    const int cluster = rng() % 3 ? 0 : static_cast<int>(rng() % 16);
    dut->arch_i = static_cast<uint8_t>(arch);
    dut->cluster_i = static_cast<uint8_t>(cluster);
    // W1: the command and map registers hold; W1B; W2; the verdict the cycle after.
    pkg::Pack(c, dut->cmd_i.data());
    pkg::Pack(maps[k.map].second, dut->map_i.data());
    pkg::Pack(Bounds(c, m), dut->bounds_i.data());
    dut->w1b_i = 0;
    dut->w2_i = 0;
    dut.Cycle();
    dut->w1b_i = 1;
    dut.Cycle();
    dut->w1b_i = 0;
    dut->w2_i = 1;
    dut.Cycle();
    dut->w2_i = 0;
    dut.Settle();
    const model::Status s =
        InstrVerdict(c, m, static_cast<model::Arch>(arch), ClusterCtas(cluster));
    const int want = static_cast<int>(s.cls);
    EXPECT_EQ(dut->err_o, want) << "command " << n << ": " << s.ToString() << " (op " << int(c.op)
                                << " mode " << int(c.mode) << " dim " << int(c.dim) << " arch "
                                << arch << " cluster " << cluster << ")";
    EXPECT_EQ(static_cast<bool>(dut->abort_o), want != 0) << "command " << n;
    ++by_class[want];
    ++by_arch[arch];
    prefetch += c.op == pkg::OpPrefetch;
    small_cluster += ClusterCtas(cluster) < kNumCtas;
    if (want == pkg::ErrNone) {
      ++sm100_ok[c.mode & 7];
      group2_ok += c.cta_group == 2;
    }
    ++n;
  }
  EXPECT_FALSE(dut.GotError()) << "assertion failed";
  std::printf(
      "instruction check: %d commands on %zu valid maps, %d prefetches, arch sm_90 / sm_100 / "
      "sm_103 %d / %d / %d, %d in a cluster under NumCtas; accepted im2col::w %d, "
      "im2col::w::128 %d, gather4 %d, .cta_group::2 %d; by class:",
      n, maps.size(), prefetch, by_arch[0], by_arch[1], by_arch[2], small_cluster,
      sm100_ok[pkg::ModeIm2colW], sm100_ok[pkg::ModeIm2colW128], sm100_ok[pkg::ModeTileGather4],
      group2_ok);
  for (const auto& [k, v] : by_class)
    std::printf(" %d:%d", k, v);
  std::printf("\n");
  for (int mode : {pkg::ModeIm2colW, pkg::ModeIm2colW128, pkg::ModeTileGather4})
    EXPECT_GT(sm100_ok[mode], 5) << "mode " << mode << " barely accepted";
  EXPECT_GT(group2_ok, 5) << ".cta_group::2 barely accepted";
  for (int cls : {pkg::ErrNone, pkg::ErrMisaligned, pkg::ErrMisalignedCoord, pkg::ErrInvalidCoord,
                  pkg::ErrInvalidInstr, pkg::ErrUnsupported})
    EXPECT_GT(by_class[cls], 20) << "class " << cls << " barely exercised";
}

}  // namespace
}  // namespace tma::tb
