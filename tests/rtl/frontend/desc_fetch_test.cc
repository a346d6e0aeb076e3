// SPDX-License-Identifier: Apache-2.0
//
// Unit test of the descriptor fetch, decode and check (tma_desc_fetch, tma_desc_decode,
// tma_desc_check, wired as in tma_frontend by tests/rtl/frontend/tma_desc_fetch_tb.sv), at
// DataBytes 16, 32 and 64, over the harness's AXI4 read slave (random latency, arready and
// rvalid gaps; full-width single-beat reads checked by the slave) on a model memory:
//  - the reads: 128 / DataBytes beats from the beat that holds the map, one more when the map
//    does not start a beat (maps at every 16-byte offset, and across 4 KiB), each a single-beat
//    burst of the bus width (hand derived from tma_desc_fetch's header);
//  - the 128 bytes assembled exactly: every decoded field equals the bits at its position in
//    the bytes placed in memory (positions from the generated numbering, docs/descriptor.md);
//    random bytes, so every bit of every chunk is seen;
//  - SLVERR or DECERR on any one beat: the fetch ends (end_o) with bad_o, no ok_o, and the check
//    does not start;
//  - decode + check against the C++ model: on the maps of the silicon vectors
//    (tests/vectors/silicon/*.jsonl.gz, encoded by the model's EncodeDescriptor) and on random
//    valid and broken maps, the decoded fields equal the model's DecodeDescriptor result and
//    the check's verdict (`bad`) equals the model's (DecodeDescriptor, then the encoder rules
//    ValidateTensorMap of sm_103, whose rules the check applies: im2col-wide maps included; the
//    instruction check adds the rules of arch_i).

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "frontend_tb.h"
#include "tma/descriptor.h"
#include "tma/encoder.h"
#include "tma/golden.h"
#include "tma/golden_replay.h"
#include "tma/memory.h"

#include "Vtma_desc_fetch_tb_db16.h"
#include "Vtma_desc_fetch_tb_db32.h"
#include "Vtma_desc_fetch_tb_db64.h"
#include "sim/autogen/tma_structs.h"
#include "verilated_dut.h"

#ifndef TMA_SOURCE_DIR
#error "TMA_SOURCE_DIR must name the repository root"
#endif

namespace tma::tb {
namespace {

namespace pkg = tma::pkg;
namespace model = tma::model;
namespace num = tma::model::num;
using Bytes = DescBytes;

// The decoded fields against the model's map (a map DecodeDescriptor accepted).
void ExpectFieldsMatchModel(const pkg::desc_fields_t& f, const model::TensorMap& m,
                            const std::string& what) {
  EXPECT_EQ(f.addr, m.global_address) << what;
  EXPECT_EQ(f.im2col, m.mode != model::MapMode::kTiled) << what;
  EXPECT_EQ(f.rank_m1 + 1, m.rank) << what;
  EXPECT_EQ(f.dtype, model::HardwareTypeCode(m.dtype)) << what;
  EXPECT_EQ(f.tf32, model::HardwareTf32Flag(m.dtype)) << what;
  EXPECT_EQ(f.il, static_cast<int>(m.interleave)) << what;
  EXPECT_EQ(f.swz, static_cast<int>(m.swizzle)) << what;
  EXPECT_EQ(f.fill_nan, m.oob_fill == model::OobFill::kNan) << what;
  for (int i = 0; i + 1 < m.rank; ++i)
    EXPECT_EQ(f.stride[i] << num::kDescStrideShift, m.strides[i]) << what << " stride " << i;
  for (int i = 0; i < m.rank; ++i) {
    EXPECT_EQ(uint64_t{f.dim_m1[i]} + 1, m.dims[i]) << what << " dim " << i;
    EXPECT_EQ(f.es_m1[i] + 1u, m.element_strides[i]) << what << " es " << i;
  }
  if (m.mode == model::MapMode::kTiled) {
    EXPECT_EQ(f.box0_m1 + 1u, m.box[0]) << what;
    for (int i = 1; i < m.rank; ++i)
      EXPECT_EQ(((f.box_hi >> (8 * (i - 1))) & 0xFF) + 1, m.box[i]) << what << " box " << i;
  } else {
    EXPECT_EQ(f.box0_m1 + 1u, m.channels_per_pixel) << what;
    EXPECT_EQ(f.ppc_m1 + 1u, m.pixels_per_column) << what;
  }
}

// ---- Assembly: random bytes at every 16-byte offset, fields bit for bit ----
template <class M, int kDataBytes>
void AssemblyAndReads(uint32_t seed) {
  FetchBench<M, kDataBytes> b(seed, seed % 2 ? 8 : 0, seed % 2 ? 60 : 100);
  std::mt19937_64 rng(seed);
  int n = 0, checked_fields = 0;
  for (int rep = 0; rep < 40; ++rep) {
    for (uint64_t off = 0; off < 128; off += 16) {
      // a page boundary inside the map every other time
      const uint64_t base =
          (rep % 2 ? 0x4000'0000'0000ull : 0x20'0000ull) + static_cast<uint64_t>(rep) * 0x1000;
      const uint64_t addr = base + (rep % 4 < 2 ? 0x1000 - 64 : 0x200) + off;
      Bytes d;
      for (auto& x : d)
        x = static_cast<uint8_t>(rng());
      // every other map valid-looking in its reserved bits: keep decode paths honest both ways
      b.mem().Write(addr, d.data(), d.size());
      const FetchResult r = b.Fetch(addr, static_cast<int>(rng() % 4));
      ++n;
      ASSERT_TRUE(r.ended) << "no end, address 0x" << std::hex << addr;
      EXPECT_TRUE(r.ok && !r.bad);
      EXPECT_EQ(r.ars, WantDescReads(addr, kDataBytes)) << "address 0x" << std::hex << addr;
      ASSERT_EQ(r.chk_cycles, 9) << "check: map valid 9 cycles after the last beat";
      EXPECT_TRUE(r.fields == FieldsOf(d)) << "address 0x" << std::hex << addr;
      EXPECT_TRUE(r.map.fields == r.fields);
      checked_fields += 14;
    }
  }
  EXPECT_FALSE(b.GotError()) << "assertion failed";
  std::printf("DataBytes %d seed %u: %d maps fetched, %d field groups compared, %llu beats\n",
              kDataBytes, seed, n, checked_fields,
              static_cast<unsigned long long>(b.axi().beats()));
}

TEST(DescFetch, AssemblyAndReadsDb16) {
  for (uint32_t s = 1; s <= 2; ++s)
    AssemblyAndReads<Vtma_desc_fetch_tb_db16, 16>(s);
}
TEST(DescFetch, AssemblyAndReadsDb32) {
  for (uint32_t s = 1; s <= 2; ++s)
    AssemblyAndReads<Vtma_desc_fetch_tb_db32, 32>(s);
}
TEST(DescFetch, AssemblyAndReadsDb64) {
  for (uint32_t s = 1; s <= 2; ++s)
    AssemblyAndReads<Vtma_desc_fetch_tb_db64, 64>(s);
}

// ---- Bus errors: SLVERR / DECERR on each beat in turn ----
template <class M, int kDataBytes>
void BusErrors(uint32_t seed) {
  FetchBench<M, kDataBytes> b(seed, 6, 70);
  std::mt19937_64 rng(seed);
  int n = 0;
  for (uint64_t off = 0; off < 128; off += 16) {
    const uint64_t addr = 0x30'0000 + 0x400 * off + off;
    Bytes d;
    for (auto& x : d)
      x = static_cast<uint8_t>(rng());
    b.mem().Write(addr, d.data(), d.size());
    const std::vector<uint64_t> beats = WantDescReads(addr, kDataBytes);
    for (size_t k = 0; k < beats.size(); ++k) {
      for (uint32_t resp : {2u, 3u}) {
        b.axi().slave().ClearErrorRanges();
        b.axi().slave().AddErrorRange(beats[k], beats[k] + kDataBytes, resp);
        const FetchResult r = b.Fetch(addr, static_cast<int>(rng() % 3));
        ++n;
        EXPECT_TRUE(r.ended);
        EXPECT_TRUE(r.bad) << "beat " << k << " resp " << resp;
        EXPECT_FALSE(r.ok);
        EXPECT_EQ(r.chk_cycles, -1) << "the check must not start after a bus error";
        EXPECT_EQ(r.ars, beats) << "every beat is still read";
      }
    }
    // and clean again: the error flag of the previous fetch does not stick
    b.axi().slave().ClearErrorRanges();
    const FetchResult r = b.Fetch(addr, 1);
    EXPECT_TRUE(r.ok && !r.bad);
    EXPECT_TRUE(r.fields == FieldsOf(d));
  }
  EXPECT_FALSE(b.GotError()) << "assertion failed";
  std::printf("DataBytes %d: %d fetches with one error beat each, all bus errors\n", kDataBytes, n);
}

TEST(DescFetch, BusErrorsDb16) {
  BusErrors<Vtma_desc_fetch_tb_db16, 16>(3);
}
TEST(DescFetch, BusErrorsDb32) {
  BusErrors<Vtma_desc_fetch_tb_db32, 32>(4);
}
TEST(DescFetch, BusErrorsDb64) {
  BusErrors<Vtma_desc_fetch_tb_db64, 64>(5);
}

// ---- Decode and check against the model ----
// The distinct maps of the silicon vectors, encoded by the model.
std::vector<Bytes> SiliconMaps() {
  std::vector<Bytes> out;
  std::set<std::string> seen;
  for (const char* f : {"tile", "im2col", "multicast", "prefetch", "faults", "store", "reduce"}) {
    const std::string path =
        std::string(TMA_SOURCE_DIR) + "/tests/vectors/silicon/" + f + ".jsonl.gz";
    std::vector<model::GoldenCase> cases;
    std::string err;
    EXPECT_TRUE(model::ReadGoldenFile(path, &cases, &err)) << err;
    for (const model::GoldenCase& c : cases) {
      model::TensorMap m;
      if (!model::CaseTensorMap(c, model::CaseGlobalBase(c), &m).ok())
        continue;
      const Bytes d = model::EncodeDescriptor(m);
      const std::string key(d.begin(), d.end());
      if (seen.insert(key).second)
        out.push_back(d);
    }
  }
  return out;
}

std::vector<Bytes> RandomMaps(uint32_t seed, int n) {
  std::mt19937_64 rng(seed);
  std::vector<Bytes> out;
  for (int i = 0; i < n; ++i)
    out.push_back(RandomDescriptor(rng));
  return out;
}

template <class M, int kDataBytes>
void AgainstModel(const std::vector<Bytes>& maps, uint32_t seed, const char* what) {
  FetchBench<M, kDataBytes> b(seed, 4, 80);
  std::mt19937_64 rng(seed);
  int good = 0, bad = 0, mismatched = 0, wide = 0;
  for (size_t i = 0; i < maps.size(); ++i) {
    const uint64_t addr = 0x10'0000 + 0x100 * (i % 64) + 16 * (rng() % 8);
    b.mem().Write(addr, maps[i].data(), 128);
    const FetchResult r = b.Fetch(addr, static_cast<int>(rng() % 3));
    ASSERT_TRUE(r.ok) << what << " map " << i;
    ASSERT_EQ(r.chk_cycles, 9);
    model::TensorMap m;
    const model::Status verdict = ModelDescVerdict(maps[i], &m);
    const bool want_bad = !verdict.ok();
    EXPECT_TRUE(r.fields == FieldsOf(maps[i])) << what << " map " << i;
    if (model::DecodeDescriptor(maps[i].data(), &m).ok()) {
      ExpectFieldsMatchModel(r.fields, m, std::string(what) + " map " + std::to_string(i));
      wide += m.mode == model::MapMode::kIm2colWide;
    }
    if (r.map.bad != want_bad) {
      ++mismatched;
      if (mismatched <= 10) {
        ADD_FAILURE() << what << " map " << i << ": RTL bad " << r.map.bad << ", model "
                      << verdict.ToString() << " hex " << model::ToHex(maps[i].data(), 128);
      }
    }
    (want_bad ? bad : good) += 1;
  }
  EXPECT_FALSE(b.GotError()) << "assertion failed";
  std::printf(
      "%s, DataBytes %d: %zu maps (%d valid, %d invalid per the model at sm_103; %d "
      "im2col-wide), %d verdicts differ\n",
      what, kDataBytes, maps.size(), good, bad, wide, mismatched);
}

TEST(DescDecode, SiliconMapsMatchModel) {
  const std::vector<Bytes> maps = SiliconMaps();
  ASSERT_GT(maps.size(), 100u);
  AgainstModel<Vtma_desc_fetch_tb_db16, 16>(maps, 7, "silicon maps");
  AgainstModel<Vtma_desc_fetch_tb_db64, 64>(maps, 8, "silicon maps");
}

TEST(DescDecode, RandomMapsMatchModel) {
  AgainstModel<Vtma_desc_fetch_tb_db16, 16>(RandomMaps(21, 3000), 9, "random maps");
  AgainstModel<Vtma_desc_fetch_tb_db32, 32>(RandomMaps(22, 1500), 10, "random maps");
}

}  // namespace
}  // namespace tma::tb
