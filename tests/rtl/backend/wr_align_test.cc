// SPDX-License-Identifier: Apache-2.0
//
// Unit test of the store realigner (tma_wr_align) against a reference written from its
// contract (docs/interfaces.md "Store direction", the header of tma_wr_align.sv):
//   a row {s16, g16, len} takes its shared beats in order, ceil((s + len) / DataBytes) of them,
//   where row byte b is byte (b + s) of the concatenated beats; it emits
//   ceil((g + len) / DataBytes) global beats, where byte p of beat j holds row byte
//   j DataBytes + p - g with its strobe set when 0 <= j DataBytes + p - g < len, strobe clear
//   otherwise (the data of a clear strobe is not compared).
// Sweeps: every (s16, g16) of the width, lengths 16 .. 2048 in steps of 16 plus random byte
// lengths (the element-exact clip), rows back to back; random idle cycles on both inputs and
// random backpressure on the output; DataBytes 16, 32 and 64. The reference is checked against
// hand vectors, and a deliberately wrong reference must make the RTL comparison fail.

#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "Vtma_wr_align_db16.h"
#include "Vtma_wr_align_db32.h"
#include "Vtma_wr_align_db64.h"
#include "sim/autogen/tma_structs.h"
#include "verilated_dut.h"

namespace tma::tb {
namespace {

struct Row {
  int s16 = 0, g16 = 0;
  uint32_t len = 0;
  std::vector<uint8_t> bytes;  // the row's len bytes
};

struct Beat {
  std::vector<uint8_t> data;
  uint64_t strb = 0;
};

enum class Bug { kNone, kStrobeOneLate };

// The shared beats of a row (positions x = b + s; bytes outside the row are arbitrary).
std::vector<std::vector<uint8_t>> SharedBeats(const Row& r, int db, std::mt19937& rng) {
  const uint32_t s = 16u * static_cast<uint32_t>(r.s16);
  const uint32_t n = (s + r.len + static_cast<uint32_t>(db) - 1) / static_cast<uint32_t>(db);
  std::vector<std::vector<uint8_t>> v(n, std::vector<uint8_t>(static_cast<size_t>(db)));
  for (uint32_t x = 0; x < n * static_cast<uint32_t>(db); ++x) {
    v[x / db][x % db] = (x >= s && x < s + r.len) ? r.bytes[x - s] : static_cast<uint8_t>(rng());
  }
  return v;
}

std::vector<Beat> Reference(const Row& r, int db, Bug bug = Bug::kNone) {
  const int64_t g = 16 * r.g16;
  const int64_t n = (g + r.len + db - 1) / db;
  std::vector<Beat> out;
  for (int64_t j = 0; j < n; ++j) {
    Beat b;
    b.data.assign(static_cast<size_t>(db), 0);
    for (int p = 0; p < db; ++p) {
      const int64_t k = j * db + p - g;
      const int64_t hi = bug == Bug::kStrobeOneLate ? r.len + 1 : r.len;
      if (k >= 0 && k < hi) {
        b.strb |= 1ull << p;
        b.data[static_cast<size_t>(p)] = k < r.len ? r.bytes[static_cast<size_t>(k)] : 0;
      }
    }
    out.push_back(b);
  }
  return out;
}

TEST(WrAlignReference, HandVectors) {
  // DataBytes 32, s = 16, g = 0, 24 bytes 1..24: beat 0 holds them at bytes 0..23.
  Row r{1, 0, 24, {}};
  for (int i = 1; i <= 24; ++i)
    r.bytes.push_back(static_cast<uint8_t>(i));
  std::vector<Beat> want = Reference(r, 32);
  ASSERT_EQ(want.size(), 1u);
  EXPECT_EQ(want[0].strb, 0x00FFFFFFull);
  EXPECT_EQ(want[0].data[0], 1);
  EXPECT_EQ(want[0].data[23], 24);
  // g = 16: two beats, bytes 16..31 of beat 0 and 0..7 of beat 1.
  r.g16 = 1;
  want = Reference(r, 32);
  ASSERT_EQ(want.size(), 2u);
  EXPECT_EQ(want[0].strb, 0xFFFF0000ull);
  EXPECT_EQ(want[0].data[16], 1);
  EXPECT_EQ(want[1].strb, 0xFFull);
  EXPECT_EQ(want[1].data[7], 24);
  EXPECT_NE(Reference(r, 32, Bug::kStrobeOneLate)[1].strb, want[1].strb);
}

template <class Model>
int RunRows(int db, uint32_t seed, int valid_pct, int ready_pct, Bug bug, bool* sva_error) {
  std::mt19937 rng(seed);
  const int groups = db / 16;
  std::vector<Row> rows;
  for (int s = 0; s < groups; ++s) {
    for (int g = 0; g < groups; ++g) {
      for (uint32_t len = 16; len <= 2048; len += (len < 256 ? 16 : 272)) {
        rows.push_back(Row{s, g, len, {}});
      }
      for (int k = 0; k < 40; ++k) {
        rows.push_back(Row{s, g, 1 + static_cast<uint32_t>(rng() % 300), {}});
      }
    }
  }
  std::deque<std::vector<uint8_t>> beats_in;
  std::deque<Beat> want;
  for (Row& r : rows) {
    r.bytes.resize(r.len);
    for (auto& b : r.bytes)
      b = static_cast<uint8_t>(rng());
    for (auto& b : SharedBeats(r, db, rng))
      beats_in.push_back(b);
    for (auto& b : Reference(r, db, bug))
      want.push_back(b);
  }
  VerilatedDut<Model> dut(seed);
  dut.Reset();
  size_t next_row = 0;
  int mismatches = 0;
  bool row_v = false, beat_v = false;
  for (uint64_t cyc = 0; cyc < 2000000 && !want.empty(); ++cyc) {
    // Inputs (held until taken)
    if (!row_v && next_row < rows.size() && static_cast<int>(rng() % 100) < valid_pct) {
      row_v = true;
    }
    if (!beat_v && !beats_in.empty() && static_cast<int>(rng() % 100) < valid_pct) {
      beat_v = true;
    }
    dut->row_valid_i = row_v;
    if (row_v) {
      tma::pkg::wr_al_t a;
      a.s16 = static_cast<uint8_t>(rows[next_row].s16);
      a.g16 = static_cast<uint8_t>(rows[next_row].g16);
      a.len = static_cast<uint16_t>(rows[next_row].len);
      dut->row_i = tma::pkg::Pack(a)[0];
    }
    dut->beat_valid_i = beat_v;
    if (beat_v) {
      const auto& b = beats_in.front();
      for (int w = 0; w < db / 4; ++w) {
        uint32_t v = 0;
        for (int k = 0; k < 4; ++k)
          v |= static_cast<uint32_t>(b[4 * w + k]) << (8 * k);
        dut->beat_data_i[w] = v;
      }
    }
    dut->out_ready_i = static_cast<int>(rng() % 100) < ready_pct;
    dut.Settle();
    const bool row_take = row_v && dut->row_ready_o;
    const bool beat_take = beat_v && dut->beat_ready_o;
    if (dut->out_valid_o && dut->out_ready_i) {
      const Beat& w = want.front();
      uint64_t strb = 0;
      for (int p = 0; p < db; ++p)
        strb |= static_cast<uint64_t>((dut->out_strb_o >> p) & 1) << p;
      bool ok = strb == w.strb;
      for (int p = 0; p < db && ok; ++p) {
        const uint8_t got = static_cast<uint8_t>(dut->out_data_o[p / 4] >> (8 * (p % 4)));
        if (((w.strb >> p) & 1) && got != w.data[static_cast<size_t>(p)])
          ok = false;
      }
      mismatches += !ok;
      want.pop_front();
    }
    dut.Cycle();
    if (row_take) {
      row_v = false;
      ++next_row;
    }
    if (beat_take) {
      beat_v = false;
      beats_in.pop_front();
    }
  }
  mismatches += static_cast<int>(want.size());      // beats never emitted
  mismatches += static_cast<int>(beats_in.size());  // shared beats never taken
  *sva_error = dut.GotError();
  return mismatches;
}

template <class Model>
void Sweep(int db) {
  for (uint32_t seed = 1; seed <= 3; ++seed) {
    bool sva = false;
    EXPECT_EQ(RunRows<Model>(db, seed, 100, 100, Bug::kNone, &sva), 0) << "full rate";
    EXPECT_FALSE(sva);
    EXPECT_EQ(RunRows<Model>(db, seed + 10, 60, 55, Bug::kNone, &sva), 0) << "idle + stalls";
    EXPECT_FALSE(sva);
  }
  bool sva = false;
  EXPECT_GT(RunRows<Model>(db, 99, 80, 80, Bug::kStrobeOneLate, &sva), 0)
      << "a wrong reference must fail";
}

TEST(WrAlign, Db16) {
  Sweep<Vtma_wr_align_db16>(16);
}
TEST(WrAlign, Db32) {
  Sweep<Vtma_wr_align_db32>(32);
}
TEST(WrAlign, Db64) {
  Sweep<Vtma_wr_align_db64>(64);
}

}  // namespace
}  // namespace tma::tb
