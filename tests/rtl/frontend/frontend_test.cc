// SPDX-License-Identifier: Apache-2.0
//
// Test of tma_frontend as a whole (Verilated C++), with the harness's AXI4 read slave
// (sim/axi_read_slave.h: random latency and gaps, SLVERR / DECERR injection, protocol checks)
// serving the descriptor reads from a model memory, against the C++ model and hand derivation:
//  - Random commands (every error class the frontend decides, prefetch, multicast, im2col,
//    interleave, large and negative coordinates, sub-byte and sm_100 maps, gather4,
//    im2col::w / ::w::128, .shared::cta, a remote mbarrier, .cta_group::2) on random maps
//    (valid ones and ones with broken codes, reserved bits, derived fields), map rewrites with
//    and without desc_inval_i (also with the first beat of a fetch), bus errors on one beat of a
//    fetch, random job back-pressure, DataBytes 16 and 64 (maps not aligned to a beat):
//      * each command's job: its completion (kind, error class, CTA, mask, mbarrier, tag) from
//        the model's verdict: the intake's classes (store / reduce: unsupported; a
//        map address not 16-byte aligned: invalid_instruction), then a bus error on the fetch,
//        then the map's verdict (DecodeDescriptor + the sm_103 encoder rules), then the
//        encoder rules of the run's arch_i and CheckInstruction at that arch and cluster_i,
//        with the RTL's documented rule of its own (docs/differences.md: a multicast to no CTA
//        is invalid_instruction); runs at sm_90, sm_100 and sm_103, clusters of 4 and fewer;
//      * the job fields of a whole-byte load without interleave (tile and im2col), hand
//        derived (job_t's field comments): gaddr = address + c0 x E, the row's bytes and its
//        in-bounds range [head, dend), pitch, rows of an im2col column; per walker dim d the
//        position, restart and wrap (spatial dims: offset, lower, dim - 1 + upper), dim, es,
//        step es x stride, astart and alo = position x stride; swizzle, shared address;
//      * the descriptor reads: a command whose map is not cached reads exactly its map's
//        beats; one whose map is cached reads nothing (cache contract: round robin over
//        CacheEntries, desc_inval_i clears it, a map fetched across an invalidation or with a
//        bus error is not cached; a rewrite without an invalidation keeps the old map);
//  - the hand-derived 2-D tile job and the latency from the command's acceptance to its job:
//    9 cycles on a hit, 18 after the last descriptor beat on a miss (docs/rtl.md);
//  - the swizzle-repeat field of the 128B spans; the sub-byte types (hand derived).

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "frontend_tb.h"
#include "sim/cmd_port.h"
#include "tma/descriptor.h"
#include "tma/encoder.h"
#include "tma/memory.h"
#include "tma/tensor_copy.h"

#include "Vtma_frontend_db16.h"
#include "Vtma_frontend_db64.h"
#include "sim/autogen/tma_structs.h"
#include "verilated_dut.h"

namespace tma::tb {
namespace {

namespace pkg = tma::pkg;
namespace model = tma::model;
namespace num = tma::model::num;
using Job = pkg::job_t;

struct Outcome {
  std::vector<Job> jobs;
  std::vector<std::vector<uint64_t>> reads;  // per command
  std::vector<int64_t> accept, last_beat, job_valid;
};

// The frontend's settings for a run: arch_i (tma::pkg::Arch*) and cluster_i (0: NumCtas).
struct Settings {
  int arch = pkg::ArchSm103;
  int cluster = 0;
};

template <class M, int kDataBytes>
Outcome RunFrontend(const std::vector<FeCmd>& cmds, uint32_t seed, int job_ready_pct = 60,
                    int lat_hi = 6, int axi_ready_pct = 70, Settings set = {}) {
  VerilatedDut<M> dut(seed);
  std::mt19937_64 rng(seed);
  auto chance = [&](int pct) { return static_cast<int>(rng() % 100) < pct; };
  model::SparseGlobalMemory mem(0x5A);
  sim::AxiReadConfig cfg;
  cfg.SetLatency(0, lat_hi);
  cfg.arready_pct = axi_ready_pct;
  cfg.rvalid_pct = axi_ready_pct;
  cfg.full_width = true;
  DescAxi<M> axi(kDataBytes, &mem, seed, cfg);
  Outcome out;
  const size_t n = cmds.size();
  out.reads.resize(n);
  out.accept.assign(n, -1);
  out.last_beat.assign(n, -1);
  out.job_valid.assign(n, -1);
  dut->cmd_valid_i = 0;
  dut->pre_valid_i = 0;  // (no command register in front: lookups from a command's 2nd cycle)
  dut->pre_addr_i = 0;
  dut->desc_inval_i = 0;
  dut->job_ready_i = 0;
  dut->arch_i = static_cast<uint8_t>(set.arch);
  dut->cluster_i = static_cast<uint8_t>(set.cluster);
  axi.Drive(dut.operator->());
  dut.Reset();

  size_t next = 0;
  bool pulsed_before = false;
  int first_beat_of = -1;
  int64_t cycle = 0;
  while (out.jobs.size() < n && cycle < 400000) {
    axi.Drive(dut.operator->());
    bool inval = false, present = false;
    if (next < n) {
      const FeCmd& c = cmds[next];
      const bool drained = out.jobs.size() == next;
      const bool prev_err = next > 0 && cmds[next - 1].err_beat >= 0;
      if ((c.inval_before || c.rewrite || c.err_beat >= 0 || prev_err) && !drained) {
        present = false;
      } else if (c.inval_before && !pulsed_before) {
        inval = true;
        pulsed_before = true;
      } else {
        if (c.rewrite)
          mem.Write(c.cmd.desc_addr & ~uint64_t{15}, c.map.data(), c.map.size());
        if (drained) {
          axi.slave().ClearErrorRanges();
          if (c.err_beat >= 0) {
            const auto beats = WantDescReads(c.cmd.desc_addr, kDataBytes);
            const uint64_t b = beats[static_cast<size_t>(c.err_beat) % beats.size()];
            axi.slave().AddErrorRange(b, b + kDataBytes, c.err_resp);
          }
        }
        present = true;
      }
    }
    dut->cmd_valid_i = present;
    if (present)
      pkg::Pack(cmds[next].cmd, dut->cmd_i.data());
    const int cur = static_cast<int>(next) - 1;  // the command in flight (taken last)
    if (dut->r_valid_i && cur >= 0) {
      out.last_beat[static_cast<size_t>(cur)] = cycle;
      if (cmds[static_cast<size_t>(cur)].inval_fetch && first_beat_of != cur) {
        inval = true;
        first_beat_of = cur;
      }
    }
    dut->desc_inval_i = inval;
    dut->job_ready_i = chance(job_ready_pct);
    dut.Settle();
    if (dut->cmd_valid_i && dut->cmd_ready_o) {
      out.accept[next] = cycle;
      ++next;
      pulsed_before = false;
    }
    const size_t reads_before = axi.ars().size();
    if (dut->job_valid_o) {
      const size_t idx = out.jobs.size();
      if (out.job_valid[idx] < 0)
        out.job_valid[idx] = cycle;
      if (dut->job_ready_i)
        out.jobs.push_back(pkg::Unpack<Job>(dut->job_o.data()));
    }
    axi.Tick(dut.operator->(), static_cast<uint64_t>(cycle));
    for (size_t k = reads_before; k < axi.ars().size(); ++k) {
      const int owner = static_cast<int>(next) - 1;
      if (owner >= 0)
        out.reads[static_cast<size_t>(owner)].push_back(axi.ars()[k]);
    }
    dut.Cycle();
    ++cycle;
  }
  EXPECT_EQ(out.jobs.size(), n) << "stuck after " << cycle << " cycles";
  EXPECT_FALSE(dut.GotError()) << "assertion failed";
  return out;
}

// ---- The expected outcome of each command (model + cache contract) ----
struct Want {
  bool fetch = false;
  int err = pkg::ErrNone;  // completion error class (ErrNone: a data job or a prefetch's done)
  bool have_map = false;
  model::TensorMap map;
  std::string why;
};

int ErrOf(model::ErrorClass c) {
  return static_cast<int>(c);
}  // the same numbering

std::vector<Want> Expect(const std::vector<FeCmd>& cmds, int cache_entries, Settings set) {
  struct Entry {
    bool valid = false;
    uint64_t tag = 0;
    DescBytes map{};
  };
  std::vector<Entry> cache(static_cast<size_t>(cache_entries));
  int victim = 0;
  std::map<uint64_t, DescBytes> mem;  // by 16-aligned address
  std::vector<Want> want;
  for (const FeCmd& fc : cmds) {
    const pkg::cmd_t& c = fc.cmd;
    Want w;
    if (fc.inval_before) {
      for (Entry& e : cache)
        e.valid = false;
    }
    if (fc.rewrite)
      mem[c.desc_addr & ~uint64_t{15}] = fc.map;
    if (c.desc_addr % 16 != 0) {
      w.err = pkg::ErrInvalidInstr;
      w.why = "map address";
    } else {
      int hit = -1;
      for (size_t i = 0; i < cache.size(); ++i) {
        if (cache[i].valid && cache[i].tag == c.desc_addr)
          hit = static_cast<int>(i);
      }
      DescBytes bytes{};
      if (hit >= 0) {
        bytes = cache[static_cast<size_t>(hit)].map;
      } else {
        w.fetch = true;
        auto it = mem.find(c.desc_addr);
        if (it != mem.end())
          bytes = it->second;
        else
          bytes.fill(0x5A);  // the memory's default
        if (fc.inval_fetch) {
          for (Entry& e : cache)
            e.valid = false;
        }
      }
      if (w.fetch && fc.err_beat >= 0) {
        w.err = pkg::ErrBusError;
        w.why = "bus error";
      } else {
        if (w.fetch && !fc.inval_fetch) {
          cache[static_cast<size_t>(victim)] = {true, c.desc_addr, bytes};
          victim = (victim + 1) % cache_entries;
        }
        model::Status s = ModelDescVerdict(bytes, &w.map);
        if (s.ok()) {
          w.have_map = true;
          s = InstrVerdict(c, w.map, static_cast<model::Arch>(set.arch), ClusterCtas(set.cluster));
        }
        w.err = ErrOf(s.cls);
        w.why = s.ToString();
      }
    }
    want.push_back(w);
  }
  return want;
}

uint16_t DstMask(const pkg::cmd_t& c) {
  return c.multicast ? c.cta_mask : static_cast<uint16_t>(1u << c.dst_cta);
}

struct Tally {
  int data = 0, done = 0, markers = 0, fields = 0, fetches = 0, hits = 0;
  int by_mode[8] = {};  // data jobs by command mode
  int group2 = 0;       // data jobs of .cta_group::2
  int packed = 0;       // tile jobs of packed rows (wide-bus packing)
  std::map<int, int> by_err;
};

// Compares the jobs and the reads with Expect().
void Compare(const std::vector<FeCmd>& cmds, const Outcome& o, int cache_entries, int db, Tally* t,
             Settings set = {}) {
  const std::vector<Want> want = Expect(cmds, cache_entries, set);
  ASSERT_EQ(o.jobs.size(), cmds.size());
  int shown = 0;
  for (size_t i = 0; i < cmds.size(); ++i) {
    const pkg::cmd_t& c = cmds[i].cmd;
    const Job& j = o.jobs[i];
    const Want& w = want[i];
    const std::string at = "command " + std::to_string(i) + " (op " + std::to_string(c.op) +
                           " mode " + std::to_string(c.mode) + " dim " + std::to_string(c.dim) +
                           ", model: " + w.why + "; multicast " + std::to_string(c.multicast) +
                           " mask " + std::to_string(c.cta_mask) + " issuer " +
                           std::to_string(c.issuer) + " dst " + std::to_string(c.dst_cta) +
                           " group " + std::to_string(c.cta_group) + ")";
    const std::vector<uint64_t> reads =
        w.fetch ? WantDescReads(c.desc_addr, db) : std::vector<uint64_t>{};
    EXPECT_EQ(o.reads[i], reads) << at << (w.fetch ? ": must fetch" : ": must not fetch");
    (w.fetch ? t->fetches : t->hits) += 1;
    EXPECT_EQ(j.cpl.tag, c.tag) << at;
    EXPECT_EQ(j.cpl.mbar_addr, c.mbar_addr) << at;
    const bool is_err = w.err != pkg::ErrNone;
    if (is_err) {
      const bool ok =
          j.marker && j.cpl.kind == pkg::CplError && j.cpl.err == w.err && j.cpl.cta == c.issuer;
      if (!ok && shown++ < 12) {
        ADD_FAILURE() << at << ": want error " << w.err << ", got marker " << j.marker << " kind "
                      << int(j.cpl.kind) << " err " << int(j.cpl.err);
      }
      ++t->by_err[w.err];
      t->markers += 1;
      continue;
    }
    // A data job: a load's, or a prefetch's (PrefetchReads = 1: its load's job with no
    // destination, a done naming the issuer, shared address 0).
    const bool pf = c.op == pkg::OpPrefetch;
    ++t->data;
    t->done += pf;
    ++t->by_mode[c.mode & 7];
    t->group2 += c.cta_group == 2;
    if (j.marker || j.cpl.kind != (pf ? pkg::CplDone : pkg::CplTx)) {
      if (shown++ < 12)
        ADD_FAILURE() << at << ": want a data job, got marker " << j.marker << " kind "
                      << int(j.cpl.kind) << " err " << int(j.cpl.err);
      continue;
    }
    const model::TensorMap& m = w.map;
    EXPECT_EQ(j.cpl.cta_mask, pf ? 0u : DstMask(c)) << at;
    EXPECT_EQ(j.cpl.cta, c.issuer) << at;
    EXPECT_EQ(j.smem_addr, pf ? 0u : c.smem_addr) << at;
    EXPECT_EQ(j.swz, static_cast<int>(m.swizzle)) << at;
    EXPECT_EQ(j.i2c, m.mode != model::MapMode::kTiled) << at;
    EXPECT_EQ(j.gather, c.mode == pkg::ModeTileGather4) << at;
    EXPECT_EQ(j.w128, c.mode == pkg::ModeIm2colW128) << at;
    EXPECT_EQ(j.fill_nan, m.oob_fill == model::OobFill::kNan) << at;
    // (the field derivation below is that of tile and im2col; gather4 and im2col::w* jobs go
    // through the engine end to end: engine_e2e_test, the golden hand cases, the seed forms)
    if (m.interleave != model::Interleave::kNone || model::IsSubByte(m.dtype) ||
        m.mode == model::MapMode::kIm2colWide || c.mode == pkg::ModeTileGather4)
      continue;
    // Whole-byte types, no interleave (tile and im2col): the walker fields, hand derived from
    // job_t's field comments. Walker dim d is tensor dim d; im2col: dims 1 .. rank-2 spatial
    // (position = coordinate + offset, restart at lower + offset, wrap after
    // dim - 1 + upper + offset), dim rank-1 is N (never wraps).
    ++t->fields;
    const bool i2c = m.mode == model::MapMode::kIm2col;
    const uint64_t e = static_cast<uint64_t>(model::ElementBytes(m.dtype));
    const int64_t c0 = static_cast<int32_t>(c.coords.v[0]);
    const int64_t n0 = i2c ? m.channels_per_pixel : m.box[0];  // elements of a row
    const uint64_t m34 = (1ull << 34) - 1;
    EXPECT_EQ(j.gaddr, m.global_address + static_cast<uint64_t>(c0) * e) << at;
    // Wide-bus packing (docs/performance.md): a tile load whose dim-1 rows are adjacent in
    // global memory (stride[0] == L, es[1] 1) and in shared memory (pitch == L), in bounds along
    // dims 0 and 1, walks p = 2, 4 or 8 rows as one (p L <= DataBytes, box[1] % p == 0).
    const uint64_t row_l = static_cast<uint64_t>(n0) * e;
    const uint64_t pitch_l =
        m.swizzle == model::Swizzle::kNone ? row_l : model::SwizzleSpanBytes(m.swizzle);
    uint64_t pk = 1;
    if (!i2c && c.op == pkg::OpLoad && c.mode == pkg::ModeTile && m.rank >= 2 &&
        m.element_strides[1] == 1 && m.strides[0] == row_l && pitch_l == row_l && c0 >= 0 &&
        c0 + n0 <= static_cast<int64_t>(m.dims[0])) {
      const int64_t c1 = static_cast<int32_t>(c.coords.v[1]);
      if (c1 >= 0 && static_cast<uint64_t>(c1) + m.box[1] <= m.dims[1]) {
        for (uint64_t q = 2; q <= 8; q *= 2) {
          if (q * row_l <= static_cast<uint64_t>(db) && m.box[1] % q == 0)
            pk = q;
        }
      }
    }
    t->packed += pk > 1;
    EXPECT_EQ(j.row_bytes, row_l * pk) << at;
    EXPECT_EQ(j.pitch, pitch_l * pk) << at;
    if (i2c)
      EXPECT_EQ(j.nrows_m1, m.pixels_per_column - 1) << at;
    if (m.element_strides[0] == 1) {  // the row's in-bounds bytes [head, dend)
      const int64_t lo = std::clamp<int64_t>(-c0, 0, n0);
      const int64_t end = std::clamp<int64_t>(static_cast<int64_t>(m.dims[0]) - c0, 0, n0);
      EXPECT_EQ(j.head, static_cast<uint64_t>(lo) * e) << at;
      EXPECT_EQ(j.dend, static_cast<uint64_t>(end) * e * pk) << at;
    }
    for (int d = 1; d < m.rank; ++d) {
      const size_t ds = static_cast<size_t>(d);
      const int64_t cd = static_cast<int32_t>(c.coords.v[ds]);
      const uint64_t stride = m.strides[ds - 1];
      const bool spatial = i2c && d <= m.rank - 2;
      const int64_t off = spatial ? c.im2col.v[ds - 1] : 0;
      const int64_t lo = spatial ? m.lower[ds - 1] + off : cd;
      const int64_t hi = spatial ? static_cast<int64_t>(m.dims[ds]) - 1 + m.upper[ds - 1] + off
                         : i2c   ? int64_t{(1ll << 33) - 1}  // N: no wrap
                                 : cd + m.box[ds] - 1;
      EXPECT_EQ(j.coord.v[ds], static_cast<uint64_t>(cd + off) & m34) << at << " dim " << d;
      EXPECT_EQ(j.lo.v[ds], static_cast<uint64_t>(lo) & m34) << at << " dim " << d;
      EXPECT_EQ(j.hi.v[ds], static_cast<uint64_t>(hi) & m34) << at << " dim " << d;
      EXPECT_EQ(j.dim_m1.v[ds], m.dims[ds] - 1) << at;
      const uint64_t pd = d == 1 ? pk : 1;
      EXPECT_EQ(j.es.v[ds], m.element_strides[ds] * pd) << at;
      EXPECT_EQ(j.step.v[ds], m.element_strides[ds] * stride * pd) << at << " dim " << d;
      EXPECT_EQ(j.astart.v[ds], static_cast<uint64_t>(cd + off) * stride) << at << " dim " << d;
      if (spatial)
        EXPECT_EQ(j.alo.v[ds], static_cast<uint64_t>(lo) * stride) << at << " dim " << d;
    }
  }
}

template <class M, int kDataBytes>
Tally RandomAgainstModel(uint32_t seed, int n, Settings set) {
  std::mt19937_64 rng(seed);
  const std::vector<FeCmd> cmds = RandomCmds(rng, n, kDataBytes > 16);
  const Outcome o = RunFrontend<M, kDataBytes>(cmds, seed + 1, seed % 2 ? 60 : 100, 6, 70, set);
  Tally t;
  Compare(cmds, o, 2, kDataBytes, &t, set);
  std::string errs;
  for (const auto& [k, v] : t.by_err)
    errs += " " + std::to_string(k) + ":" + std::to_string(v);
  std::printf(
      "seed %u DataBytes %d arch %d cluster %d: %d data jobs (%d with hand-derived job fields; "
      "im2col::w %d, im2col::w::128 %d, gather4 %d, .cta_group::2 %d, packed rows %d), %d "
      "prefetch done, %d error markers (by class%s), %d fetches, %d cached\n",
      seed, kDataBytes, set.arch, set.cluster, t.data, t.fields, t.by_mode[pkg::ModeIm2colW],
      t.by_mode[pkg::ModeIm2colW128], t.by_mode[pkg::ModeTileGather4], t.group2, t.packed, t.done,
      t.markers, errs.c_str(), t.fetches, t.hits);
  return t;
}

// Every arch (sm_90: the Blackwell modes and maps refused), clusters of NumCtas and fewer CTAs.
TEST(Frontend, RandomAgainstModelDb16) {
  const Settings kSet[] = {
      {pkg::ArchSm103, 0}, {pkg::ArchSm90, 0}, {pkg::ArchSm100, 3}, {pkg::ArchSm103, 2}};
  int blackwell = 0;
  for (uint32_t seed = 1; seed <= 4; ++seed) {
    const Tally t = RandomAgainstModel<Vtma_frontend_db16, 16>(seed, 1500, kSet[seed - 1]);
    blackwell += t.by_mode[pkg::ModeIm2colW] + t.by_mode[pkg::ModeIm2colW128] +
                 t.by_mode[pkg::ModeTileGather4] + t.group2;
  }
  EXPECT_GT(blackwell, 20) << "the sm_100 modes barely give data jobs";
}

TEST(Frontend, RandomAgainstModelDb64) {
  const Settings kSet[] = {{pkg::ArchSm103, 0}, {pkg::ArchSm90, 1}, {pkg::ArchSm100, 0}};
  for (uint32_t seed = 11; seed <= 13; ++seed)
    RandomAgainstModel<Vtma_frontend_db64, 64>(seed, 1500, kSet[seed - 11]);
}

// Every command fetches and every fetch has an error beat: all bus errors, nothing cached.
TEST(Frontend, BusErrorOnEveryFetch) {
  std::mt19937_64 rng(77);
  std::vector<FeCmd> cmds = RandomCmds(rng, 300, false);
  for (size_t i = 0; i < cmds.size(); ++i) {
    cmds[i].inval_before = true;
    cmds[i].err_beat = static_cast<int>(i % 8);
    cmds[i].err_resp = i % 2 ? 2 : 3;
  }
  const Outcome o = RunFrontend<Vtma_frontend_db16, 16>(cmds, 5);
  Tally t;
  Compare(cmds, o, 2, 16, &t);
  EXPECT_GT(t.by_err[pkg::ErrBusError], 250);
}

// ---- Hand-derived cases ----
model::TensorMap Tile2d() {
  // A 2-D u16 tile: tensor at 0x200000, dims {100, 50}, row stride 256 B, box {32, 8}.
  model::TensorMap m;
  m.rank = 2;
  m.dtype = model::DType::kU16;
  m.global_address = 0x200000;
  m.dims = {100, 50, 1, 1, 1};
  m.strides = {256, 0, 0, 0};
  m.box = {32, 8, 1, 1, 1};
  return m;
}

FeCmd LoadCmd(uint64_t desc_addr, const model::TensorMap& m, int32_t c0, int32_t c1) {
  FeCmd f;
  f.cmd.op = pkg::OpLoad;
  f.cmd.mode = m.mode == model::MapMode::kIm2col ? pkg::ModeIm2col : pkg::ModeTile;
  f.cmd.dim = static_cast<uint8_t>(m.rank);
  f.cmd.desc_addr = desc_addr;
  f.cmd.coords.v[0] = static_cast<uint32_t>(c0);
  f.cmd.coords.v[1] = static_cast<uint32_t>(c1);
  f.cmd.smem_addr = 0x400;
  f.cmd.tag = 9;
  f.rewrite = true;
  f.inval_before = true;
  f.map = model::EncodeDescriptor(m);
  return f;
}

// coords {8, 3}: gaddr = 0x200000 + 8 x 2 = 0x200010, astart[1] = 3 x 256 = 768, step[1] = 256,
// row bytes 64, head 0, dend 64, hi[1] = 10 (box rows 3..10); with c1 = 0x12345 two partial
// products for astart[1].
// Wide-bus packing at DataBytes 64 (hand derived, docs/rtl.md "Wide-bus packing"): a packed
// u16 tensor of 16-byte rows (dims {8, 40}, stride 16, box {8, 8}) at coords {0, 4} walks
// groups of 4 rows: es[1] 4, step[1] 64, row bytes / pitch / dend 64, hi[1] unchanged (11); with
// box[1] 6 groups of 2 (32-byte rows); rows 36..43 of 40 (dim 1 partly out of bounds), a
// clipped dim 0 (c0 = -8) and a tensor with 32-byte rows (stride 32 != 16) are not packed.
TEST(Frontend, PackedTileJobsDb64) {
  model::TensorMap m = Tile2d();
  m.dims = {8, 40, 1, 1, 1};
  m.strides = {16, 0, 0, 0};
  m.box = {8, 8, 1, 1, 1};
  model::TensorMap m6 = m;
  m6.box[1] = 6;
  model::TensorMap wide = m;
  wide.dims[0] = 16;
  wide.strides[0] = 32;
  std::vector<FeCmd> cmds = {LoadCmd(0x1000, m, 0, 4), LoadCmd(0x1100, m6, 0, 4),
                             LoadCmd(0x1000, m, 0, 36), LoadCmd(0x1000, m, -8, 4),
                             LoadCmd(0x1200, wide, 0, 4)};
  const Outcome o = RunFrontend<Vtma_frontend_db64, 64>(cmds, 1);
  ASSERT_EQ(o.jobs.size(), cmds.size());
  const Job& j = o.jobs[0];
  EXPECT_FALSE(j.marker);
  EXPECT_EQ(j.es.v[1], 4u);
  EXPECT_EQ(j.step.v[1], 64u);
  EXPECT_EQ(j.astart.v[1], 4u * 16);
  EXPECT_EQ(j.coord.v[1], 4u);
  EXPECT_EQ(j.hi.v[1], 11u);
  EXPECT_EQ(j.row_bytes, 64u);
  EXPECT_EQ(j.tx_row, 64u);
  EXPECT_EQ(j.pitch, 64u);
  EXPECT_EQ(j.head, 0u);
  EXPECT_EQ(j.dend, 64u);
  EXPECT_EQ(o.jobs[1].es.v[1], 2u);
  EXPECT_EQ(o.jobs[1].row_bytes, 32u);
  EXPECT_EQ(o.jobs[1].step.v[1], 32u);
  for (size_t i = 2; i < 5; ++i) {
    EXPECT_EQ(o.jobs[i].es.v[1], 1u) << "command " << i;
    EXPECT_EQ(o.jobs[i].row_bytes, 16u) << "command " << i;
  }
  EXPECT_EQ(o.jobs[3].head, 16u);
  EXPECT_EQ(o.jobs[4].step.v[1], 32u);
  Tally t;
  Compare(cmds, o, 2, 64, &t);
  EXPECT_EQ(t.packed, 2);
}

TEST(Frontend, HandDerivedTileJobAndLatency) {
  std::vector<FeCmd> cmds = {LoadCmd(0x1000, Tile2d(), 8, 3), LoadCmd(0x1000, Tile2d(), 8, 3),
                             LoadCmd(0x1000, Tile2d(), 8, 0x12345)};
  cmds[1].rewrite = cmds[2].rewrite = false;
  cmds[1].inval_before = cmds[2].inval_before = false;
  const Outcome o = RunFrontend<Vtma_frontend_db16, 16>(cmds, 1);
  ASSERT_EQ(o.jobs.size(), 3u);
  const Job& j = o.jobs[1];
  EXPECT_FALSE(j.marker);
  EXPECT_EQ(j.gaddr, 0x200010u);
  EXPECT_EQ(j.astart.v[1], 768u);
  EXPECT_EQ(j.alo.v[1], 768u);
  EXPECT_EQ(j.step.v[1], 256u);
  EXPECT_EQ(j.coord.v[1], 3u);
  EXPECT_EQ(j.hi.v[1], 10u);
  EXPECT_EQ(j.dim_m1.v[1], 49u);
  EXPECT_EQ(j.es.v[1], 1u);
  EXPECT_EQ(j.row_bytes, 64u);
  EXPECT_EQ(j.head, 0u);
  EXPECT_EQ(j.dend, 64u);
  EXPECT_EQ(j.pitch, 64u);
  EXPECT_EQ(j.smem_addr, 0x400u);
  EXPECT_EQ(o.jobs[2].astart.v[1], 0x12345ull * 256);
  EXPECT_TRUE(o.jobs[0] == o.jobs[1]) << "the miss and the hit give the same job";
  EXPECT_EQ(o.reads[0], WantDescReads(0x1000, 16));
  EXPECT_TRUE(o.reads[1].empty() && o.reads[2].empty()) << "hits read nothing";
  // Latency with a walker that always takes the job (docs/rtl.md, "Frontend"): a hit is taken
  // (its map enters the map register in that cycle), then W1, W1B (the MAC request), W2 (the
  // slot loads its operands), Mac, and the MAC's operand, copy, product and accumulate stages
  // end in the write-back: the job is valid 9 cycles after the accept (command 2, taken once
  // command 1 has left Mac); a miss is valid 18 cycles after its last descriptor beat (the
  // check's nine cycles, W1, W1B, W2 and the MAC). Command 1 is taken in the cycle after
  // command 0's Mac (its one slot has loaded its operands), 4 cycles before command 0's job is
  // valid; its MAC request waits for command 0's last write-back (a cycle before that job is
  // valid), W1 for the job register (the cycle after the job is taken), so its job is valid 6
  // cycles after command 0's (the request's 6 cycles to the write-back; W1, W1B and W2 run
  // beside them).
  for (int lat : {0, 5}) {
    const Outcome l = RunFrontend<Vtma_frontend_db16, 16>(cmds, 1, 100, lat, 100);
    const int miss = static_cast<int>(l.job_valid[0] - l.accept[0]);
    const int after_beat = static_cast<int>(l.job_valid[0] - l.last_beat[0]);
    std::printf(
        "AXI latency 0..%d: accept -> job valid: miss %d (last beat -> job %d), hit %d %d; "
        "command 1 taken %d before job 0, job 1 %d after it\n",
        lat, miss, after_beat, static_cast<int>(l.job_valid[1] - l.accept[1]),
        static_cast<int>(l.job_valid[2] - l.accept[2]),
        static_cast<int>(l.job_valid[0] - l.accept[1]),
        static_cast<int>(l.job_valid[1] - l.job_valid[0]));
    EXPECT_EQ(after_beat, 18);
    EXPECT_EQ(l.job_valid[0] - l.accept[1], 4);
    EXPECT_EQ(l.job_valid[1] - l.job_valid[0], 6);
    EXPECT_EQ(l.job_valid[2] - l.accept[2], 9);
  }
}

// The swizzle-repeat field of a 128B-span map: docs/descriptor.md section 3 gives 1024 for
// 128B and each of its atomicity variants; any other value is an invalid descriptor.
TEST(Frontend, SwizzleRepeatOf128BSpans) {
  std::vector<FeCmd> cmds;
  std::vector<bool> want_ok;
  uint64_t slot = 0x1000;
  const model::Swizzle kSw[] = {model::Swizzle::k128B, model::Swizzle::k128BAtom32B,
                                model::Swizzle::k128BAtom32BFlip8B, model::Swizzle::k128BAtom64B};
  for (model::Swizzle sw : kSw) {
    for (uint32_t rep : {pkg::SwzRepeat128B, pkg::SwzRepeat64B, pkg::SwzRepeat32B,
                         pkg::SwzRepeatNone, 2 * pkg::SwzRepeat128B}) {
      model::TensorMap m = Tile2d();
      m.dims = {256, 64, 1, 1, 1};
      m.strides = {512, 0, 0, 0};
      m.box = {64, 8, 1, 1, 1};  // 64 x 2 B = 128 B = the span
      m.swizzle = sw;
      FeCmd f = LoadCmd(slot, m, 64, 8);
      slot += 0x80;
      model::SetDescriptorBits(f.map.data(), num::kDescSwizzleRepeatLsb, num::kDescSwizzleRepeatW,
                               rep);
      f.cmd.tag = static_cast<uint8_t>(cmds.size());
      cmds.push_back(f);
      want_ok.push_back(rep == pkg::SwzRepeat128B);
    }
  }
  const Outcome o = RunFrontend<Vtma_frontend_db16, 16>(cmds, 3);
  ASSERT_EQ(o.jobs.size(), cmds.size());
  for (size_t i = 0; i < cmds.size(); ++i) {
    const Job& j = o.jobs[i];
    if (want_ok[i]) {
      EXPECT_FALSE(j.marker) << "command " << i;
      EXPECT_EQ(j.cpl.kind, pkg::CplTx) << "command " << i;
      EXPECT_EQ(j.swz, pkg::Swz128B + i / 5) << "command " << i;  // + the atomicity
    } else {
      EXPECT_TRUE(j.marker) << "command " << i;
      EXPECT_EQ(j.cpl.kind, pkg::CplError) << "command " << i;
      EXPECT_EQ(j.cpl.err, pkg::ErrInvalidDescriptor) << "command " << i;
    }
  }
  Tally t;
  Compare(cmds, o, 2, 16, &t);  // and the model agrees
}

// Sub-byte types (sm_100; b4x16, b4x16_p64, b6x16_p32), hand derived from docs/descriptor.md,
// docs/rtl-unpack.md and the model's rules (encoder.cc, tensor_copy.cc F1): b4x16 stores two
// elements per byte in both memories (row, head, dend in bytes = elements / 2; global offset
// c0 / 2); the padded types use 1 byte per element in shared memory and 8 (p64) or 12 (p32)
// global bytes per 16 elements (offset c0 / 2, 3 c0 / 4), with pk telling the unpacker.
TEST(Frontend, SubByteHandDerived) {
  struct WantJob {
    int err;  // 0: data job; else the completion's error class
    uint64_t gaddr, row, head, dend, pitch, pk, astart1, step1;
  };
  std::vector<FeCmd> cmds;
  std::vector<WantJob> want;
  uint64_t slot = 0x1000;
  auto add = [&](const model::TensorMap& m, int c0, int c1, const WantJob& w,
                 int64_t boxbytes_delta = 0) {
    FeCmd f = LoadCmd(slot, m, c0, c1);
    slot += 0x80;
    if (boxbytes_delta != 0) {
      model::SetDescriptorBits(
          f.map.data(), num::kDescBoxBytesLsb, num::kDescBoxBytesW,
          static_cast<uint64_t>(static_cast<int64_t>(model::DescriptorBoxBytes(m)) +
                                boxbytes_delta));
    }
    f.cmd.tag = static_cast<uint8_t>(cmds.size());
    cmds.push_back(f);
    want.push_back(w);
  };
  auto tile = [](model::DType t, int rank, uint64_t addr) {
    model::TensorMap m;
    m.rank = rank;
    m.dtype = t;
    m.global_address = addr;
    return m;
  };
  // b4x16: dims {200, 10}, row stride 128 B, box {64, 4} (32 B rows), coords {-32, 3}:
  // gaddr 0x200000 - 16, elements 32..63 of the row in bounds: head 16, dend 32 bytes;
  // astart[1] 3 x 128; box bytes 64 x 4 / 2 = 128.
  model::TensorMap a = tile(model::DType::kB4x16, 2, 0x200000);
  a.dims = {200, 10, 1, 1, 1};
  a.strides = {128, 0, 0, 0};
  a.box = {64, 4, 1, 1, 1};
  add(a, -32, 3, {0, 0x1FFFF0, 32, 16, 32, 32, 0, 384, 128});
  // coords {192, 7}: elements 192..199 in bounds (dim 200): head 0, dend 4 bytes; gaddr + 96
  add(a, 192, 7, {0, 0x200060, 32, 0, 4, 32, 0, 7 * 128, 128});
  // F1: c0 x 4 bits not a multiple of 128 bits
  add(a, 16, 0, {pkg::ErrMisalignedCoord, 0, 0, 0, 0, 0, 0, 0, 0});
  // box bytes off by one: invalid descriptor
  add(a, 0, 0, {pkg::ErrInvalidDescriptor, 0, 0, 0, 0, 0, 0, 0, 0}, 1);
  // box[0] not a multiple of 32, dim[0] odd: invalid descriptor
  model::TensorMap a3 = a;
  a3.box[0] = 48;
  add(a3, 0, 0, {pkg::ErrInvalidDescriptor, 0, 0, 0, 0, 0, 0, 0, 0});
  model::TensorMap a4 = a;
  a4.dims[0] = 201;
  add(a4, 0, 0, {pkg::ErrInvalidDescriptor, 0, 0, 0, 0, 0, 0, 0, 0});
  // an odd nibble count: rank 1, box 64 with element stride 3: 21 nibbles, field ceil = 11;
  // 10 or 21 are invalid
  model::TensorMap a5 = tile(model::DType::kB4x16, 1, 0x200000);
  a5.dims[0] = 256;
  a5.element_strides[0] = 3;
  a5.box[0] = 64;
  EXPECT_EQ(model::DescriptorBoxBytes(a5), 11u);
  add(a5, 64, 0, {0, 0x200020, 32, 0, 32, 32, 0, 0, 0});
  add(a5, 64, 0, {pkg::ErrInvalidDescriptor, 0, 0, 0, 0, 0, 0, 0, 0}, -1);
  add(a5, 64, 0, {pkg::ErrInvalidDescriptor, 0, 0, 0, 0, 0, 0, 0, 0}, 10);
  // b4x16 in im2col mode: rank 3, cpp 64 (32 bytes), 1 pixel at W 0, N 0: a data job, row 32
  // bytes all in bounds, astart[1] = 0 x 32, step[1] = 1 x 32
  model::TensorMap a6 = tile(model::DType::kB4x16, 3, 0x200000);
  a6.mode = model::MapMode::kIm2col;
  a6.dims = {64, 8, 2, 1, 1};
  a6.strides = {32, 256, 0, 0};
  a6.channels_per_pixel = 64;
  a6.pixels_per_column = 1;
  add(a6, 0, 0, {0, 0x200000, 32, 0, 32, 32, 0, 0, 32});
  // b4x16_p64: dims {256, 4}, stride 128 B (256 x 8 / 16), box {128, 2}, coords {128, 1}:
  // gaddr 0x300000 + 64, row 128 shared bytes, astart[1] 128, pk 1
  model::TensorMap b = tile(model::DType::kB4x16P64, 2, 0x300000);
  b.dims = {256, 4, 1, 1, 1};
  b.strides = {128, 0, 0, 0};
  b.box = {128, 2, 1, 1, 1};
  add(b, 128, 1, {0, 0x300040, 128, 0, 128, 128, pkg::PkG8, 128, 128});
  // F1 of the packed types: c0 a multiple of 128
  add(b, 64, 1, {pkg::ErrMisalignedCoord, 0, 0, 0, 0, 0, 0, 0, 0});
  // a 64B swizzle, an address not 32-aligned, box[0] 64: invalid descriptor
  model::TensorMap b2 = b;
  b2.swizzle = model::Swizzle::k64B;
  add(b2, 0, 0, {pkg::ErrInvalidDescriptor, 0, 0, 0, 0, 0, 0, 0, 0});
  model::TensorMap b3 = b;
  b3.global_address = 0x300010;
  add(b3, 0, 0, {pkg::ErrInvalidDescriptor, 0, 0, 0, 0, 0, 0, 0, 0});
  model::TensorMap b4 = b;
  b4.box[0] = 64;
  add(b4, 0, 0, {pkg::ErrInvalidDescriptor, 0, 0, 0, 0, 0, 0, 0, 0});
  // b6x16_p32: dims {256, 4}, stride 192 B (256 x 12 / 16), box {128, 2}, coords {128, 2}:
  // gaddr 0x300000 + 96, astart[1] 384, pk 2; with the 128B swizzle the pitch is the span
  model::TensorMap c = tile(model::DType::kB6x16P32, 2, 0x300000);
  c.dims = {256, 4, 1, 1, 1};
  c.strides = {192, 0, 0, 0};
  c.box = {128, 2, 1, 1, 1};
  add(c, 128, 2, {0, 0x300060, 128, 0, 128, 128, pkg::PkG12, 384, 192});
  model::TensorMap c2 = c;
  c2.swizzle = model::Swizzle::k128B;
  add(c2, -128, 1, {0, 0x300000 - 96, 128, 128, 128, 128, pkg::PkG12, 192, 192});
  // a stride not a multiple of 32: invalid descriptor
  model::TensorMap c3 = c;
  c3.strides[0] = 208;
  add(c3, 0, 0, {pkg::ErrInvalidDescriptor, 0, 0, 0, 0, 0, 0, 0, 0});

  const Outcome o = RunFrontend<Vtma_frontend_db16, 16>(cmds, 21);
  ASSERT_EQ(o.jobs.size(), cmds.size());
  for (size_t i = 0; i < cmds.size(); ++i) {
    const Job& j = o.jobs[i];
    const WantJob& w = want[i];
    if (w.err != 0) {
      EXPECT_TRUE(j.marker) << "case " << i;
      EXPECT_EQ(j.cpl.kind, pkg::CplError) << "case " << i;
      EXPECT_EQ(j.cpl.err, w.err) << "case " << i;
      continue;
    }
    ASSERT_FALSE(j.marker) << "case " << i << " err " << int(j.cpl.err);
    EXPECT_EQ(j.gaddr, w.gaddr) << "case " << i;
    EXPECT_EQ(j.row_bytes, w.row) << "case " << i;
    EXPECT_EQ(j.head, w.head) << "case " << i;
    EXPECT_EQ(j.dend, w.dend) << "case " << i;
    EXPECT_EQ(j.pitch, w.pitch) << "case " << i;
    EXPECT_EQ(j.pk, w.pk) << "case " << i;
    if (cmds[i].cmd.dim >= 2) {
      EXPECT_EQ(j.astart.v[1], w.astart1) << "case " << i;
      EXPECT_EQ(j.step.v[1], w.step1) << "case " << i;
    }
  }
  Tally t;
  Compare(cmds, o, 2, 16, &t);  // and the model agrees on every verdict
}

}  // namespace
}  // namespace tma::tb
