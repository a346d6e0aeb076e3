// SPDX-License-Identifier: Apache-2.0
//
// Unit test of tma_desc_cache (Verilated C++), driven as the frontend drives it, against its
// documented contract (the block's header, docs/rtl.md "Frontend"):
//  - lookup: a command on the stream is looked up from the cycle after it appears, or from the
//    cycle it appears when the command register in front announced it a cycle ahead
//    (pre_valid_i, pre_addr_i) (tag_fresh_o; not in a cycle after a fill wrote a tag); hit_o
//    tells whether its address is cached; an invalidation in the lookup's cycle makes it miss;
//  - a hit (lookup_i with hit_o) loads the entry into the map register in the lookup's cycle
//    (read_o, map_load_o), visible the cycle after (the map register takes the entry the
//    stream's address matches in every cycle of Idle: idle_next_i);
//  - a miss is filled by the check's map (fill_valid_next_i, then fill_valid_i): the map
//    register takes it, and the cache too (round-robin victim, tag = the fill address) unless
//    desc_inval_i came since the lookup or comes with the fill;
//  - desc_inval_i clears every entry.
// The reference is a few lines of C++ of that contract (tags, valid bits, the round-robin
// pointer, the stale flag); maps are random 1,019-bit values (the cache only stores them).
// Scenarios: hits, misses and replacement at CacheEntries 1, 2 and 4; invalidations between
// commands and at every point of a command in flight; addresses that differ only in high bits;
// back-to-back commands on one address; a next command offered while a fill writes a tag.

#include <array>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "Vtma_desc_cache_e1.h"
#include "Vtma_desc_cache_e2.h"
#include "Vtma_desc_cache_e4.h"
#include "sim/autogen/tma_structs.h"
#include "verilated_dut.h"

namespace tma::tb {
namespace {

namespace pkg = tma::pkg;
using Map = pkg::map_t;

Map RandomMap(std::mt19937_64& rng) {
  std::array<uint32_t, Map::kWords> w{};
  for (auto& x : w)
    x = static_cast<uint32_t>(rng());
  return pkg::Unpack<Map>(w.data());  // (bits beyond kBits are dropped)
}

// The documented contract of the cache, as a reference.
struct RefCache {
  struct Entry {
    bool valid = false;
    uint64_t tag = 0;
    Map map;
  };
  std::vector<Entry> e;
  int victim = 0;
  explicit RefCache(int n) : e(static_cast<size_t>(n)) {}
  int Find(uint64_t addr) const {
    for (size_t i = 0; i < e.size(); ++i) {
      if (e[i].valid && e[i].tag == addr)
        return static_cast<int>(i);
    }
    return -1;
  }
  void Inval() {
    for (Entry& x : e)
      x.valid = false;
  }
  void Fill(uint64_t addr, const Map& m) {
    e[static_cast<size_t>(victim)] = {true, addr, m};
    victim = (victim + 1) % static_cast<int>(e.size());
  }
};

struct Knobs {
  int p_inval_idle = 3;     // % per idle cycle between commands
  int p_inval_flight = 3;   // % per cycle of a command in flight (lookup to fill)
  int p_early_next = 50;    // % the next command appears before the current one ends
  int max_fetch_wait = 12;  // cycles from the lookup of a miss to its fill
  int p_pre = 50;           // % of new commands announced a cycle ahead (pre_valid_i)
};

struct Stats {
  int hits = 0, misses = 0, inval_flight = 0, inval_at_lookup = 0, checks = 0;
  int first_cycle = 0;    // lookups in the first cycle a command is on the stream
  std::vector<bool> hit;  // per command
};

// Runs `addrs` as commands; maps change only after an invalidation (the software contract:
// rewrite a map, then invalidate), so the map a hit returns is the map filled for that tag.
template <class M>
Stats Run(int entries, const std::vector<uint64_t>& addrs, uint32_t seed, const Knobs& k) {
  VerilatedDut<M> dut(seed);
  std::mt19937_64 rng(seed);
  auto chance = [&](int pct) { return static_cast<int>(rng() % 100) < pct; };
  RefCache ref(entries);
  Stats st;
  dut->cmd_valid_i = 0;
  dut->cmd_ready_i = 0;
  dut->cmd_addr_i = 0;
  dut->pre_valid_i = 0;
  dut->pre_addr_i = 0;
  dut->desc_inval_i = 0;
  dut->lookup_i = 0;
  dut->idle_i = 1;
  dut->idle_next_i = 1;
  dut->fill_valid_i = 0;
  dut->fill_valid_next_i = 0;
  dut->fill_addr_i = 0;
  dut.Reset();

  // The current command: phase 0 offered (waits for tag_fresh), 2 miss (fetch), 3 done (a hit
  // is done in its lookup's cycle). After a fill the frontend spends a cycle out of Idle (W1:
  // the cache writes its RAM then). The next command may be offered from phase 2 on.
  size_t cur = 0;
  int phase = 0;
  bool after_fill = false;  // this cycle is the one after a fill (not Idle)
  bool next_offered = false;
  bool stale = false;  // the reference's "invalidated since the lookup"
  int wait = 0;        // miss: cycles to the fill
  Map want{};          // the map the command must get
  Map fill_map{};
  bool check_map = false;  // map_o must equal `want` in this cycle
  int64_t cycle = 0;
  bool was_offered = false;  // the stream held this cycle's command in the previous cycle
  const int64_t limit = 200 * static_cast<int64_t>(addrs.size()) + 1000;
  while (cur < addrs.size() && cycle < limit) {
    // ---- Inputs of this cycle ----
    const bool offered = phase == 0 || next_offered;
    const size_t off_idx = phase == 0 ? cur : cur + 1;
    dut->cmd_valid_i = offered && off_idx < addrs.size();
    dut->cmd_addr_i = dut->cmd_valid_i ? addrs[off_idx] : rng();  // junk while not valid
    dut->cmd_ready_i = 0;
    dut->lookup_i = 0;
    dut->fill_valid_i = 0;
    dut->fill_valid_next_i = 0;
    const bool in_flight = phase == 2 || after_fill;
    dut->idle_i = !in_flight;  // the sequencer's Idle: lookups happen only there
    bool inval = chance(in_flight ? k.p_inval_flight : k.p_inval_idle);
    if (phase == 2 && wait == 1)
      dut->fill_valid_next_i = 1;
    bool fill_now = phase == 2 && wait == 0;
    if (fill_now) {
      dut->fill_valid_i = 1;
      pkg::Pack(fill_map, dut->fill_i.data());
      dut->fill_addr_i = addrs[cur];
    } else {
      pkg::Pack(RandomMap(rng), dut->fill_i.data());  // don't-care
      dut->fill_addr_i = rng();
    }
    dut->desc_inval_i = inval;
    dut.Settle();
    // ---- Outputs and the reference ----
    if (check_map) {
      const Map got = pkg::Unpack<Map>(dut->map_o.data());
      ++st.checks;
      EXPECT_TRUE(got == want) << "command " << cur - 1 << " (address 0x" << std::hex
                               << addrs[cur - 1] << std::dec << "): map register differs";
      check_map = false;
    }
    bool take = false;
    if (phase == 0 && !after_fill && dut->cmd_valid_i && dut->tag_fresh_o) {
      const int idx = inval ? -1 : ref.Find(addrs[cur]);
      EXPECT_EQ(static_cast<bool>(dut->hit_o), idx >= 0)
          << "command " << cur << " address 0x" << std::hex << addrs[cur] << std::dec
          << (inval ? " (invalidated in the lookup cycle)" : "");
      st.inval_at_lookup += inval;
      st.first_cycle += !was_offered;
      take = true;
      st.hit.push_back(idx >= 0);
      dut->cmd_ready_i = 1;
      dut->lookup_i = 1;
      stale = false;
      dut.Settle();
      if (idx >= 0) {
        ++st.hits;
        want = ref.e[static_cast<size_t>(idx)].map;
        EXPECT_TRUE(dut->read_o);
        EXPECT_TRUE(dut->map_load_o);
        EXPECT_EQ(static_cast<bool>(dut->map_load_bad_o), want.bad);
        phase = 3;
      } else {
        EXPECT_FALSE(dut->read_o);
        EXPECT_FALSE(dut->map_load_o);
        ++st.misses;
        fill_map = RandomMap(rng);
        want = fill_map;
        phase = 2;
        wait = 1 + static_cast<int>(rng() % static_cast<uint64_t>(k.max_fetch_wait));
      }
    } else if (phase == 2) {
      EXPECT_FALSE(dut->read_o);
      EXPECT_EQ(static_cast<bool>(dut->map_load_o), fill_now);
      if (fill_now) {
        EXPECT_EQ(static_cast<bool>(dut->map_load_bad_o), fill_map.bad);
        if (!stale && !inval)
          ref.Fill(addrs[cur], fill_map);
        phase = 3;
      }
      after_fill = fill_now;
      --wait;
      st.inval_flight += inval;
    } else {
      EXPECT_FALSE(dut->read_o);
      EXPECT_FALSE(dut->map_load_o);
      after_fill = false;
    }
    if (inval) {
      ref.Inval();
      if (!take)
        stale = true;
    }
    if (phase == 3) {
      // The map register shows the command's map from the next cycle.
      check_map = true;
      ++cur;
      phase = 0;
      next_offered = false;
    } else if (!take && phase != 0 && !next_offered && chance(k.p_early_next)) {
      next_offered = true;  // the stream shows the next command early (held until taken)
    }
    if (take)
      next_offered = false;
    dut->idle_next_i = !(phase == 2 || after_fill);
    // The command register in front announces a command that is new on the stream in the next
    // cycle (not the one held now), as the engine's does.
    const bool held = dut->cmd_valid_i && !take;
    const size_t idx_next = phase == 0 ? cur : cur + 1;
    const bool offered_next = (phase == 0 || next_offered) && idx_next < addrs.size();
    const bool new_next = offered_next && !(held && off_idx == idx_next);
    dut->pre_valid_i = new_next && chance(k.p_pre);
    dut->pre_addr_i = dut->pre_valid_i ? addrs[idx_next] : rng();
    was_offered = offered_next && !new_next;
    dut.Cycle();
    ++cycle;
  }
  if (check_map) {  // the last command's map
    dut.Settle();
    ++st.checks;
    EXPECT_TRUE(pkg::Unpack<Map>(dut->map_o.data()) == want) << "last command's map";
  }
  EXPECT_EQ(cur, addrs.size()) << "stuck at command " << cur;
  EXPECT_FALSE(dut.GotError()) << "assertion failed";
  return st;
}

// Addresses: 16-byte aligned maps, pairs that differ only in bit 63, 40 or 12.
std::vector<uint64_t> RandomAddrs(std::mt19937_64& rng, int n, int pool) {
  const uint64_t base[] = {0x1000, 0x1080, 0x8000'0000'0000'1000ull, 0x100'0000'1000ull,
                           0x2000, 0x3040, 0xFFFF'FFFF'FFFF'FF80ull, 0x0};
  std::vector<uint64_t> out;
  for (int i = 0; i < n; ++i) {
    uint64_t a = base[rng() % static_cast<uint64_t>(pool)];
    if (rng() % 4 == 0 && !out.empty())
      a = out.back();  // back to back on one address
    out.push_back(a);
  }
  return out;
}

template <class M>
void RandomRuns(int entries) {
  int hits = 0, misses = 0, inv = 0, inv_lookup = 0, checks = 0, first = 0;
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    std::mt19937_64 rng(seed * 7919u + static_cast<uint32_t>(entries));
    Knobs k;
    if (seed % 3 == 0)
      k.p_inval_idle = k.p_inval_flight = 0;  // long runs of hits
    if (seed % 3 == 1)
      k.p_inval_flight = 15;
    k.max_fetch_wait = seed % 2 ? 12 : 2;
    const int pool = seed <= 2 ? entries + 1 : 8;  // just over the capacity, or many
    const Stats s = Run<M>(entries, RandomAddrs(rng, 3000, pool), seed, k);
    hits += s.hits;
    misses += s.misses;
    inv += s.inval_flight;
    inv_lookup += s.inval_at_lookup;
    checks += s.checks;
    first += s.first_cycle;
  }
  std::printf(
      "CacheEntries %d: %d hits, %d misses, %d invalidations in flight, %d in a lookup cycle, "
      "%d maps compared, %d lookups in a command's first cycle\n",
      entries, hits, misses, inv, inv_lookup, checks, first);
  EXPECT_GT(hits, 1000);
  EXPECT_GT(misses, 1000);
  EXPECT_GT(inv, 50);
  EXPECT_GT(inv_lookup, 5);
  EXPECT_GT(first, 1000);
}

TEST(DescCache, RandomEntries1) {
  RandomRuns<Vtma_desc_cache_e1>(1);
}
TEST(DescCache, RandomEntries2) {
  RandomRuns<Vtma_desc_cache_e2>(2);
}
TEST(DescCache, RandomEntries4) {
  RandomRuns<Vtma_desc_cache_e4>(4);
}

// Hand-written sequences, no invalidation: the hit/miss of each command derived by hand.
template <class M>
std::vector<bool> HitPattern(int entries, const std::vector<uint64_t>& addrs) {
  Knobs k;
  k.p_inval_idle = k.p_inval_flight = 0;
  return Run<M>(entries, addrs, 5, k).hit;
}

TEST(DescCache, HandSequences) {
  const uint64_t a = 0x1000, b = 0x8000'0000'0000'1000ull, c = 0x100'0000'1000ull, d = 0x1080;
  // One entry: a a b a -> miss hit miss miss (b replaced a); high-bit twins never alias.
  EXPECT_EQ(HitPattern<Vtma_desc_cache_e1>(1, {a, a, b, a, a}),
            (std::vector<bool>{false, true, false, false, true}));
  // Two entries, round robin: a b a c (c replaces a) b a -> m m h m h m
  EXPECT_EQ(HitPattern<Vtma_desc_cache_e2>(2, {a, b, a, c, b, a}),
            (std::vector<bool>{false, false, true, false, true, false}));
  // Four entries: a b c d fill 0..3; a b c d hit; a fifth (0) replaces a (round robin)
  EXPECT_EQ(
      HitPattern<Vtma_desc_cache_e4>(4, {a, b, c, d, a, b, c, d, 0, a, b}),
      (std::vector<bool>{false, false, false, false, true, true, true, true, false, false, false}));
}

}  // namespace
}  // namespace tma::tb
