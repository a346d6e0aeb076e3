// SPDX-License-Identifier: Apache-2.0
//
// Tensor prefetches on tma_sim_top (Verilated C++): the reads a prefetch issues. The AXI4 read
// slave logs every AR; each prefetch runs alone on the engine (the next is offered once the
// previous one has completed and the harness is quiet), so the data-ID ARs between two
// prefetches are the first one's.
//   * Hand-derived: the exact AR list (address, length) of 2-D tile boxes in and out of bounds,
//     a box entirely outside the tensor, a tile::gather4 with one row out of bounds and an
//     im2col column that wraps to the lower corner and steps N (rows out of bounds: no AR).
//   * Model-derived: for one map of each load mode (tile 3-D with element strides and a
//     swizzle, im2col 4-D with offsets, im2col::w, im2col::w::128, tile::gather4, 16B
//     interleave) at random coordinates, the set of DataBytes-aligned global beats the
//     prefetch reads equals the set the model's load of the same box reads (its
//     GlobalMemoryIf reads, recorded).
//   * A prefetch whose reads are answered SLVERR still ends with its done completion (the data
//     is dropped, the model's prefetch moves no data: docs/rtl.md, "Prefetch").
//   * The check-only top (PrefetchReads = 0): the same prefetches complete with no data AR.
// Every prefetch ends with one done completion naming the issuer, and no shared-memory write
// reaches a CTA (the windows keep their poison bytes).

#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engine_harness.h"
#include "sim/axi_read_slave.h"
#include "sim/cmd_port.h"
#include "sim/cpl_port.h"
#include "tma/descriptor.h"
#include "tma/encoder.h"
#include "tma/memory.h"
#include "tma/tensor_copy.h"
#include "tma/types.h"

#include "Vtma_sim_top_db16.h"
#include "Vtma_sim_top_db16_pfchk.h"
#include "Vtma_sim_top_db64.h"

namespace tma::tb {
namespace {

using model::DType;
using model::LoadMode;
using model::TensorInstr;
using model::TensorMap;
namespace pkg = tma::pkg;

constexpr int kNumCtas = 4;
constexpr uint32_t kWindowBytes = 65536;
constexpr uint8_t kPoison = 0xA5;
constexpr uint64_t kDescBase = 0x10000;  // map k's descriptor at kDescBase + 128 k

struct Prefetch {
  TensorMap map;
  TensorInstr ins;
};

// One data AR of the log: (address, beats - 1).
using Ar = std::pair<uint64_t, uint32_t>;

struct Result {
  std::vector<Ar> ars;                // the data-ID ARs, in handshake order
  std::vector<uint32_t> caches;       // their ARCACHE
  std::vector<uint32_t> desc_caches;  // ARCACHE of the descriptor-ID ARs
  std::vector<sim::EngineCompletion> cpls;
};

// A prefetch of `m` at `coords` (issuer CTA 1).
Prefetch MakePrefetch(const TensorMap& m, LoadMode mode, std::vector<int32_t> coords,
                      std::vector<uint16_t> im2col = {}) {
  Prefetch p;
  p.map = m;
  p.ins.op = model::Op::kPrefetch;
  p.ins.mode = mode;
  p.ins.dim = m.rank;
  p.ins.coords = std::move(coords);
  p.ins.im2col_info = std::move(im2col);
  p.ins.issuer_cta = 1;
  p.ins.dst_cta = 1;
  return p;
}

// Runs the prefetches one at a time on the top `Model`; the data ARs and completions of each.
template <class Model, int kDataBytes>
std::vector<Result> RunPrefetches(const std::vector<Prefetch>& pfs, uint32_t seed,
                                  const std::vector<std::pair<uint64_t, uint64_t>>& slverr = {},
                                  int loads_write_cta = -1) {
  EngineHarnessOptions o;
  o.seed = seed;
  o.rng_seed = seed * 7919u + 1;
  o.ctas = kNumCtas;
  o.window = kWindowBytes;
  o.poison = kPoison;
  size_t next = 0, done = 0;
  std::vector<Result> res(pfs.size());
  EngineHarness<Model, kDataBytes>* hp = nullptr;
  EngineHarness<Model, kDataBytes> e(
      o,
      [&](sim::EngineCommand* c) {
        if (next == pfs.size() || done < next || !hp->Quiet())
          return false;
        c->instr = pfs[next].ins;
        c->desc_addr = kDescBase + 128 * next;
        c->tag = static_cast<uint8_t>(next);
        ++next;
        return true;
      },
      [&](const sim::EngineCompletion& c) {
        ASSERT_LT(c.tag, res.size());
        res[c.tag].cpls.push_back(c);
        ++done;
      });
  hp = &e;
  e.axi().config().in_order = true;
  e.axi().config().full_width = true;
  e.axi().config().SetLatency(0, 9);
  e.axi().set_record(true);
  for (const auto& [lo, hi] : slverr)
    e.axi().AddErrorRange(lo, hi, 2);
  e.pins().arch = pkg::ArchSm100;
  e.pins().cluster = kNumCtas;
  for (size_t k = 0; k < pfs.size(); ++k) {
    const model::DescriptorBytes d = model::EncodeDescriptor(pfs[k].map);
    e.gmem().Write(kDescBase + 128 * k, d.data(), d.size());
  }
  e.h().Reset(2);
  // The log's data ARs up to the completion of prefetch k belong to it (one at a time).
  size_t logged = 0;
  const uint64_t start = e.h().cycle();
  while (e.h().cycle() - start < 200000 && !(done == pfs.size() && e.Quiet())) {
    const size_t before = done;
    e.h().Step();
    if (done != before || (done == pfs.size() && e.Quiet())) {
      const auto& log = e.axi().ar_log();
      for (; logged < log.size(); ++logged) {
        const sim::AxiArRecord& a = log[logged];
        Result& r = res[done - 1];
        if (a.id == pkg::AxiIdData) {
          r.ars.push_back({a.addr, a.len});
          r.caches.push_back(a.cache);
        } else {
          r.desc_caches.push_back(a.cache);
        }
      }
    }
  }
  EXPECT_EQ(done, pfs.size()) << "prefetches did not complete (hang)";
  EXPECT_FALSE(e.TakeAssertFailure()) << "an RTL assertion fired";
  // No CTA's window was written (but the load's destination CTA loads_write_cta, if any).
  for (int cta = 0; cta < kNumCtas; ++cta) {
    if (cta == loads_write_cta)
      continue;
    size_t written = 0;
    for (uint8_t b : e.smem().Window(cta))
      written += b != kPoison;
    EXPECT_EQ(written, 0u) << "a prefetch wrote shared memory of CTA " << cta;
  }
  return res;
}

// Every prefetch: one done completion naming the issuer; every data read of it ARCACHE
// AxiCachePrefetch, every descriptor read AxiCacheNormal.
void ExpectDone(const std::vector<Result>& res) {
  for (size_t k = 0; k < res.size(); ++k) {
    ASSERT_EQ(res[k].cpls.size(), 1u) << "prefetch " << k;
    EXPECT_EQ(res[k].cpls[0].kind, pkg::CplDone) << "prefetch " << k;
    EXPECT_EQ(res[k].cpls[0].cta, 1) << "prefetch " << k;
    for (uint32_t c : res[k].caches)
      EXPECT_EQ(c, pkg::AxiCachePrefetch) << "prefetch " << k << ": ARCACHE of a data read";
    for (uint32_t c : res[k].desc_caches)
      EXPECT_EQ(c, pkg::AxiCacheNormal) << "prefetch " << k << ": ARCACHE of a descriptor read";
  }
}

// ---- Hand-derived maps ----
// u32, 64 x 64 elements in rows of 256 bytes at 0x80000, box 40 x 8 (160-byte rows: 10 beats
// at DataBytes 16). gather4: the same with box 40 x 1.
constexpr uint64_t kRowBase = 0x80000;
TensorMap RowMap(uint32_t box1) {
  TensorMap m;
  m.rank = 2;
  m.dtype = DType::kU32;
  m.dims = {64, 64, 1, 1, 1};
  m.strides[0] = 256;
  m.box = {40, box1, 1, 1, 1};
  m.global_address = kRowBase;
  return m;
}

// im2col, f32, C 16 (16 channels per pixel: 64-byte rows), W 10, N 2 at 0x90000 (W stride 64,
// N stride 640); corners lower -1, upper -1 (W runs -1 .. 8), 8 pixels per column.
constexpr uint64_t kI2cBase = 0x90000;
TensorMap I2cMap() {
  TensorMap m;
  m.mode = model::MapMode::kIm2col;
  m.rank = 3;
  m.dtype = DType::kF32;
  m.dims = {16, 10, 2, 1, 1};
  m.strides[0] = 64;
  m.strides[1] = 640;
  m.lower[0] = -1;
  m.upper[0] = -1;
  m.channels_per_pixel = 16;
  m.pixels_per_column = 8;
  m.global_address = kI2cBase;
  return m;
}

std::vector<Prefetch> HandPrefetches() {
  return {
      MakePrefetch(RowMap(8), LoadMode::kTile, {8, 8}),                    // 0: inside
      MakePrefetch(RowMap(8), LoadMode::kTile, {-8, 60}),                  // 1: left and bottom out
      MakePrefetch(RowMap(8), LoadMode::kTile, {64, 0}),                   // 2: every column out
      MakePrefetch(RowMap(8), LoadMode::kTile, {0, -8}),                   // 3: every row out
      MakePrefetch(RowMap(1), LoadMode::kTileGather4, {8, 3, 70, 0, 63}),  // 4: gather4
      MakePrefetch(I2cMap(), LoadMode::kIm2col, {0, 5, 0}, {0}),           // 5: im2col
  };
}

// The expected data ARs of HandPrefetches at DataBytes 16 (MaxBurstLen 16: no row here needs
// more than one burst, none crosses 4 KiB).
std::vector<std::vector<Ar>> HandExpected() {
  std::vector<std::vector<Ar>> w(6);
  // 0: rows 8 .. 15, elements 8 .. 47: 160 bytes from byte 32 of each row.
  for (uint64_t y = 8; y < 16; ++y)
    w[0].push_back({kRowBase + 256 * y + 32, 9});
  // 1: rows 60 .. 67 (64 .. 67 out: no read), elements -8 .. 31 (0 .. 31 in: 128 bytes).
  for (uint64_t y = 60; y < 64; ++y)
    w[1].push_back({kRowBase + 256 * y, 7});
  // 2, 3: nothing in bounds, no read.
  // 4: rows 3, 70 (out), 0, 63 in that order, 160 bytes from byte 32.
  for (uint64_t y : {3, 0, 63})
    w[4].push_back({kRowBase + 256 * y + 32, 9});
  // 5: pixels from W 5 of N 0: W 5, 6, 7, 8 (the upper end 10 - 1 - 1), then N 1 from the
  // lower corner: W -1 (out: no read), 0, 1, 2; 64 bytes (4 beats) each.
  for (uint64_t wpos : {5, 6, 7, 8})
    w[5].push_back({kI2cBase + 64 * wpos, 3});
  for (uint64_t wpos : {0, 1, 2})
    w[5].push_back({kI2cBase + 640 + 64 * wpos, 3});
  return w;
}

std::string ArString(const std::vector<Ar>& v) {
  std::string s;
  char buf[48];
  for (const Ar& a : v) {
    std::snprintf(buf, sizeof buf, "0x%llx+%u ", static_cast<unsigned long long>(a.first),
                  a.second + 1);
    s += buf;
  }
  return s;
}

TEST(Prefetch, HandDerivedReadsDb16) {
  const std::vector<Prefetch> pfs = HandPrefetches();
  for (const Prefetch& p : pfs) {
    model::ClusterSharedMemory s(kNumCtas, kWindowBytes, kPoison);
    model::SparseGlobalMemory g;
    model::ExecOptions opt;
    opt.arch = model::Arch::kSm100;
    ASSERT_TRUE(model::ExecuteTensor(p.map, p.ins, g, s, opt).status.ok());
  }
  const std::vector<Result> res = RunPrefetches<Vtma_sim_top_db16, 16>(pfs, 3);
  ExpectDone(res);
  const std::vector<std::vector<Ar>> want = HandExpected();
  for (size_t k = 0; k < pfs.size(); ++k)
    EXPECT_EQ(ArString(res[k].ars), ArString(want[k])) << "prefetch " << k;
}

// A read error on a prefetch: its bytes are dropped, so the prefetch still ends done (and
// every row is still requested); the next prefetch is not touched.
TEST(Prefetch, ReadErrorStillDoneDb16) {
  const std::vector<Prefetch> pfs = {HandPrefetches()[0], HandPrefetches()[1]};
  const uint64_t row10 = kRowBase + 256 * 10 + 64;
  const std::vector<Result> res =
      RunPrefetches<Vtma_sim_top_db16, 16>(pfs, 5, {{row10, row10 + 16}});
  ExpectDone(res);
  const std::vector<std::vector<Ar>> want = HandExpected();
  EXPECT_EQ(ArString(res[0].ars), ArString(want[0]));
  EXPECT_EQ(ArString(res[1].ars), ArString(want[1]));
}

// ARCACHE by class: a load between two prefetches reads with AxiCacheNormal (the same box as
// prefetch 0, into CTA 1 at 0), the prefetches with AxiCachePrefetch.
TEST(Prefetch, ArCacheByClassDb16) {
  std::vector<Prefetch> cmds = {HandPrefetches()[0], HandPrefetches()[0], HandPrefetches()[4]};
  cmds[1].ins.op = model::Op::kLoad;
  cmds[1].ins.smem_addr = 0;
  cmds[1].ins.mbar_addr = 0x8000;
  const std::vector<Result> res = RunPrefetches<Vtma_sim_top_db16, 16>(cmds, 9, {}, 1);
  ExpectDone({res[0], res[2]});
  ASSERT_EQ(res[1].cpls.size(), 1u);
  EXPECT_EQ(res[1].cpls[0].kind, pkg::CplTx);
  EXPECT_EQ(ArString(res[1].ars), ArString(HandExpected()[0]));  // the same reads ...
  for (uint32_t c : res[1].caches)
    EXPECT_EQ(c, pkg::AxiCacheNormal) << "ARCACHE of a load's data read";  // ... as a load's
  EXPECT_EQ(ArString(res[2].ars), ArString(HandExpected()[4]));
}

// The check-only top: the same prefetches complete, with no data read at all.
TEST(Prefetch, CheckOnlyIssuesNoReadsDb16) {
  const std::vector<Result> res = RunPrefetches<Vtma_sim_top_db16_pfchk, 16>(HandPrefetches(), 7);
  ExpectDone(res);
  for (size_t k = 0; k < res.size(); ++k)
    EXPECT_TRUE(res[k].ars.empty()) << "prefetch " << k << ": " << ArString(res[k].ars);
}

// ---- Model-derived: one map per mode, random coordinates ----

// Records the DataBytes-aligned beats a model load reads.
class BeatRecorder : public model::GlobalMemoryIf {
 public:
  BeatRecorder(model::GlobalMemoryIf* g, uint64_t db) : g_(g), db_(db) {}
  bool Read(uint64_t addr, uint8_t* dst, size_t n) override {
    for (uint64_t b = addr / db_; n > 0 && b <= (addr + n - 1) / db_; ++b)
      beats.insert(b * db_);
    return g_->Read(addr, dst, n);
  }
  bool Write(uint64_t addr, const uint8_t* src, size_t n) override {
    return g_->Write(addr, src, n);
  }
  std::set<uint64_t> beats;

 private:
  model::GlobalMemoryIf* g_;
  uint64_t db_;
};

std::vector<TensorMap> ModeMaps() {
  std::vector<TensorMap> v;
  {  // 0: tile 3-D f16, element strides 2 / 3, 128B swizzle (128-byte rows)
    TensorMap m;
    m.rank = 3;
    m.dtype = DType::kF16;
    m.dims = {100, 30, 7, 1, 1};
    m.strides = {208, 208 * 30, 0, 0};
    m.box = {64, 6, 3, 1, 1};
    m.element_strides = {1, 2, 3, 1, 1};
    m.swizzle = model::Swizzle::k128B;
    m.global_address = 0x100000;
    v.push_back(m);
  }
  {  // 1: im2col 4-D u8 (NHWC), 32 channels, corners, 20 pixels per column
    TensorMap m;
    m.mode = model::MapMode::kIm2col;
    m.rank = 4;
    m.dtype = DType::kU8;
    m.dims = {40, 9, 6, 3, 1};
    m.strides = {48, 48 * 9, 48 * 9 * 6, 0};
    m.lower = {-2, -1, 0};
    m.upper = {1, 0, 0};
    m.channels_per_pixel = 32;
    m.pixels_per_column = 20;
    m.global_address = 0x140000;
    v.push_back(m);
  }
  for (model::WideMode wm : {model::WideMode::kW, model::WideMode::kW128}) {  // 2, 3
    TensorMap m;
    m.mode = model::MapMode::kIm2colWide;
    m.wide_mode = wm;
    m.rank = 3;
    m.dtype = DType::kF32;
    m.dims = {20, 37, 3, 1, 1};
    m.strides = {96, 96 * 37, 0, 0};
    m.lower[0] = -2;
    m.upper[0] = 1;
    m.swizzle = model::Swizzle::k128B;
    m.channels_per_pixel = 16;
    m.pixels_per_column = wm == model::WideMode::kW ? 24 : 128;
    m.global_address = 0x180000;
    v.push_back(m);
  }
  {  // 4: gather4, u16, 96-element rows
    TensorMap m;
    m.rank = 2;
    m.dtype = DType::kU16;
    m.dims = {150, 50, 1, 1, 1};
    m.strides[0] = 320;
    m.box = {96, 1, 1, 1, 1};
    m.global_address = 0x1c0000;
    v.push_back(m);
  }
  {  // 5: 16B interleave, rank 3 f32 (C / 4 chunks of 16 bytes)
    TensorMap m;
    m.rank = 3;
    m.dtype = DType::kF32;
    m.interleave = model::Interleave::k16B;
    m.dims = {4, 12, 5, 1, 1};
    m.strides = {16, 16 * 12 * 2, 0, 0};
    m.box = {4, 8, 2, 1, 1};
    m.global_address = 0x1e0000;
    v.push_back(m);
  }
  return v;
}

const LoadMode kModeOf[] = {LoadMode::kTile,       LoadMode::kIm2col,      LoadMode::kIm2colW,
                            LoadMode::kIm2colW128, LoadMode::kTileGather4, LoadMode::kTile};

// Random legal prefetches of the mode maps (the model's check passes), `per_map` each.
std::vector<Prefetch> RandomPrefetches(int per_map, uint32_t seed) {
  std::mt19937 rng(seed);
  auto rand = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const std::vector<TensorMap> maps = ModeMaps();
  std::vector<Prefetch> v;
  for (size_t k = 0; k < maps.size(); ++k) {
    const TensorMap& m = maps[k];
    EXPECT_TRUE(model::ValidateTensorMap(m, model::Arch::kSm100).ok()) << "map " << k;
    int made = 0;
    for (int tries = 0; made < per_map && tries < 1000; ++tries) {
      const LoadMode mode = kModeOf[k];
      std::vector<int32_t> c;
      std::vector<uint16_t> i2c;
      const int e = model::ElementBytes(m.dtype);
      // dim 0: a multiple of 16 bytes (F1), in or out of bounds
      const int c0 = 16 / e * rand(-2, static_cast<int>(m.dims[0] * e / 16) - 1);
      c.push_back(m.interleave != model::Interleave::kNone ? 0 : c0);
      if (mode == LoadMode::kTileGather4) {
        for (int r = 0; r < 4; ++r)
          c.push_back(rand(-2, static_cast<int>(m.dims[1]) + 1));
      } else {
        for (int d = 1; d < m.rank; ++d)
          c.push_back(rand(-2, static_cast<int>(m.dims[static_cast<size_t>(d)]) - 1));
      }
      if (mode == LoadMode::kIm2col)
        for (int d = 0; d < m.rank - 2; ++d)
          i2c.push_back(static_cast<uint16_t>(rand(0, 3)));
      if (mode == LoadMode::kIm2colW || mode == LoadMode::kIm2colW128)
        i2c = {static_cast<uint16_t>(rand(0, mode == LoadMode::kIm2colW ? 12 : 5)),
               static_cast<uint16_t>(rand(0, 3))};
      Prefetch p = MakePrefetch(m, mode, c, i2c);
      if (!model::CheckInstruction(m, p.ins, model::Arch::kSm100, kNumCtas).ok())
        continue;
      v.push_back(p);
      ++made;
    }
    EXPECT_EQ(made, per_map) << "map " << k << ": too few legal prefetches";
  }
  return v;
}

template <class Model, int kDataBytes>
void ModelDerivedReads(uint32_t seed) {
  const std::vector<Prefetch> pfs = RandomPrefetches(6, seed);
  const std::vector<Result> res = RunPrefetches<Model, kDataBytes>(pfs, seed);
  ExpectDone(res);
  int with_reads = 0;
  for (size_t k = 0; k < pfs.size(); ++k) {
    // The model's load of the same box: the beats it reads.
    model::SparseGlobalMemory g;
    BeatRecorder rec(&g, kDataBytes);
    model::ClusterSharedMemory s(kNumCtas, kWindowBytes, kPoison);
    TensorInstr load = pfs[k].ins;
    load.op = model::Op::kLoad;
    load.smem_addr = 0;
    model::ExecOptions opt;
    opt.arch = model::Arch::kSm100;
    ASSERT_TRUE(model::ExecuteTensor(pfs[k].map, load, rec, s, opt).status.ok()) << "case " << k;
    std::set<uint64_t> got;
    for (const Ar& a : res[k].ars)
      for (uint64_t b = 0; b <= a.second; ++b)
        got.insert(a.first + kDataBytes * b);
    with_reads += !got.empty();
    EXPECT_EQ(got, rec.beats) << "prefetch " << k << " (mode " << static_cast<int>(pfs[k].ins.mode)
                              << "): " << got.size() << " beats read, the model's load reads "
                              << rec.beats.size();
  }
  EXPECT_GT(with_reads, static_cast<int>(pfs.size()) / 2) << "too few prefetches read anything";
}

TEST(Prefetch, ModelDerivedReadsDb16) {
  ModelDerivedReads<Vtma_sim_top_db16, 16>(11);
}
TEST(Prefetch, ModelDerivedReadsDb64) {
  ModelDerivedReads<Vtma_sim_top_db64, 64>(12);
}

}  // namespace
}  // namespace tma::tb
