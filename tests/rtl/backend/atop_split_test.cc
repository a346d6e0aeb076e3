// SPDX-License-Identifier: Apache-2.0
//
// Unit test of tma_atop_split (the AXI5 AtomicStore splitter at the store path's write port)
// against a reference written from its contract (the block's header, docs/rtl.md):
//   * a plain burst (aw_atop 0) leaves unchanged: its AW, its W beats (data, strobes, WLAST)
//     and its B;
//   * an atomic burst leaves as one AtomicStore per element whose strobes are set, in beat
//     and lane order: AW {ID AxiIdAtop, the element's address, AWLEN 0, AWSIZE 2 or 3, AWATOP},
//     W {the beat's data on the element's lanes, the element's strobes, WLAST}; elements with
//     no strobe set send nothing;
//   * the engine sees one B per burst, in burst order, OKAY unless an element of the burst was
//     answered SLVERR / DECERR (then the worst of them);
//   * plain and atomic transactions are never outstanding together at the port.
// Sweeps: DataBytes 16 and 32; 4- and 8-byte elements; strobe patterns (full, alternate
// elements, single element, empty beats, an all-empty burst); plain bursts between atomic
// ones; random valid gaps on the engine side and random AW / W / B backpressure and B latency
// at the port; SLVERR / DECERR on one element's B. The reference's element list is checked
// against a hand-derived vector.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "Vtma_atop_split_db16.h"
#include "Vtma_atop_split_db32.h"
#include "sim/autogen/tma_structs.h"
#include "verilated_dut.h"

namespace tma::tb {
namespace {

constexpr int kIdData = tma::pkg::AxiIdData;
constexpr int kIdAtop = tma::pkg::AxiIdAtop;

struct Burst {        // one burst of the write engine
  uint64_t addr = 0;  // DataBytes aligned
  int atop = 0;       // 0 plain
  bool esz8 = false;
  std::vector<std::vector<uint8_t>> data;  // beats
  std::vector<uint64_t> strb;              // per beat
};

struct Tx {  // one transaction at the port (AW + its W beats)
  int id = 0;
  uint64_t addr = 0;
  int len = 0, size = 0, atop = 0;
  std::vector<std::vector<uint8_t>> data;
  std::vector<uint64_t> strb;
  std::vector<bool> last;
};

// ---- The reference ----
// The transactions a burst becomes at the port.
std::vector<Tx> Expected(const Burst& b, int db) {
  std::vector<Tx> out;
  const int size_log2 = __builtin_ctz(static_cast<unsigned>(db));
  if (b.atop == 0) {
    Tx t{kIdData, b.addr, static_cast<int>(b.data.size()) - 1, size_log2, 0, b.data, b.strb, {}};
    for (size_t k = 0; k < b.data.size(); ++k) {
      t.last.push_back(k + 1 == b.data.size());
    }
    out.push_back(t);
    return out;
  }
  const int n = b.esz8 ? 8 : 4;
  for (size_t k = 0; k < b.data.size(); ++k) {
    for (int e = 0; e < db / n; ++e) {
      const uint64_t m = ((n == 8) ? 0xFFull : 0xFull) << (e * n);
      if ((b.strb[k] & m) == 0) {
        continue;
      }
      Tx t{kIdAtop,
           b.addr + k * static_cast<uint64_t>(db) + static_cast<uint64_t>(e * n),
           0,
           b.esz8 ? 3 : 2,
           b.atop,
           {b.data[k]},
           {b.strb[k] & m},
           {true}};
      out.push_back(t);
    }
  }
  return out;
}

TEST(AtopSplitReference, HandVector) {
  // DataBytes 16, 4-byte elements, beats with strobes 0x00F0 and 0xFF0F at 0x1000: the
  // elements at 0x1004 (beat 0 lanes 4..7), 0x1010, 0x1018 and 0x101C (beat 1 lanes 0..3,
  // 8..11, 12..15).
  Burst b;
  b.addr = 0x1000;
  b.atop = tma::pkg::AtopStAdd;
  b.data.assign(2, std::vector<uint8_t>(16, 0));
  b.strb = {0x00F0, 0xFF0F};
  const std::vector<Tx> t = Expected(b, 16);
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[0].addr, 0x1004u);
  EXPECT_EQ(t[0].strb[0], 0x00F0u);
  EXPECT_EQ(t[1].addr, 0x1010u);
  EXPECT_EQ(t[2].addr, 0x1018u);
  EXPECT_EQ(t[3].addr, 0x101Cu);
  EXPECT_EQ(t[3].strb[0], 0xF000u);
  for (const Tx& x : t) {
    EXPECT_EQ(x.id, kIdAtop);
    EXPECT_EQ(x.len, 0);
    EXPECT_EQ(x.size, 2);
  }
  // 8-byte elements of the same beats: 0x1000 (lanes 0..7 hold 0xF0), 0x1010, 0x1018.
  b.esz8 = true;
  b.strb = {0x00FF, 0xFFFF};
  const std::vector<Tx> w = Expected(b, 16);
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w[0].addr, 0x1000u);
  EXPECT_EQ(w[2].addr, 0x1018u);
  EXPECT_EQ(w[2].strb[0], 0xFF00u);
}

// ---- The RTL against the reference ----
struct Knobs {
  int db = 16;
  int in_valid_pct = 100;
  int aw_ready_pct = 100;
  int w_ready_pct = 100;
  int b_ready_pct = 100;  // the engine's
  int b_lat_max = 0;      // the port's B latency, cycles
  int err_pct = 0;        // chance that an element (or a plain burst) is answered with an error
};

struct Outcome {
  int mismatches = 0;
  std::string first;
  bool done = false;
  bool sva_error = false;
  int atomics = 0;
  int bursts_b = 0;
  int errors_b = 0;
};

template <class Model>
Outcome RunSplit(const std::vector<Burst>& bursts, const Knobs& k, uint32_t seed) {
  VerilatedDut<Model> dut(seed);
  std::mt19937 rng(seed);
  auto chance = [&](int pct) { return static_cast<int>(rng() % 100) < pct; };
  const int db = k.db;
  Outcome o;
  auto miss = [&](const std::string& s) {
    if (o.mismatches++ == 0) {
      o.first = s;
    }
  };
  // Expected port transactions and B responses (filled as the port answers).
  std::deque<Tx> want;
  for (const Burst& b : bursts) {
    for (const Tx& t : Expected(b, db)) {
      want.push_back(t);
    }
  }
  std::vector<int> burst_resp(bursts.size(), 0);  // the worst response of each burst
  std::vector<int> burst_of_tx;                   // the burst of each expected transaction
  for (size_t i = 0; i < bursts.size(); ++i) {
    for (size_t n = Expected(bursts[i], db).size(); n > 0; --n) {
      burst_of_tx.push_back(static_cast<int>(i));
    }
  }
  dut.Reset();
  size_t aw_next = 0;  // the engine's next burst on AW
  size_t w_burst = 0;  // the burst whose beats go on W
  size_t w_beat = 0;
  size_t b_next = 0;  // the burst whose B is due at the engine
  // The port: AWs and W beats accepted, transactions completed, B responses pending.
  std::deque<Tx> p_aw;
  std::deque<std::pair<std::vector<uint8_t>, std::pair<uint64_t, bool>>> p_w;
  struct PB {
    int id, resp, burst;
    uint64_t at;
  };
  std::deque<PB> p_b;
  size_t tx_done = 0;
  int plain_out = 0, atom_out = 0;
  bool b_valid = false;
  PB b_cur{};
  std::vector<uint32_t> words(8, 0);
  for (uint64_t cyc = 0; cyc < 200000; ++cyc) {
    // ---- drive the engine side ----
    tma::pkg::axi_wr_req_t req;
    const bool aw_on = aw_next < bursts.size() && chance(k.in_valid_pct);
    if (aw_next < bursts.size()) {
      const Burst& b = bursts[aw_next];
      req.aw_valid = aw_on;
      req.aw_id = kIdData;
      req.aw_addr = b.addr;
      req.aw_len = static_cast<uint8_t>(b.data.size() - 1);
      req.aw_size = static_cast<uint8_t>(__builtin_ctz(static_cast<unsigned>(db)));
      req.aw_burst = 1;
      req.aw_atop = static_cast<uint8_t>(b.atop);
    }
    const bool w_on = w_burst < aw_next && chance(k.in_valid_pct);
    std::vector<uint8_t> wdata(static_cast<size_t>(db), 0);
    uint64_t wstrb = 0;
    if (w_burst < aw_next) {
      const Burst& b = bursts[w_burst];
      req.w_valid = w_on;
      req.w_last = w_beat + 1 == b.data.size();
      wdata = b.data[w_beat];
      wstrb = b.strb[w_beat];
    }
    req.b_ready = chance(k.b_ready_pct);
    std::fill(words.begin(), words.end(), 0);
    tma::pkg::Pack(req, words.data());
    std::memcpy(dut->in_req_i.data(), words.data(), sizeof(uint32_t) * 3);
    std::memcpy(dut->in_w_data_i.data(), wdata.data(), static_cast<size_t>(db));
    dut->in_w_strb_i = static_cast<std::remove_reference_t<decltype(dut->in_w_strb_i)>>(wstrb);
    dut->in_esz8_i = aw_next < bursts.size() ? bursts[aw_next].esz8 : 0;
    // ---- drive the port side ----
    tma::pkg::axi_wr_rsp_t rsp;
    rsp.aw_ready = chance(k.aw_ready_pct);
    rsp.w_ready = chance(k.w_ready_pct);
    rsp.b_valid = b_valid;
    rsp.b_id = static_cast<uint8_t>(b_cur.id);
    rsp.b_resp = static_cast<uint8_t>(b_cur.resp);
    uint32_t rw[1] = {0};
    tma::pkg::Pack(rsp, rw);
    dut->out_rsp_i = static_cast<std::remove_reference_t<decltype(dut->out_rsp_i)>>(rw[0]);
    dut.Settle();
    // ---- sample the handshakes of this cycle ----
    uint32_t iw = dut->in_rsp_o;
    const auto in_rsp = tma::pkg::Unpack<tma::pkg::axi_wr_rsp_t>(&iw);
    std::memcpy(words.data(), dut->out_req_o.data(), sizeof(uint32_t) * 3);
    const auto out = tma::pkg::Unpack<tma::pkg::axi_wr_req_t>(words.data());
    std::vector<uint8_t> odata(static_cast<size_t>(db));
    std::memcpy(odata.data(), dut->out_w_data_o.data(), static_cast<size_t>(db));
    const uint64_t ostrb = static_cast<uint64_t>(dut->out_w_strb_o);
    if (req.aw_valid && in_rsp.aw_ready) {
      ++aw_next;
    }
    if (req.w_valid && in_rsp.w_ready) {
      if (req.w_last) {
        ++w_burst;
        w_beat = 0;
      } else {
        ++w_beat;
      }
    }
    if (in_rsp.b_valid && req.b_ready) {
      if (b_next >= bursts.size()) {
        miss("a B for no burst");
      } else if (in_rsp.b_resp != burst_resp[b_next] || in_rsp.b_id != kIdData) {
        miss("burst " + std::to_string(b_next) + " B resp " + std::to_string(in_rsp.b_resp) +
             " want " + std::to_string(burst_resp[b_next]));
      }
      o.errors_b += in_rsp.b_resp != 0;
      ++o.bursts_b;
      ++b_next;
    }
    if (out.aw_valid && rsp.aw_ready) {
      Tx t{out.aw_id, out.aw_addr, out.aw_len, out.aw_size, out.aw_atop, {}, {}, {}};
      p_aw.push_back(t);
      const bool atom = out.aw_atop != 0;
      (atom ? atom_out : plain_out)++;
      if (plain_out != 0 && atom_out != 0) {
        miss("plain and atomic transactions outstanding together");
      }
    }
    if (out.w_valid && rsp.w_ready) {
      p_w.push_back({odata, {ostrb, out.w_last}});
    }
    if (b_valid && out.b_ready) {
      (b_cur.id == kIdAtop ? atom_out : plain_out)--;
      b_valid = false;
    }
    // A transaction is complete when its AW and all its beats are in.
    while (!p_aw.empty() && p_w.size() >= static_cast<size_t>(p_aw.front().len + 1)) {
      Tx t = p_aw.front();
      p_aw.pop_front();
      for (int i = 0; i <= t.len; ++i) {
        t.data.push_back(p_w.front().first);
        t.strb.push_back(p_w.front().second.first);
        t.last.push_back(p_w.front().second.second);
        p_w.pop_front();
      }
      if (want.empty()) {
        miss("an unexpected transaction");
        continue;
      }
      const Tx w = want.front();
      want.pop_front();
      const int burst = burst_of_tx[tx_done++];
      bool same = t.id == w.id && t.addr == w.addr && t.len == w.len && t.size == w.size &&
                  t.atop == w.atop && t.strb == w.strb && t.last == w.last;
      for (size_t i = 0; same && i < t.data.size(); ++i) {
        for (int l = 0; l < db; ++l) {
          if (((w.strb[i] >> l) & 1) &&
              t.data[i][static_cast<size_t>(l)] != w.data[i][static_cast<size_t>(l)]) {
            same = false;
          }
        }
      }
      if (!same) {
        miss("transaction " + std::to_string(tx_done - 1) + " at 0x" + std::to_string(t.addr) +
             " differs (want addr " + std::to_string(w.addr) + ")");
      }
      o.atomics += t.atop != 0;
      int resp = 0;
      if (chance(k.err_pct)) {
        resp = chance(50) ? 2 : 3;
      }
      burst_resp[static_cast<size_t>(burst)] =
          std::max(burst_resp[static_cast<size_t>(burst)], resp);
      p_b.push_back(PB{t.id, resp, burst,
                       cyc + 1 + (k.b_lat_max ? rng() % static_cast<uint32_t>(k.b_lat_max) : 0)});
    }
    if (!b_valid && !p_b.empty() && p_b.front().at <= cyc) {
      b_cur = p_b.front();
      p_b.pop_front();
      b_valid = true;
    }
    dut.Cycle();
    if (b_next == bursts.size() && want.empty() && !b_valid && p_b.empty()) {
      o.done = true;
      break;
    }
  }
  o.sva_error = dut.GotError();
  return o;
}

// Bursts of every shape the store path makes, for DataBytes db.
std::vector<Burst> Bursts(int db, std::mt19937& rng, int randoms) {
  std::vector<Burst> v;
  auto mk = [&](int atop, bool esz8, int beats, int pattern) {
    Burst b;
    b.addr = 0x10000 + (rng() % 64) * 0x1000 + (rng() % 4) * static_cast<uint64_t>(db);
    b.atop = atop;
    b.esz8 = esz8;
    const int n = esz8 ? 8 : 4;
    const uint64_t full = db >= 64 ? ~0ull : ((1ull << db) - 1);
    for (int k = 0; k < beats; ++k) {
      std::vector<uint8_t> d(static_cast<size_t>(db));
      for (auto& x : d) {
        x = static_cast<uint8_t>(rng());
      }
      b.data.push_back(d);
      uint64_t s = 0;
      const uint64_t em = n == 8 ? 0xFFull : 0xFull;
      switch (pattern) {
        case 0:
          s = full;
          break;  // every element
        case 1:   // alternate elements
          for (int e = 0; e < db / n; e += 2)
            s |= em << (e * n);
          break;
        case 2:
          s = em << ((rng() % static_cast<uint32_t>(db / n)) * n);
          break;  // one
        case 3:
          s = (k % 2) ? full : 0;
          break;  // empty beats between full ones
        case 4:
          s = 0;
          break;  // no element at all
        default:  // random elements
          for (int e = 0; e < db / n; ++e) {
            if (rng() % 2)
              s |= em << (e * n);
          }
      }
      b.strb.push_back(s & full);
    }
    return b;
  };
  const int ops[] = {tma::pkg::AtopStAdd,  tma::pkg::AtopStClr,  tma::pkg::AtopStEor,
                     tma::pkg::AtopStSet,  tma::pkg::AtopStSmax, tma::pkg::AtopStSmin,
                     tma::pkg::AtopStUmax, tma::pkg::AtopStUmin};
  for (int p = 0; p < 6; ++p) {
    for (int esz8 = 0; esz8 < 2; ++esz8) {
      for (int beats : {1, 2, 16}) {
        v.push_back(mk(ops[(p + beats) % 8], esz8 != 0, beats, p));
      }
    }
    v.push_back(mk(0, false, 1 + static_cast<int>(rng() % 16), 0));  // plain between atomics
  }
  for (int r = 0; r < randoms; ++r) {
    const bool plain = rng() % 3 == 0;
    v.push_back(mk(plain ? 0 : ops[rng() % 8], rng() % 2 != 0, 1 + static_cast<int>(rng() % 16),
                   plain ? 0 : static_cast<int>(rng() % 6)));
  }
  return v;
}

template <class Model>
void Sweep(int db) {
  struct Case {
    const char* name;
    Knobs k;
  };
  const Case cases[] = {
      {"streaming", {db, 100, 100, 100, 100, 0, 0}},
      {"backpressure", {db, 70, 60, 50, 60, 12, 0}},
      {"slow B", {db, 100, 100, 100, 30, 40, 0}},
      {"errors", {db, 80, 70, 70, 70, 8, 3}},
  };
  uint32_t seed = 11;
  for (const Case& c : cases) {
    std::mt19937 rng(seed);
    const std::vector<Burst> bursts = Bursts(db, rng, 150);
    int expect_atomics = 0;
    for (const Burst& b : bursts) {
      if (b.atop != 0) {
        expect_atomics += static_cast<int>(Expected(b, db).size());
      }
    }
    const Outcome o = RunSplit<Model>(bursts, c.k, seed++);
    const std::string what = std::string(c.name) + " DataBytes " + std::to_string(db);
    EXPECT_TRUE(o.done) << what << ": did not finish";
    EXPECT_EQ(o.mismatches, 0) << what << ": " << o.first;
    EXPECT_FALSE(o.sva_error) << what;
    EXPECT_EQ(o.atomics, expect_atomics) << what;
    EXPECT_GT(o.atomics, 1000) << what;  // the sweep exercises the split
    EXPECT_EQ(o.bursts_b, static_cast<int>(bursts.size())) << what;
    if (c.k.err_pct > 0) {
      EXPECT_GT(o.errors_b, 0) << what;  // some burst failed through one element's B
    }
  }
}

TEST(AtopSplit, SweepDataBytes16) {
  Sweep<Vtma_atop_split_db16>(16);
}
TEST(AtopSplit, SweepDataBytes32) {
  Sweep<Vtma_atop_split_db32>(32);
}

// Without errors every burst answers OKAY; with every element failing, every burst with a
// transaction fails and a burst without any (no strobe set) still answers OKAY. (The sweep's
// "errors" case fails single elements inside bursts.)
TEST(AtopSplit, ElementErrorsFailTheirBursts) {
  std::mt19937 rng(5);
  std::vector<Burst> v = Bursts(16, rng, 0);
  Knobs k{16, 100, 100, 100, 100, 0, 0};
  Outcome o = RunSplit<Vtma_atop_split_db16>(v, k, 3);
  EXPECT_TRUE(o.done);
  EXPECT_EQ(o.mismatches, 0) << o.first;
  EXPECT_EQ(o.errors_b, 0);
  k.err_pct = 100;
  o = RunSplit<Vtma_atop_split_db16>(v, k, 4);
  EXPECT_TRUE(o.done);
  EXPECT_EQ(o.mismatches, 0) << o.first;
  int with_tx = 0;
  for (const Burst& b : v) {
    with_tx += !Expected(b, 16).empty();
  }
  EXPECT_EQ(o.errors_b, with_tx);  // every burst with a transaction fails, an empty one not
  EXPECT_FALSE(o.sva_error);
}

}  // namespace
}  // namespace tma::tb
