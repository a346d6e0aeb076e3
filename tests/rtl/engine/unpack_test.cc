// SPDX-License-Identifier: Apache-2.0
//
// Unit test of the sub-byte unpacker (tma_unpack) against an independent byte-level reference
// written from the definition (docs/rtl-unpack.md): a packed row with g-byte units (g = 8 for
// .b4x16_p64, 12 for .b6x16_p32) turns input byte goff + g*u + j into output byte
// goff + 16*u + j (j < g), zero elsewhere, in ceil((goff + 16*units) / DataBytes) beats; each
// output beat's error flag is the OR of the flags of the input beats its bytes came from.
// Pass-through rows forward their beats. Random rows of every mode, random valid gaps, random
// output backpressure, random error beats, four data widths and an unregistered output. The
// reference itself is checked against hand-derived vectors, and a deliberately wrong reference
// must make the RTL comparison fail (the comparison can fail).

#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "Vtma_unpack_db128.h"
#include "Vtma_unpack_db16.h"
#include "Vtma_unpack_db32.h"
#include "Vtma_unpack_db32_wires.h"
#include "Vtma_unpack_db64.h"
#include "sim/autogen/tma_structs.h"
#include "verilated_dut.h"

namespace tma::tb {
namespace {

// The row's packing mode (row_mode_i): pass-through, 8-byte units, 12-byte units.
constexpr int kPass = tma::pkg::PkNone, kP8 = tma::pkg::PkG8, kP12 = tma::pkg::PkG12;

struct Row {
  int mode = kPass;
  int goff = 0;      // multiple of 16, < DataBytes
  int in_beats = 1;  // >= 1
  int units = 1;     // 1..8 (packed)
};

struct Beat {
  std::vector<uint8_t> data;
  bool err = false;
  bool operator==(const Beat& o) const { return data == o.data && err == o.err; }
};

std::string Hex(const Beat& b) {
  static const char* kDigits = "0123456789abcdef";
  std::string s;
  for (size_t i = b.data.size(); i-- > 0;) {
    s += kDigits[b.data[i] >> 4];
    s += kDigits[b.data[i] & 15];
    if (i % 4 == 0 && i != 0)
      s += '_';
  }
  return s + (b.err ? " err" : " ok");
}

// Deliberate reference bugs, for the test that shows the comparison can fail.
enum class Bug { kNone, kPaddingNotZero, kErrFirstBeatOnly };

int GlobalBytesPerUnit(int mode) {
  return mode == kP12 ? 12 : 8;
}

// The reference: the output beats of one row from its input beats (byte level, from the
// definition; nothing here follows the RTL's structure).
std::vector<Beat> Reference(const Row& r, const std::vector<Beat>& in, int db,
                            Bug bug = Bug::kNone) {
  if (r.mode == kPass) {
    return in;
  }
  const int g = GlobalBytesPerUnit(r.mode);
  const int out_beats = (r.goff + 16 * r.units + db - 1) / db;
  std::vector<Beat> out(out_beats);
  for (Beat& b : out) {
    b.data.assign(db, 0);
  }
  auto in_byte = [&](int i) -> uint8_t {
    return i / db < static_cast<int>(in.size()) ? in[i / db].data[i % db] : 0;
  };
  for (int u = 0; u < r.units; ++u) {
    for (int j = 0; j < 16; ++j) {
      const int dst = r.goff + 16 * u + j;
      const int src = r.goff + g * u + j;
      if (j < g) {
        out[dst / db].data[dst % db] = in_byte(src);
        const bool used_err = in.at(src / db).err;
        if (bug != Bug::kErrFirstBeatOnly || src / db == (r.goff + g * u) / db) {
          out[dst / db].err = out[dst / db].err || used_err;
        }
      } else if (bug == Bug::kPaddingNotZero) {
        out[dst / db].data[dst % db] = in_byte(src);
      }
    }
  }
  return out;
}

Beat MakeBeat(const std::vector<int>& bytes, bool err) {
  Beat b;
  for (int v : bytes) {
    b.data.push_back(static_cast<uint8_t>(v));
  }
  b.err = err;
  return b;
}

std::vector<Beat> CountingInput(int beats, int db) {
  std::vector<Beat> in(beats);
  for (int k = 0; k < beats; ++k) {
    for (int j = 0; j < db; ++j) {
      in[k].data.push_back(static_cast<uint8_t>(k * db + j));
    }
  }
  return in;
}

// ---- The reference against hand-derived vectors ----

// DataBytes 16, g = 12, 8 units: input bytes 0..95 (6 beats); output unit u holds input bytes
// 12u .. 12u+11, then 4 zero bytes. An error on input beat 2 (bytes 32..47) reaches units 2
// (bytes 24..35) and 3 (bytes 36..47) only.
TEST(UnpackReference, HandVectorDb16G12) {
  std::vector<Beat> in = CountingInput(6, 16);
  in[2].err = true;
  const std::vector<Beat> want = {
      MakeBeat({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 0, 0, 0}, false),
      MakeBeat({12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 0, 0, 0, 0}, false),
      MakeBeat({24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 0, 0, 0, 0}, true),
      MakeBeat({36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 0, 0, 0, 0}, true),
      MakeBeat({48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 0, 0, 0, 0}, false),
      MakeBeat({60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 0, 0, 0, 0}, false),
      MakeBeat({72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 0, 0, 0, 0}, false),
      MakeBeat({84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 0, 0, 0, 0}, false),
  };
  const Row r{kP12, 0, 6, 8};
  EXPECT_EQ(Reference(r, in, 16), want);
  EXPECT_NE(Reference(r, in, 16, Bug::kPaddingNotZero), want);
}

// DataBytes 16, g = 12, 2 units: 24 input bytes in 2 beats; unit 1 (bytes 12..23) spans both
// beats, so an error on input beat 1 marks output beat 1 only.
TEST(UnpackReference, HandVectorDb16G12Straddle) {
  std::vector<Beat> in = CountingInput(2, 16);
  in[1].err = true;
  const std::vector<Beat> want = {
      MakeBeat({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 0, 0, 0}, false),
      MakeBeat({12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 0, 0, 0, 0}, true),
  };
  const Row r{kP12, 0, 2, 2};
  EXPECT_EQ(Reference(r, in, 16), want);
  EXPECT_NE(Reference(r, in, 16, Bug::kErrFirstBeatOnly), want);
}

// DataBytes 64, g = 8, goff 32, 3 units: one input beat, two output beats. Output bytes 32..39
// = input 32..39, 48..55 = input 40..47, next beat bytes 0..7 = input 48..55; zero elsewhere.
TEST(UnpackReference, HandVectorDb64G8Goff32) {
  std::vector<Beat> in = CountingInput(1, 64);
  in[0].err = true;
  std::vector<int> b0(64, 0), b1(64, 0);
  for (int j = 0; j < 8; ++j) {
    b0[32 + j] = 32 + j;
    b0[48 + j] = 40 + j;
    b1[j] = 48 + j;
  }
  const std::vector<Beat> want = {MakeBeat(b0, true), MakeBeat(b1, true)};
  EXPECT_EQ(Reference(Row{kP8, 32, 1, 3}, in, 64), want);
}

// DataBytes 32, g = 12, goff 16, 3 units: input 16 + 36 = 52 bytes (2 beats), output 2 beats:
// beat 0 bytes 16..27 = input 16..27; beat 1 bytes 0..11 = input 28..39, 16..27 = input 40..51.
TEST(UnpackReference, HandVectorDb32G12Goff16) {
  std::vector<Beat> in = CountingInput(2, 32);
  std::vector<int> b0(32, 0), b1(32, 0);
  for (int j = 0; j < 12; ++j) {
    b0[16 + j] = 16 + j;
    b1[j] = 28 + j;
    b1[16 + j] = 40 + j;
  }
  const std::vector<Beat> want = {MakeBeat(b0, false), MakeBeat(b1, false)};
  EXPECT_EQ(Reference(Row{kP12, 16, 2, 3}, in, 32), want);
}

// ---- The RTL against the reference ----

struct Knobs {
  int row_valid_pct = 100;  // chance a new row item is offered in a cycle
  int in_valid_pct = 100;   // chance a new input beat is offered in a cycle
  int out_ready_pct = 100;  // chance the output is ready in a cycle
  int err_pct = 0;          // chance an input beat carries an error
  int rows = 2000;
  bool directed = false;  // every packed (mode, goff, units) first, then random rows
  Bug bug = Bug::kNone;   // deliberately wrong reference
};

struct Outcome {
  int rows = 0;
  int in_beats = 0;
  int out_beats = 0;
  int mismatches = 0;
  int err_beats = 0;
  int packed_rows = 0;
  int cycles_first_to_last_out = 0;
  bool done = false;
  bool sva_error = false;
  std::string first_mismatch;
};

template <class W>
void PutBytes(W& w, const std::vector<uint8_t>& bytes) {
  for (size_t i = 0; i < bytes.size(); i += 4) {
    w[i / 4] = static_cast<uint32_t>(bytes[i]) | static_cast<uint32_t>(bytes[i + 1]) << 8 |
               static_cast<uint32_t>(bytes[i + 2]) << 16 |
               static_cast<uint32_t>(bytes[i + 3]) << 24;
  }
}
template <class W>
std::vector<uint8_t> GetBytes(const W& w, int db) {
  std::vector<uint8_t> v(db);
  for (int i = 0; i < db; ++i) {
    v[i] = static_cast<uint8_t>(w[i / 4] >> (8 * (i % 4)));
  }
  return v;
}

Row RandomRow(std::mt19937& rng, int db) {
  Row r;
  r.mode = static_cast<int>(rng() % 3);
  r.goff = 16 * static_cast<int>(rng() % (db / 16));
  r.units = 1 + static_cast<int>(rng() % 8);
  if (r.mode == kPass) {
    r.in_beats =
        rng() % 8 == 0 ? 1 + static_cast<int>(rng() % 40) : 1 + static_cast<int>(rng() % 6);
  } else {
    r.in_beats = (r.goff + GlobalBytesPerUnit(r.mode) * r.units + db - 1) / db;
  }
  return r;
}

template <class Model, int kDb>
Outcome RunBench(uint32_t seed, const Knobs& k) {
  VerilatedDut<Model> dut(seed);
  std::mt19937 rng(seed);
  // Stimulus: rows, their input beats, the expected output beats.
  std::vector<Row> rows;
  if (k.directed) {
    for (int mode : {kP8, kP12}) {
      for (int goff = 0; goff < kDb; goff += 16) {
        for (int units = 1; units <= 8; ++units) {
          rows.push_back(
              Row{mode, goff, (goff + GlobalBytesPerUnit(mode) * units + kDb - 1) / kDb, units});
        }
      }
    }
  }
  while (static_cast<int>(rows.size()) < k.rows) {
    rows.push_back(RandomRow(rng, kDb));
  }
  std::deque<Row> row_q(rows.begin(), rows.end());
  std::deque<Beat> in_q, want_q;
  Outcome res;
  for (const Row& r : rows) {
    std::vector<Beat> in(r.in_beats);
    for (Beat& b : in) {
      for (int j = 0; j < kDb; ++j) {
        b.data.push_back(static_cast<uint8_t>(rng()));
      }
      b.err = static_cast<int>(rng() % 100) < k.err_pct;
      in_q.push_back(b);
    }
    for (const Beat& b : Reference(r, in, kDb, k.bug)) {
      want_q.push_back(b);
      res.err_beats += b.err;
    }
    res.packed_rows += r.mode != kPass;
  }
  res.rows = static_cast<int>(rows.size());
  res.in_beats = static_cast<int>(in_q.size());

  dut.Reset();
  bool row_shown = false, in_shown = false;
  int first_out = -1, last_out = -1;
  const int max_cycles = 40 * static_cast<int>(want_q.size() + in_q.size()) + 1000;
  for (int cycle = 0; cycle < max_cycles; ++cycle) {
    // Offered items stay offered until taken (stream contract).
    row_shown = !row_q.empty() && (row_shown || static_cast<int>(rng() % 100) < k.row_valid_pct);
    in_shown = !in_q.empty() && (in_shown || static_cast<int>(rng() % 100) < k.in_valid_pct);
    dut->row_valid_i = row_shown;
    if (!row_q.empty()) {
      dut->row_mode_i = static_cast<uint8_t>(row_q.front().mode);
      dut->row_goff_i = static_cast<uint8_t>(row_q.front().goff);
      dut->row_in_beats_i = static_cast<uint16_t>(row_q.front().in_beats);
      dut->row_units_i = static_cast<uint8_t>(row_q.front().units);
    }
    dut->in_valid_i = in_shown;
    if (!in_q.empty()) {
      PutBytes(dut->in_data_i, in_q.front().data);
      dut->in_err_i = in_q.front().err;
    }
    dut->out_ready_i = static_cast<int>(rng() % 100) < k.out_ready_pct;
    dut.Settle();
    if (dut->row_valid_i && dut->row_ready_o) {
      row_q.pop_front();
      row_shown = false;
    }
    if (dut->in_valid_i && dut->in_ready_o) {
      in_q.pop_front();
      in_shown = false;
    }
    if (dut->out_valid_o && dut->out_ready_i) {
      Beat got;
      got.data = GetBytes(dut->out_data_o, kDb);
      got.err = dut->out_err_o;
      if (want_q.empty()) {
        ++res.mismatches;
        if (res.first_mismatch.empty())
          res.first_mismatch = "extra output beat " + Hex(got);
      } else {
        if (!(got == want_q.front())) {
          if (res.first_mismatch.empty()) {
            res.first_mismatch = "output beat " + std::to_string(res.out_beats) + "\n got  " +
                                 Hex(got) + "\n want " + Hex(want_q.front());
          }
          ++res.mismatches;
        }
        want_q.pop_front();
      }
      ++res.out_beats;
      if (first_out < 0)
        first_out = cycle;
      last_out = cycle;
    }
    dut.Cycle();
    if (want_q.empty() && row_q.empty() && in_q.empty()) {
      // Let a few more cycles pass: nothing else may come out.
      for (int i = 0; i < 8; ++i) {
        dut->out_ready_i = 1;
        dut->row_valid_i = 0;
        dut->in_valid_i = 0;
        dut.Settle();
        if (dut->out_valid_o) {
          ++res.mismatches;
          if (res.first_mismatch.empty())
            res.first_mismatch = "extra output beat at the end";
        }
        dut.Cycle();
      }
      dut.Settle();
      res.done = !dut->busy_o;
      break;
    }
  }
  res.cycles_first_to_last_out = last_out - first_out + 1;
  res.sva_error = dut.GotError();
  return res;
}

template <class Model, int kDb>
void CheckRandom(uint32_t seed) {
  // Full speed, then random gaps / backpressure / errors.
  const Knobs presets[] = {
      {100, 100, 100, 5, 1500, true, Bug::kNone},
      {70, 60, 50, 10, 1500, false, Bug::kNone},
      {100, 30, 90, 10, 1500, false, Bug::kNone},
      {40, 100, 30, 3, 1500, true, Bug::kNone},
  };
  int n = 0;
  for (const Knobs& k : presets) {
    const Outcome o = RunBench<Model, kDb>(seed + 17 * n++, k);
    SCOPED_TRACE("preset " + std::to_string(n));
    EXPECT_TRUE(o.done) << "stream did not drain";
    EXPECT_EQ(o.mismatches, 0) << o.first_mismatch;
    EXPECT_FALSE(o.sva_error) << "an RTL assertion fired";
    EXPECT_GT(o.packed_rows, o.rows / 2);
    EXPECT_GT(o.err_beats, 10) << "too few error beats: the error path is barely exercised";
    EXPECT_GT(o.out_beats, o.rows);
  }
}

TEST(EngineUnpack, MatchesReferenceDb16) {
  CheckRandom<Vtma_unpack_db16, 16>(101);
}
TEST(EngineUnpack, MatchesReferenceDb32) {
  CheckRandom<Vtma_unpack_db32, 32>(202);
}
TEST(EngineUnpack, MatchesReferenceDb64) {
  CheckRandom<Vtma_unpack_db64, 64>(303);
}
TEST(EngineUnpack, MatchesReferenceDb128) {
  CheckRandom<Vtma_unpack_db128, 128>(404);
}
TEST(EngineUnpack, MatchesReferenceDb32Wires) {
  CheckRandom<Vtma_unpack_db32_wires, 32>(505);
}

// With every input valid and the output always ready, one beat leaves per cycle.
template <class Model, int kDb>
void CheckThroughput(uint32_t seed) {
  Knobs k;
  k.rows = 3000;
  const Outcome o = RunBench<Model, kDb>(seed, k);
  EXPECT_EQ(o.mismatches, 0) << o.first_mismatch;
  EXPECT_FALSE(o.sva_error);
  EXPECT_TRUE(o.done);
  EXPECT_EQ(o.cycles_first_to_last_out, o.out_beats)
      << "bubbles: " << o.cycles_first_to_last_out - o.out_beats;
}

TEST(EngineUnpack, FullThroughputDb16) {
  CheckThroughput<Vtma_unpack_db16, 16>(7);
}
TEST(EngineUnpack, FullThroughputDb64) {
  CheckThroughput<Vtma_unpack_db64, 64>(8);
}
TEST(EngineUnpack, FullThroughputDb128) {
  CheckThroughput<Vtma_unpack_db128, 128>(9);
}
TEST(EngineUnpack, FullThroughputDb32Wires) {
  CheckThroughput<Vtma_unpack_db32_wires, 32>(10);
}

// A wrong reference (padding not zeroed; error of the first input beat of a unit only) makes
// the same RTL comparison fail: the bench can see these bugs.
TEST(EngineUnpack, PlantedBugsAreCaught) {
  Knobs k;
  k.rows = 400;
  k.err_pct = 20;
  k.bug = Bug::kPaddingNotZero;
  EXPECT_GT((RunBench<Vtma_unpack_db16, 16>(11, k).mismatches), 50);
  EXPECT_GT((RunBench<Vtma_unpack_db64, 64>(12, k).mismatches), 50);
  k.bug = Bug::kErrFirstBeatOnly;
  EXPECT_GT((RunBench<Vtma_unpack_db16, 16>(13, k).mismatches), 5);
  EXPECT_GT((RunBench<Vtma_unpack_db32, 32>(14, k).mismatches), 5);
}

}  // namespace
}  // namespace tma::tb
