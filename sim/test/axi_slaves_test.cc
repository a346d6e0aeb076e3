// SPDX-License-Identifier: Apache-2.0
//
// Unit tests of the harness's AXI4 slaves (sim/axi_write_slave.h, sim/axi_read_slave.h),
// without any RTL: a small C++ master drives TopPins the way the engine would (payload held
// until ready, random valid gaps) against random backpressure, and the memory, the responses
// and the protocol checks are compared with what the master meant.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/axi_read_slave.h"
#include "sim/axi_write_slave.h"
#include "tma/memory.h"

namespace tma::sim {
namespace {

struct Errors {
  std::vector<std::string> ids;
  ErrorFn Fn() {
    return [this](const std::string& id, const std::string&) { ids.push_back(id); };
  }
};

struct WBurst {
  uint32_t id;
  uint64_t addr;
  uint32_t beats;
  std::vector<std::vector<uint8_t>> data;
  std::vector<uint64_t> strb;
};

// A master that issues `bursts` on AW/W (W may run ahead of AW) and collects B.
class WriteMaster {
 public:
  WriteMaster(std::vector<WBurst> bursts, int db, uint32_t seed)
      : bursts_(std::move(bursts)), db_(db), rng_(seed) {}
  // Drives the next cycle's AW/W/B outputs after sampling this cycle's handshakes.
  void Tick(TopPins& p) {
    if (p.awvalid && p.awready) {
      ++aw_next_;
    }
    if (p.wvalid && p.wready) {
      if (++w_beat_ == bursts_[w_burst_].beats) {
        w_beat_ = 0;
        ++w_burst_;
      }
    }
    if (p.bvalid && p.bready) {
      b.push_back({p.bid, p.bresp});
    }
    if (!(p.awvalid && !p.awready)) {  // AW held while waiting
      p.awvalid = aw_next_ < bursts_.size() && Chance(70);
      if (p.awvalid) {
        const WBurst& w = bursts_[aw_next_];
        p.awid = static_cast<uint8_t>(w.id);
        p.awaddr = w.addr;
        p.awlen = static_cast<uint8_t>(w.beats - 1);
        p.awsize = static_cast<uint8_t>(__builtin_ctz(static_cast<unsigned>(db_)));
        p.awburst = 1;
      }
    }
    if (!(p.wvalid && !p.wready)) {
      p.wvalid = w_burst_ < bursts_.size() && Chance(70);
      if (p.wvalid) {
        const WBurst& w = bursts_[w_burst_];
        std::copy(w.data[w_beat_].begin(), w.data[w_beat_].end(), p.wdata);
        p.wstrb = w.strb[w_beat_];
        p.wlast = w_beat_ + 1 == w.beats;
      }
    }
    p.bready = Chance(60);
  }
  bool Done() const { return b.size() == bursts_.size(); }
  std::vector<std::pair<uint32_t, uint32_t>> b;  // (id, resp) in arrival order

 private:
  bool Chance(int pct) { return static_cast<int>(rng_() % 100) < pct; }
  std::vector<WBurst> bursts_;
  int db_;
  std::mt19937 rng_;
  size_t aw_next_ = 0, w_burst_ = 0;
  uint32_t w_beat_ = 0;
};

std::vector<WBurst> RandomWrites(int n, int db, std::mt19937& rng) {
  std::vector<WBurst> v;
  for (int i = 0; i < n; ++i) {
    WBurst w;
    w.id = rng() % 4;
    w.beats = 1 + rng() % 8;
    // Stay inside one 4 KiB page.
    w.addr = 0x10000 + 4096ull * (rng() % 4) + static_cast<uint64_t>(db) * (rng() % 32);
    for (uint32_t k = 0; k < w.beats; ++k) {
      std::vector<uint8_t> d(static_cast<size_t>(db));
      for (auto& x : d) {
        x = static_cast<uint8_t>(rng());
      }
      w.data.push_back(d);
      uint64_t s = rng() | (static_cast<uint64_t>(rng()) << 32);
      if (db < 64) {
        s &= (1ull << db) - 1;
      }
      w.strb.push_back(s);
    }
    v.push_back(w);
  }
  return v;
}

TEST(AxiWriteSlave, RandomBurstsWithBackpressure) {
  for (int db : {16, 32, 64}) {
    std::mt19937 rng(static_cast<uint32_t>(db));
    const std::vector<WBurst> bursts = RandomWrites(60, db, rng);
    model::SparseGlobalMemory mem(0xEE);
    MtRandom srng(7);
    Errors err;
    AxiWriteConfig cfg;
    cfg.awready_pct = 50;
    cfg.wready_pct = 60;
    cfg.bvalid_pct = 70;
    for (int id = 0; id < kAxiIds; ++id) {
      cfg.latency[static_cast<size_t>(id)] = {id & 1 ? 6 : 0, id & 1 ? 12 : 3};
    }
    AxiWriteSlave slave(&mem, &srng, err.Fn(), cfg);
    // A burst to the error range answers SLVERR and writes nothing; DECERR likewise.
    slave.AddErrorRange(0x10000 + 3 * 4096, 0x10000 + 3 * 4096 + 64, 2);
    slave.AddErrorRange(0x10000 + 2 * 4096 + 64, 0x10000 + 2 * 4096 + 65, 3);
    WriteMaster master(bursts, db, 99);
    TopPins p;
    p.data_bytes = db;
    p.rst_n = true;
    int cycles = 0;
    for (; cycles < 20000 && !master.Done(); ++cycles) {
      // Both sides sample this cycle's pins before either drives the next cycle's.
      TopPins sampled = p;
      slave.Tick(p, static_cast<uint64_t>(cycles));
      TopPins next = p;
      master.Tick(sampled);
      next.awvalid = sampled.awvalid;
      next.awid = sampled.awid;
      next.awaddr = sampled.awaddr;
      next.awlen = sampled.awlen;
      next.awsize = sampled.awsize;
      next.awburst = sampled.awburst;
      next.wvalid = sampled.wvalid;
      std::copy(sampled.wdata, sampled.wdata + db, next.wdata);
      next.wstrb = sampled.wstrb;
      next.wlast = sampled.wlast;
      next.bready = sampled.bready;
      p = next;
    }
    ASSERT_TRUE(master.Done()) << "db " << db << ": B responses missing";
    EXPECT_TRUE(err.ids.empty()) << err.ids.front();
    // The expected memory: bursts in order, enabled bytes only, none for an error burst.
    model::SparseGlobalMemory want(0xEE);
    std::map<uint32_t, std::deque<uint32_t>> resp_by_id;
    for (const WBurst& w : bursts) {
      const uint64_t end = w.addr + w.beats * static_cast<uint64_t>(db);
      uint32_t resp = 0;
      if (w.addr < 0x10000 + 3 * 4096 + 64 && end > 0x10000 + 3 * 4096) {
        resp = 2;
      } else if (w.addr < 0x10000 + 2 * 4096 + 65 && end > 0x10000 + 2 * 4096 + 64) {
        resp = 3;
      }
      resp_by_id[w.id].push_back(resp);
      if (resp != 0) {
        continue;
      }
      for (uint32_t k = 0; k < w.beats; ++k) {
        for (int i = 0; i < db; ++i) {
          if ((w.strb[k] >> i) & 1) {
            want.Write(w.addr + k * static_cast<uint64_t>(db) + static_cast<uint64_t>(i),
                       &w.data[k][static_cast<size_t>(i)], 1);
          }
        }
      }
    }
    for (uint64_t a = 0x10000; a < 0x10000 + 4 * 4096; ++a) {
      uint8_t g = 0, x = 0;
      mem.Read(a, &g, 1);
      want.Read(a, &x, 1);
      ASSERT_EQ(g, x) << "db " << db << " byte 0x" << std::hex << a;
    }
    // Per ID the responses come in AW order; across IDs they overtake each other.
    bool overtaken = false;
    uint32_t last_id = 0;
    for (const auto& [id, resp] : master.b) {
      ASSERT_FALSE(resp_by_id[id].empty());
      EXPECT_EQ(resp, resp_by_id[id].front()) << "id " << id;
      resp_by_id[id].pop_front();
      overtaken |= id < last_id;
      last_id = id;
    }
    EXPECT_TRUE(overtaken) << "no B response overtook another";
    EXPECT_GT(slave.error_bursts(), 0u);
  }
}

// A write slave over a sparse memory at DataBytes 16, out of reset and ready for the next cycle.
struct WriteRig {
  model::SparseGlobalMemory mem;
  MtRandom rng{1};
  Errors err;
  AxiWriteSlave slave{&mem, &rng, err.Fn()};
  TopPins p;
  WriteRig() {
    p.rst_n = true;
    p.data_bytes = 16;
    slave.Tick(p, 0);
  }
};

TEST(AxiWriteSlave, ProtocolChecks) {
  WriteRig rig;
  model::SparseGlobalMemory& mem = rig.mem;
  MtRandom& rng = rig.rng;
  Errors& err = rig.err;
  AxiWriteSlave& slave = rig.slave;
  TopPins& p = rig.p;
  // A two-beat burst whose first beat carries wlast.
  p.awvalid = true;
  p.awaddr = 0x1000;
  p.awlen = 1;
  p.awsize = 4;
  p.awburst = 1;
  p.wvalid = true;
  p.wstrb = 0xffff;
  p.wlast = true;
  slave.Tick(p, 1);
  p.awvalid = false;
  p.wlast = true;
  slave.Tick(p, 2);
  p.wvalid = false;
  slave.Tick(p, 3);
  ASSERT_FALSE(err.ids.empty());
  EXPECT_EQ(err.ids.front(), "AXI_WLAST");
  // A burst across 4 KiB, and a FIXED burst.
  err.ids.clear();
  p.awvalid = true;
  p.awaddr = 0x1ff0;
  p.awlen = 1;
  p.awburst = 0;
  slave.Tick(p, 4);
  p.awvalid = false;
  EXPECT_EQ(err.ids, (std::vector<std::string>{"AXI_BURST", "AXI_4K"}));
  // A load-only engine: any write is an error.
  Errors e2;
  AxiWriteConfig off;
  off.enabled = false;
  AxiWriteSlave idle(&mem, &rng, e2.Fn(), off);
  p.wvalid = true;
  idle.Tick(p, 5);
  EXPECT_EQ(e2.ids, (std::vector<std::string>{"AXI_WRITE"}));
}

// AXI5 AtomicStores: executed at the memory with the model's reduction arithmetic (values
// derived by hand), and their protocol checks.
TEST(AxiWriteSlave, AtomicStores) {
  WriteRig rig;
  model::SparseGlobalMemory& mem = rig.mem;
  Errors& err = rig.err;
  AxiWriteSlave& slave = rig.slave;
  TopPins& p = rig.p;
  uint64_t now = 1;
  auto put = [&](uint64_t a, uint64_t v, int n) {
    uint8_t b[8];
    for (int i = 0; i < n; ++i)
      b[i] = static_cast<uint8_t>(v >> (8 * i));
    mem.Write(a, b, static_cast<size_t>(n));
  };
  auto get = [&](uint64_t a, int n) {
    uint8_t b[8] = {};
    mem.Read(a, b, static_cast<size_t>(n));
    uint64_t v = 0;
    for (int i = 0; i < n; ++i)
      v |= static_cast<uint64_t>(b[i]) << (8 * i);
    return v;
  };
  // One AtomicStore: AW and its one W beat in the same cycle (ID AxiIdAtop).
  auto atomic = [&](uint8_t atop, uint64_t addr, int size, uint64_t v, int len = 0,
                    uint8_t id = tma::pkg::AxiIdAtop) {
    const int n = 1 << size;
    const int lane = static_cast<int>(addr & 15);
    p.awvalid = p.wvalid = true;
    p.awid = id;
    p.awaddr = addr;
    p.awlen = static_cast<uint8_t>(len);
    p.awsize = static_cast<uint8_t>(size);
    p.awburst = 1;
    p.awatop = atop;
    std::fill(std::begin(p.wdata), std::end(p.wdata), 0);
    for (int i = 0; i < n; ++i)
      p.wdata[lane + i] = static_cast<uint8_t>(v >> (8 * i));
    p.wstrb = FullStrobe(n) << lane;
    p.wlast = true;
    slave.Tick(p, now++);
    p.awvalid = p.wvalid = false;
    p.awatop = 0;
    p.bready = true;
    for (int i = 0; i < 4; ++i)
      slave.Tick(p, now++);  // its B
  };
  put(0x2004, 5, 4);
  atomic(tma::pkg::AtopStAdd, 0x2004, 2, 10);
  EXPECT_EQ(get(0x2004, 4), 15u);
  put(0x2008, 0xF0F0F0F0u, 4);
  atomic(tma::pkg::AtopStClr, 0x2008, 2, 0x0000FFFFu);  // mem & ~data
  EXPECT_EQ(get(0x2008, 4), 0xF0F00000u);
  atomic(tma::pkg::AtopStSet, 0x2008, 2, 0x0000000Fu);
  EXPECT_EQ(get(0x2008, 4), 0xF0F0000Fu);
  atomic(tma::pkg::AtopStEor, 0x2008, 2, 0xFFFFFFFFu);
  EXPECT_EQ(get(0x2008, 4), 0x0F0FFFF0u);
  put(0x2010, static_cast<uint64_t>(-5), 8);
  atomic(tma::pkg::AtopStSmin, 0x2010, 3, 3);  // min(-5, 3) signed: -5
  EXPECT_EQ(get(0x2010, 8), static_cast<uint64_t>(-5));
  atomic(tma::pkg::AtopStSmax, 0x2010, 3, 3);  // max(-5, 3) signed: 3
  EXPECT_EQ(get(0x2010, 8), 3u);
  atomic(tma::pkg::AtopStUmax, 0x2010, 3, static_cast<uint64_t>(-1));  // unsigned: all ones
  EXPECT_EQ(get(0x2010, 8), ~0ull);
  atomic(tma::pkg::AtopStUmin, 0x2018, 3, 7);  // memory 0: stays 0
  EXPECT_EQ(get(0x2018, 8), 0u);
  atomic(tma::pkg::AtopStAdd, 0x201C, 2, 0xFFFFFFFFu);  // u32 add wraps at the element
  atomic(tma::pkg::AtopStAdd, 0x201C, 2, 2);
  EXPECT_EQ(get(0x201C, 4), 1u);
  EXPECT_EQ(get(0x2018, 4), 0u);  // the neighbour untouched
  EXPECT_EQ(slave.atomics(), 10u);
  EXPECT_TRUE(err.ids.empty());
  // A two-beat atomic burst, an AtomicLoad encoding and an unaligned AtomicStore are refused.
  atomic(tma::pkg::AtopStAdd, 0x2000, 4, 1, 1);
  atomic(0x20, 0x2000, 2, 1);
  atomic(tma::pkg::AtopStAdd, 0x2002, 2, 1);
  EXPECT_EQ(std::count(err.ids.begin(), err.ids.end(), "AXI_ATOP"), 3);
}

// A master that issues ARs and checks every R beat against memory, per ID in order.
TEST(AxiReadSlave, OutOfOrderIdsLatencyAndErrors) {
  for (int db : {16, 64}) {
    model::SparseGlobalMemory mem;
    std::mt19937 rng(static_cast<uint32_t>(db) + 5);
    for (uint64_t a = 0x20000; a < 0x28000; a += 4) {
      const uint32_t v = rng();
      mem.Write(a, reinterpret_cast<const uint8_t*>(&v), 4);
    }
    GlobalMemorySource src(&mem);
    MtRandom srng(3);
    Errors err;
    AxiReadConfig cfg;
    cfg.arready_pct = 60;
    cfg.rvalid_pct = 70;
    cfg.SetLatency(1, 20, /*split=*/true);
    AxiReadSlave slave(&src, &srng, err.Fn(), cfg);
    slave.AddErrorRange(0x27000, 0x27010, 3);
    struct Ar {
      uint32_t id;
      uint64_t addr;
      uint32_t beats;
    };
    std::vector<Ar> ars;
    for (int i = 0; i < 80; ++i) {
      ars.push_back({static_cast<uint32_t>(rng() % 6),
                     0x20000 + 4096ull * (rng() % 8) + static_cast<uint64_t>(db) * (rng() % 16),
                     static_cast<uint32_t>(1 + rng() % 8)});
    }
    std::map<uint32_t, std::deque<std::pair<Ar, uint32_t>>> open;  // per ID: burst, beats seen
    TopPins p;
    p.data_bytes = db;
    p.rst_n = true;
    size_t next = 0, done = 0;
    bool overtaken = false, decerr = false;
    uint32_t last_id = 0;
    for (int cycle = 0; cycle < 40000 && done < ars.size(); ++cycle) {
      const bool ar_fire = p.arvalid && p.arready;
      const bool r_fire = p.rvalid && p.rready;
      if (r_fire) {
        auto& q = open[p.rid];
        ASSERT_FALSE(q.empty()) << "beat for an ID with no burst";
        auto& [ar, seen] = q.front();
        const uint64_t a = ar.addr + seen * static_cast<uint64_t>(db);
        if (a >= 0x27000 && a < 0x27010) {
          EXPECT_EQ(p.rresp, 3);
          decerr = true;
        } else {
          EXPECT_EQ(p.rresp, 0);
          std::vector<uint8_t> want(static_cast<size_t>(db));
          mem.Read(a, want.data(), want.size());
          EXPECT_EQ(std::vector<uint8_t>(p.rdata, p.rdata + db), want)
              << "beat at 0x" << std::hex << a;
        }
        EXPECT_EQ(p.rlast, seen + 1 == ar.beats);
        if (++seen == ar.beats) {
          overtaken |= p.rid < last_id;
          last_id = p.rid;
          q.pop_front();
          ++done;
        }
      }
      if (ar_fire) {
        open[ars[next].id].push_back({ars[next], 0});
        ++next;
      }
      TopPins s = p;
      slave.Tick(p, static_cast<uint64_t>(cycle));  // drives arready / R for the next cycle
      p.rready = (rng() % 100) < 70;
      if (!(s.arvalid && !s.arready)) {
        p.arvalid = next < ars.size() && (rng() % 100) < 60;
        if (p.arvalid) {
          p.arid = static_cast<uint8_t>(ars[next].id);
          p.araddr = ars[next].addr;
          p.arlen = static_cast<uint8_t>(ars[next].beats - 1);
          p.arsize = static_cast<uint8_t>(__builtin_ctz(static_cast<unsigned>(db)));
          p.arburst = 1;
        }
      }
    }
    EXPECT_EQ(done, ars.size());
    EXPECT_TRUE(err.ids.empty()) << err.ids.front();
    EXPECT_TRUE(overtaken) << "bursts of different IDs never overtook each other";
    EXPECT_TRUE(decerr) << "the injected DECERR range was never read";
    EXPECT_TRUE(slave.idle());
  }
}

}  // namespace
}  // namespace tma::sim
