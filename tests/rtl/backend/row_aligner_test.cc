// SPDX-License-Identifier: Apache-2.0
//
// Unit test of the row aligner (tma_row_aligner) against a byte-level reference written from
// its contract (docs/interfaces.md `row_t` and "Aligner output item", docs/rtl.md "Row
// aligner" and "a data-read bus error leaves a partial write", the field definitions of
// tma_pkg::al_row_t):
//   A row of L bytes (L a multiple of 16) at logical shared address smem_addr (16-byte
//   aligned) with in-bounds bytes [head, dend) read from global address gaddr (row byte head)
//   becomes ceil((s + L) / DataBytes) beats, s = smem_addr % DataBytes: beat k at address
//   smem_addr - s + k * DataBytes, lane j holding row byte r = k * DataBytes + j - s. Strobes
//   are exactly the lanes with 0 <= r < L. A lane with head <= r < dend holds global byte
//   gaddr + r - head; any other lane of the row holds the fill (zero, or 0x7FF7 per 16 bits,
//   little-endian). A tf32 row rounds each in-bounds 4-byte element to tf32 (model
//   RoundToTf32, silicon D3); fill is never rounded. out_swz_o is the row's swizzle code and
//   out_lane_o the granule permutation of the beat (the model's SwizzleAddress XOR, address
//   bits [6:3] below the beat). A completion-only row (has_data = 0) is one item without a
//   write. The global beats are those covering [gaddr, gaddr + dend - head), DataBytes
//   aligned, in row order. A beat with an error response: the first item of its command that
//   uses a byte of it and every later item of the command write nothing (strobes 0); the
//   command's last item carries out_err_o; later commands are unaffected.
// The al_row_t entry each row needs (what the engine's row fork computes) is derived here from
// the package's field definitions; lo_ok / hi_ok from which global beats the lanes of the first
// / last in-bounds beat come from.
// Sweeps: every shared offset s x global offset gaddr % DataBytes (multiples of 16) x lengths
// around the beat size x in-bounds shapes (full, none, clipped left / right / both, one byte),
// then random rows; DataBytes 16, 32, 64 and 128; random idle cycles on the row and beat
// inputs, random backpressure on the output, random error beats. Also: full throughput (one
// beat per cycle plus one preload cycle for a row whose first in-bounds beat needs two global
// beats), hand vectors for the reference, and deliberately wrong references that must fail.

#include <algorithm>
#include <cstdint>
#include <deque>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "tma/element.h"
#include "tma/swizzle.h"

#include "Vtma_row_aligner_db128.h"
#include "Vtma_row_aligner_db16.h"
#include "Vtma_row_aligner_db32.h"
#include "Vtma_row_aligner_db64.h"
#include "Vtma_row_fork_db128.h"
#include "Vtma_row_fork_db16.h"
#include "Vtma_row_fork_db32.h"
#include "Vtma_row_fork_db64.h"
#include "sim/autogen/tma_structs.h"
#include "verilated_dut.h"

namespace tma::tb {
namespace {

// A logical row, as the walker emits it (tma_pkg::row_t), with its command's CTA mask.
struct Row {
  bool has_data = true;
  bool last = false;
  uint64_t gaddr = 0;      // global address of row byte head, 16-byte aligned
  uint32_t smem_addr = 0;  // logical shared address of row byte 0, 16-byte aligned
  int len = 16;            // L, a multiple of 16
  int head = 0;            // in-bounds bytes [head, dend); head a multiple of 16
  int dend = 0;
  bool fill_nan = false;
  bool tf32 = false;
  int swz = 0;
  uint32_t cta_mask = 1;
  bool HasRead() const { return has_data && dend > head; }
};

// tma_pkg::al_row_t.
struct AlRow {
  bool has_data = false, last = false, has_read = false;
  uint32_t beat = 0;  // 28 bits
  uint32_t xh16 = 0, xd1 = 0, xl1 = 0, s16 = 0, rot16 = 0;
  bool lo_ok = false, hi_ok = false, h_at0 = false, d_at0 = false, l_at0 = false;
  bool fill_nan = false, tf32 = false;
  uint32_t swz = 0, cta_mask = 0;
};

// One output item of the aligner.
struct Item {
  bool wr = false;
  uint32_t addr = 0;
  std::vector<uint8_t> data;
  std::vector<uint8_t> strb;
  int swz = 0;
  int lane = 0;
  bool last = false;
  bool err = false;
  uint32_t cta_mask = 0;
};

// One global read beat.
struct Beat {
  std::vector<uint8_t> data;
  bool err = false;
};

// ---- Port adapter: the only code that names the block's ports and struct layout ----
// Ports relied on: clk_i, rst_ni, row_valid_i, row_ready_o, row_i (al_row_t), beat_valid_i,
// beat_ready_o, beat_data_i, beat_err_i, out_valid_o, out_ready_i, out_o (smem_beat_t),
// out_data_o, out_strb_o, busy_o. row_i is packed and out_o unpacked by the codecs generated
// from tma_pkg (sim/autogen/tma_structs.h).

template <class T>
bool BitOf(const T& v, int i) {
  if constexpr (std::is_integral_v<T>) {
    return (static_cast<uint64_t>(v) >> i) & 1u;
  } else {
    return (v[i / 32] >> (i % 32)) & 1u;
  }
}
template <class T>
uint8_t ByteOf(const T& v, int i) {
  return static_cast<uint8_t>(v[i / 4] >> (8 * (i % 4)));
}

template <class M>
struct AlignerPorts {
  M* m;
  int db;
  void DriveRow(bool valid, const AlRow& r) {
    m->row_valid_i = valid;
    tma::pkg::al_row_t a;
    a.has_data = r.has_data;
    a.last = r.last;
    a.has_read = r.has_read;
    a.beat = static_cast<uint32_t>(r.beat);
    a.xh16 = static_cast<uint8_t>(r.xh16);
    a.xd1 = static_cast<uint16_t>(r.xd1);
    a.xl1 = static_cast<uint16_t>(r.xl1);
    a.s16 = static_cast<uint8_t>(r.s16);
    a.rot16 = static_cast<uint8_t>(r.rot16);
    a.lo_ok = r.lo_ok;
    a.hi_ok = r.hi_ok;
    a.h_at0 = r.h_at0;
    a.d_at0 = r.d_at0;
    a.l_at0 = r.l_at0;
    a.fill_nan = r.fill_nan;
    a.tf32 = r.tf32;
    a.swz = static_cast<uint8_t>(r.swz);
    a.cta_mask = static_cast<uint16_t>(r.cta_mask);
    tma::pkg::Pack(a, m->row_i.data());
  }
  bool RowReady() const { return m->row_ready_o; }
  void DriveBeat(bool valid, const Beat& b) {
    m->beat_valid_i = valid;
    for (int w = 0; w < db / 4; ++w) {
      uint32_t v = 0;
      for (int i = 0; i < 4 && !b.data.empty(); ++i) {
        v |= static_cast<uint32_t>(b.data[4 * w + i]) << (8 * i);
      }
      m->beat_data_i[w] = v;
    }
    m->beat_err_i = b.err;
  }
  bool BeatReady() const { return m->beat_ready_o; }
  void DriveOutReady(bool r) { m->out_ready_i = r; }
  bool OutReady() const { return m->out_ready_i; }
  bool OutValid() const { return m->out_valid_o; }
  Item ReadOut() const {
    const auto o = tma::pkg::UnpackU64<tma::pkg::smem_beat_t>(m->out_o);
    Item it;
    it.wr = o.wr;
    it.addr = o.addr;
    for (int j = 0; j < db; ++j) {
      it.data.push_back(ByteOf(m->out_data_o, j));
      it.strb.push_back(BitOf(m->out_strb_o, j));
    }
    it.swz = o.swz;
    it.lane = o.lane;
    it.last = o.last;
    it.err = o.err;
    it.cta_mask = o.cta_mask;
    return it;
  }
  bool Busy() const { return m->busy_o; }
};

// ---- Global memory: random bytes with tf32 corner cases sprinkled in ----
constexpr uint64_t kGBase = 0x40000;
constexpr uint64_t kGSize = 1 << 17;

struct GlobalMem {
  std::vector<uint8_t> bytes;
  explicit GlobalMem(std::mt19937& rng) : bytes(kGSize) {
    for (auto& b : bytes) {
      b = static_cast<uint8_t>(rng());
    }
    // Every eighth element (on average) a special: NaN, negative NaN, infinity, the largest
    // finite value, an exact tie with an even / odd kept bit, just above / below a tie.
    for (uint64_t a = 0; a + 4 <= kGSize; a += 4) {
      if (rng() % 8 != 0) {
        continue;
      }
      uint32_t u = rng();
      switch (rng() % 8) {
        case 0:
          u = 0x7F800000u | (1 + (u & 0x7FFFFE));
          break;
        case 1:
          u = 0xFF800000u | (1 + (u & 0x7FFFFE));
          break;
        case 2:
          u = 0x7F800000u;
          break;
        case 3:
          u = 0x7F7FFFFFu;
          break;
        case 4:
          u = (u & ~0x3FFFu) | 0x1000u;
          break;
        case 5:
          u = (u & ~0x3FFFu) | 0x3000u;
          break;
        case 6:
          u = (u & ~0x1FFFu) | 0x1001u;
          break;
        default:
          u = (u & ~0x1FFFu) | 0x0FFFu;
          break;
      }
      for (int i = 0; i < 4; ++i) {
        bytes[a + i] = static_cast<uint8_t>(u >> (8 * i));
      }
    }
  }
  uint8_t At(uint64_t ga) const { return bytes.at(ga - kGBase); }
};

// ---- The reference ----
enum class Bug { kNone, kFillSwapped, kNoTf32, kErrFromNextItem };

int64_t FloorDiv(int64_t a, int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

// The al_row_t entry of a row, from the field definitions in tma_pkg (x positions count bytes
// of the row's window from the DataBytes-aligned beat holding row byte 0: x = r + s).
AlRow Fork(const Row& r, int db) {
  AlRow a;
  const int s = static_cast<int>(r.smem_addr % db);
  a.has_data = r.has_data;
  a.last = r.last;
  a.has_read = r.HasRead();
  a.beat = (r.smem_addr >> 4) & 0xFFFFFFF;
  a.xh16 = static_cast<uint32_t>((r.head + s) / 16) & 0xFF;
  a.xd1 = static_cast<uint32_t>(r.dend + s - 1) & 0xFFF;
  a.xl1 = static_cast<uint32_t>(r.len + s - 1) & 0xFFF;
  a.s16 = static_cast<uint32_t>(s / 16);
  const int64_t e = static_cast<int64_t>(r.gaddr) - r.head - s;  // global address of x = 0
  a.rot16 = static_cast<uint32_t>(((e % db) + db) % db / 16);
  a.h_at0 = (r.head + s) / db == 0;
  a.d_at0 = ((r.dend + s - 1) & 0xFFF) / db == 0;
  a.l_at0 = (r.len + s - 1) / db == 0;
  if (a.has_read) {
    // Output beat k's lower global beat is the one holding its lane 0; lo_ok: a lane of the
    // first in-bounds beat comes from it; hi_ok: a lane of the last one comes from the next.
    const int kh = (r.head + s) / db, kd = (r.dend - 1 + s) / db;
    auto gbeat = [&](int x) { return FloorDiv(e + x, db); };
    for (int x = r.head + s; x < r.dend + s; ++x) {
      if (x / db == kh && gbeat(x) == gbeat(kh * db)) {
        a.lo_ok = true;
      }
      if (x / db == kd && gbeat(x) == gbeat(kd * db) + 1) {
        a.hi_ok = true;
      }
    }
  }
  a.fill_nan = r.fill_nan;
  a.tf32 = r.tf32;
  a.swz = static_cast<uint32_t>(r.swz);
  a.cta_mask = r.cta_mask;
  return a;
}

// The global beats a row reads (their addresses), in order.
std::vector<uint64_t> BeatAddrs(const Row& r, int db) {
  std::vector<uint64_t> v;
  if (!r.HasRead()) {
    return v;
  }
  const uint64_t first = r.gaddr / db * db;
  const uint64_t end = r.gaddr + static_cast<uint64_t>(r.dend - r.head);
  for (uint64_t a = first; a < end; a += db) {
    v.push_back(a);
  }
  return v;
}

int Lane(uint32_t addr, int swz, int db) {
  const uint32_t x = model::SwizzleAddress(addr, static_cast<model::Swizzle>(swz)) ^ addr;
  return static_cast<int>((x >> 3) & ((db - 1) >> 3) & 0xF);
}

// The items of one row, and for each the global beat addresses whose bytes it uses.
struct RefItem {
  Item item;
  std::set<uint64_t> uses;
  bool two_beats_first = false;  // the row's first in-bounds beat (needs a preload if true)
};

std::vector<RefItem> RowItems(const Row& r, const GlobalMem& g, int db, Bug bug) {
  std::vector<RefItem> out;
  if (!r.has_data) {
    RefItem ri;
    ri.item.last = r.last;
    ri.item.cta_mask = r.cta_mask;
    ri.item.strb.assign(db, 0);
    out.push_back(ri);
    return out;
  }
  const int s = static_cast<int>(r.smem_addr % db);
  const int beats = (s + r.len + db - 1) / db;
  bool first_inb = true;
  for (int k = 0; k < beats; ++k) {
    RefItem ri;
    Item& it = ri.item;
    it.wr = true;
    it.addr = r.smem_addr - s + static_cast<uint32_t>(k * db);
    it.data.assign(db, 0);
    it.strb.assign(db, 0);
    it.swz = r.swz;
    it.lane = Lane(it.addr, r.swz, db);
    it.last = r.last && k == beats - 1;
    it.cta_mask = r.cta_mask;
    for (int j = 0; j < db; ++j) {
      const int b = k * db + j - s;
      if (b < 0 || b >= r.len) {
        continue;
      }
      it.strb[j] = 1;
      if (r.HasRead() && b >= r.head && b < r.dend) {
        const uint64_t ga = r.gaddr + static_cast<uint64_t>(b - r.head);
        it.data[j] = g.At(ga);
        ri.uses.insert(ga / db * db);
      } else if (r.fill_nan) {
        const bool odd = (bug == Bug::kFillSwapped) ? (j % 2 == 0) : (j % 2 == 1);
        it.data[j] = odd ? 0x7F : 0xF7;
      }
    }
    if (r.tf32 && bug != Bug::kNoTf32) {
      for (int j = 0; j < db; j += 4) {
        const int b = k * db + j - s;
        if (r.HasRead() && b >= r.head && b + 4 <= r.dend) {
          uint32_t u = 0;
          for (int i = 0; i < 4; ++i) {
            u |= static_cast<uint32_t>(it.data[j + i]) << (8 * i);
          }
          u = model::RoundToTf32(u);
          for (int i = 0; i < 4; ++i) {
            it.data[j + i] = static_cast<uint8_t>(u >> (8 * i));
          }
        }
      }
    }
    if (!ri.uses.empty() && first_inb) {
      ri.two_beats_first = ri.uses.size() == 2;
      first_inb = false;
    }
    out.push_back(ri);
  }
  return out;
}

// A command: its rows, which of its global beats (in order) carry an error response.
struct Command {
  std::vector<Row> rows;
  std::set<int> err_beats;  // indices into the command's beats
};

struct Expected {
  std::vector<AlRow> al_rows;
  std::vector<Beat> beats;
  std::vector<Item> items;
  int preloads = 0;
  int err_commands = 0;
};

Expected Reference(const std::vector<Command>& cmds, const GlobalMem& g, int db,
                   Bug bug = Bug::kNone) {
  Expected ex;
  for (const Command& c : cmds) {
    // The command's read beats in order; rows may read the same address, each read is a beat
    // of its own, so an error belongs to one read of one row.
    std::set<int> bad;
    int n = 0;
    for (const Row& r : c.rows) {
      ex.al_rows.push_back(Fork(r, db));
      for (uint64_t a : BeatAddrs(r, db)) {
        Beat b;
        for (int j = 0; j < db; ++j) {
          b.data.push_back(g.At(a + j));
        }
        b.err = c.err_beats.count(n) != 0;
        if (b.err) {
          bad.insert(n);
        }
        ++n;
        ex.beats.push_back(b);
      }
    }
    ex.err_commands += !bad.empty();
    bool failed = false;
    int row_first = 0;  // the command's index of the row's first read beat
    for (const Row& r : c.rows) {
      const std::vector<uint64_t> addrs = BeatAddrs(r, db);
      for (RefItem& ri : RowItems(r, g, db, bug)) {
        bool uses_bad = false;
        for (uint64_t a : ri.uses) {
          const int i = row_first + static_cast<int>((a - addrs.front()) / db);
          uses_bad = uses_bad || bad.count(i) != 0;
        }
        const bool was_failed = failed;
        failed = failed || uses_bad;
        if (bug == Bug::kErrFromNextItem ? was_failed : failed) {
          ri.item.wr = false;
          ri.item.strb.assign(db, 0);
        }
        ri.item.err = ri.item.last && !bad.empty();
        ex.preloads += ri.two_beats_first;
        ex.items.push_back(ri.item);
      }
      row_first += static_cast<int>(addrs.size());
    }
  }
  return ex;
}

std::string Hex(const std::vector<uint8_t>& v) {
  static const char* kDigits = "0123456789abcdef";
  std::string s;
  for (size_t i = v.size(); i-- > 0;) {
    s += kDigits[v[i] >> 4];
    s += kDigits[v[i] & 15];
    if (i % 4 == 0 && i != 0)
      s += '_';
  }
  return s;
}

std::string Str(const Item& it) {
  return "wr " + std::to_string(it.wr) + " addr " + std::to_string(it.addr) + " swz " +
         std::to_string(it.swz) + " lane " + std::to_string(it.lane) + " last " +
         std::to_string(it.last) + " err " + std::to_string(it.err) + " cta " +
         std::to_string(it.cta_mask) + "\n   strb " + Hex(it.strb) + "\n   data " + Hex(it.data);
}

// What the contract fixes of an item: everything of a write; of a no-write item its strobes,
// last and CTA mask; the error flag of a command's last item.
bool Matches(const Item& got, const Item& want) {
  if (got.wr != want.wr || got.last != want.last || got.cta_mask != want.cta_mask ||
      got.strb != want.strb) {
    return false;
  }
  if (want.last && got.err != want.err) {
    return false;
  }
  if (!want.wr) {
    return true;
  }
  if (got.addr != want.addr || got.swz != want.swz || got.lane != want.lane) {
    return false;
  }
  for (size_t j = 0; j < want.data.size(); ++j) {
    if (want.strb[j] && got.data[j] != want.data[j]) {
      return false;
    }
  }
  return true;
}

// ---- The reference against hand-derived vectors ----

// DataBytes 32, global byte at address a = a mod 256 (a plain memory for this test).
// Row: smem_addr 0x2010 (s = 16), L = 48, in-bounds [16, 40), gaddr 0x41010 (row byte 16).
//   al_row_t: xh16 = (16 + 16) / 16 = 2, xd1 = 40 + 16 - 1 = 55, xl1 = 48 + 16 - 1 = 63,
//   s16 = 1, rot16 = ((0x41010 - 16 - 16) mod 32) / 16 = 1; beats 0 / 1 / 1 hold the first
//   in-bounds, last in-bounds and last positions (h_at0 = d_at0 = l_at0 = 0). Output beat 1
//   (x 32..63) holds in-bounds row bytes 16..39 = global 0x41010..0x41027: lanes 0..15 from
//   global beat 0x41000 (its lower beat), 16..23 from 0x41020: lo_ok = hi_ok = 1, and that beat
//   is both first and last in-bounds: a preload. Global beats read: 0x41000 and 0x41020.
//   Beat 0 (address 0x2000): lanes 16..31 = row bytes 0..15, fill 0x7FF7 (NaN fill).
//   Beat 1 (address 0x2020): lanes 0..23 = global bytes 0x10..0x27, lanes 24..31 fill.
TEST(RowAlignerReference, HandVectorDb32) {
  std::mt19937 rng(1);
  GlobalMem g(rng);
  for (uint64_t a = 0; a < kGSize; ++a) {
    g.bytes[a] = static_cast<uint8_t>(a);  // kGBase is a multiple of 256
  }
  Row r;
  r.smem_addr = 0x2010;
  r.len = 48;
  r.head = 16;
  r.dend = 40;
  r.gaddr = 0x41010;
  r.fill_nan = true;
  r.last = true;
  r.cta_mask = 0x5;
  const AlRow a = Fork(r, 32);
  EXPECT_EQ(a.xh16, 2u);
  EXPECT_EQ(a.xd1, 55u);
  EXPECT_EQ(a.xl1, 63u);
  EXPECT_EQ(a.s16, 1u);
  EXPECT_EQ(a.rot16, 1u);
  EXPECT_TRUE(a.lo_ok && a.hi_ok && a.has_read);
  EXPECT_FALSE(a.h_at0 || a.d_at0 || a.l_at0);
  EXPECT_EQ(a.beat, 0x201u);
  EXPECT_EQ(BeatAddrs(r, 32), (std::vector<uint64_t>{0x41000, 0x41020}));

  const Expected ex = Reference({Command{{r}, {}}}, g, 32);
  ASSERT_EQ(ex.items.size(), 2u);
  EXPECT_EQ(ex.preloads, 1);
  std::vector<uint8_t> d0(32, 0), s0(32, 0), d1(32, 0), s1(32, 1);
  for (int j = 16; j < 32; ++j) {
    d0[j] = j % 2 ? 0x7F : 0xF7;
    s0[j] = 1;
  }
  for (int j = 0; j < 32; ++j) {
    d1[j] = j < 24 ? static_cast<uint8_t>(0x10 + j) : (j % 2 ? 0x7F : 0xF7);
  }
  EXPECT_EQ(ex.items[0].addr, 0x2000u);
  EXPECT_EQ(ex.items[0].data, d0);
  EXPECT_EQ(ex.items[0].strb, s0);
  EXPECT_FALSE(ex.items[0].last);
  EXPECT_EQ(ex.items[1].addr, 0x2020u);
  EXPECT_EQ(ex.items[1].data, d1);
  EXPECT_EQ(ex.items[1].strb, s1);
  EXPECT_TRUE(ex.items[1].last);
  EXPECT_FALSE(ex.items[1].err);

  // An error on the second global beat: beat 1 of the row is the first item using it.
  const Expected ee = Reference({Command{{r}, {1}}}, g, 32);
  EXPECT_TRUE(ee.items[0].wr);
  EXPECT_FALSE(ee.items[1].wr);
  EXPECT_EQ(ee.items[1].strb, std::vector<uint8_t>(32, 0));
  EXPECT_TRUE(ee.items[1].err);
}

// tf32 (D3): 0x3F801000 is a tie with an even kept bit (rounds down to 0x3F800000),
// 0x3F803000 a tie with an odd one (up to 0x3F804000), a NaN becomes 0x7FFFE000; the fill of
// a tf32 row stays 0x7FF77FF7. DataBytes 16, s = 0, L = 16, in-bounds [0, 12).
TEST(RowAlignerReference, HandVectorTf32) {
  std::mt19937 rng(2);
  GlobalMem g(rng);
  const uint32_t words[3] = {0x3F801000u, 0x3F803000u, 0xFFC00001u};
  for (int w = 0; w < 3; ++w) {
    for (int i = 0; i < 4; ++i) {
      g.bytes[0x100 + 4 * w + i] = static_cast<uint8_t>(words[w] >> (8 * i));
    }
  }
  Row r;
  r.smem_addr = 0x400;
  r.len = 16;
  r.head = 0;
  r.dend = 12;
  r.gaddr = kGBase + 0x100;
  r.tf32 = true;
  r.fill_nan = true;
  r.last = true;
  const Expected ex = Reference({Command{{r}, {}}}, g, 16);
  ASSERT_EQ(ex.items.size(), 1u);
  const std::vector<uint8_t> want = {0x00, 0x00, 0x80, 0x3F, 0x00, 0x40, 0x80, 0x3F,
                                     0x00, 0xE0, 0xFF, 0x7F, 0xF7, 0x7F, 0xF7, 0x7F};
  EXPECT_EQ(ex.items[0].data, want);
}

// ---- The RTL against the reference ----

struct Knobs {
  int row_valid_pct = 100;
  int beat_valid_pct = 100;
  int out_ready_pct = 100;
  int err_pct = 0;  // chance a command gets one error beat
  int rows = 1500;
  bool directed = true;
  bool tf32 = true;  // tf32 rows allowed (the throughput run mixes them too)
  Bug bug = Bug::kNone;
};

struct Outcome {
  int rows = 0;
  int items = 0;
  int out = 0;
  int mismatches = 0;
  int preloads = 0;
  int err_commands = 0;
  int first_out = -1;
  int last_out = -1;
  bool done = false;
  bool sva_error = false;
  std::string first_mismatch;
};

Row RandomRow(std::mt19937& rng, int db, const Knobs& k) {
  auto rnd = [&](uint32_t n) { return static_cast<int>(rng() % n); };
  Row r;
  r.has_data = rnd(10) != 0;
  r.smem_addr = 16u * static_cast<uint32_t>(rnd(0x1000));
  r.len = rnd(6) == 0 ? 16 * (1 + rnd(128)) : 16 * (1 + rnd(std::max(2, 5 * db / 16)));
  const int shape = rnd(6);
  const int l16 = r.len / 16;
  switch (shape) {
    case 0:
      r.head = 0;
      r.dend = r.len;
      break;  // whole row in bounds
    case 1:
      r.head = 0;
      r.dend = 0;
      break;  // out of bounds: fill only
    case 2:
      r.head = 16 * rnd(l16);
      r.dend = r.len;
      break;
    case 3:
      r.head = 0;
      r.dend = 1 + rnd(r.len);
      break;
    default: {
      r.head = 16 * rnd(l16);
      r.dend = r.head + 1 + rnd(r.len - r.head);
      break;
    }
  }
  r.tf32 = k.tf32 && rnd(4) == 0;
  if (r.tf32) {
    r.dend = (r.dend + 3) / 4 * 4;
  }
  if (r.dend <= r.head) {
    r.head = r.dend = 0;
  }
  r.gaddr = kGBase + 0x4000 + 16 * static_cast<uint64_t>(rnd(0x1000));
  r.fill_nan = rnd(2) == 0;
  r.swz = rnd(8);
  r.cta_mask = 1 + rnd(0xFFFF);
  if (!r.has_data) {
    r.head = r.dend = 0;
  }
  return r;
}

// Every s x gaddr % db (multiples of 16) x length x in-bounds shape.
std::vector<Row> DirectedRows(std::mt19937& rng, int db) {
  std::vector<Row> rows;
  std::set<int> lens = {16, 32, db, db + 16, 2 * db + 48, 4 * db - 16};
  for (int s = 0; s < db; s += 16) {
    for (int go = 0; go < db; go += 16) {
      for (int len : lens) {
        const std::pair<int, int> shapes[] = {{0, len},       {0, 0}, {16, len},      {0, len - 3},
                                              {16, len - 11}, {0, 1}, {len - 16, len}};
        for (auto [head, dend] : shapes) {
          if (!(head < dend && dend <= len) && !(head == 0 && dend == 0)) {
            continue;
          }
          Row r;
          r.smem_addr = 16u * static_cast<uint32_t>(rng() % 0x1000) / db * db + s;
          r.len = len;
          r.head = head;
          r.dend = dend;
          r.gaddr = kGBase + 0x4000 + 16 * (rng() % 0x1000) / db * db + go;
          r.tf32 = dend % 4 == 0 && rng() % 2 == 0;
          r.fill_nan = rng() % 2 == 0;
          r.swz = static_cast<int>(rng() % 8);
          r.cta_mask = 1 + rng() % 0xFFFF;
          rows.push_back(r);
        }
      }
    }
  }
  return rows;
}

template <class Model, int kDb>
Outcome RunBench(uint32_t seed, const Knobs& k) {
  VerilatedDut<Model> dut(seed);
  AlignerPorts<Model> io{dut.operator->(), kDb};
  std::mt19937 rng(seed);
  GlobalMem g(rng);
  std::vector<Row> rows;
  if (k.directed) {
    rows = DirectedRows(rng, kDb);
  }
  while (static_cast<int>(rows.size()) < k.rows) {
    rows.push_back(RandomRow(rng, kDb, k));
  }
  // Commands of 1..6 rows; each command's rows share its CTA mask.
  std::vector<Command> cmds;
  for (size_t i = 0; i < rows.size();) {
    Command c;
    const size_t n = std::min(rows.size() - i, static_cast<size_t>(1 + rng() % 6));
    for (size_t j = 0; j < n; ++j) {
      Row r = rows[i + j];
      r.cta_mask = rows[i].cta_mask;
      r.last = j + 1 == n;
      c.rows.push_back(r);
    }
    i += n;
    int beats = 0;
    for (const Row& r : c.rows) {
      beats += static_cast<int>(BeatAddrs(r, kDb).size());
    }
    if (beats > 0 && static_cast<int>(rng() % 100) < k.err_pct) {
      c.err_beats.insert(static_cast<int>(rng() % beats));
      if (rng() % 4 == 0) {
        c.err_beats.insert(static_cast<int>(rng() % beats));
      }
    }
    cmds.push_back(c);
  }
  const Expected ex = Reference(cmds, g, kDb, k.bug);
  std::deque<AlRow> row_q(ex.al_rows.begin(), ex.al_rows.end());
  std::deque<Beat> beat_q(ex.beats.begin(), ex.beats.end());
  std::deque<Item> want_q(ex.items.begin(), ex.items.end());
  Outcome res;
  res.rows = static_cast<int>(rows.size());
  res.items = static_cast<int>(ex.items.size());
  res.preloads = ex.preloads;
  res.err_commands = ex.err_commands;

  // Nothing offered during reset (the inputs start at random values).
  io.DriveRow(false, AlRow{});
  io.DriveBeat(false, Beat{});
  io.DriveOutReady(false);
  dut.Reset();
  bool row_shown = false, beat_shown = false;
  const int max_cycles = 20 * static_cast<int>(want_q.size() + beat_q.size()) + 1000;
  for (int cycle = 0; cycle < max_cycles; ++cycle) {
    // Offered items stay offered, unchanged, until taken (stream contract).
    row_shown = !row_q.empty() && (row_shown || static_cast<int>(rng() % 100) < k.row_valid_pct);
    beat_shown =
        !beat_q.empty() && (beat_shown || static_cast<int>(rng() % 100) < k.beat_valid_pct);
    io.DriveRow(row_shown, row_q.empty() ? AlRow{} : row_q.front());
    io.DriveBeat(beat_shown, beat_q.empty() ? Beat{} : beat_q.front());
    io.DriveOutReady(static_cast<int>(rng() % 100) < k.out_ready_pct);
    dut.Settle();
    if (row_shown && io.RowReady()) {
      row_q.pop_front();
      row_shown = false;
    }
    if (beat_shown && io.BeatReady()) {
      beat_q.pop_front();
      beat_shown = false;
    }
    if (io.OutValid() && io.OutReady()) {
      const Item got = io.ReadOut();
      if (want_q.empty()) {
        ++res.mismatches;
        if (res.first_mismatch.empty())
          res.first_mismatch = "extra item\n got  " + Str(got);
      } else {
        if (!Matches(got, want_q.front())) {
          ++res.mismatches;
          if (res.first_mismatch.empty()) {
            res.first_mismatch = "item " + std::to_string(res.out) + "\n got  " + Str(got) +
                                 "\n want " + Str(want_q.front());
          }
        }
        want_q.pop_front();
      }
      ++res.out;
      if (res.first_out < 0)
        res.first_out = cycle;
      res.last_out = cycle;
    }
    dut.Cycle();
    if (want_q.empty() && row_q.empty() && beat_q.empty()) {
      for (int i = 0; i < 8; ++i) {  // nothing else may come out
        io.DriveRow(false, AlRow{});
        io.DriveBeat(false, Beat{});
        io.DriveOutReady(true);
        dut.Settle();
        if (io.OutValid()) {
          ++res.mismatches;
          if (res.first_mismatch.empty())
            res.first_mismatch = "extra item at the end";
        }
        dut.Cycle();
      }
      dut.Settle();
      res.done = !io.Busy();
      break;
    }
  }
  res.sva_error = dut.GotError();
  return res;
}

template <class Model, int kDb>
void CheckSweep(uint32_t seed) {
  // Full speed; idle rows; idle beats; heavy backpressure; everything random. Errors in all.
  const Knobs presets[] = {
      {100, 100, 100, 10}, {30, 100, 90, 10}, {100, 25, 100, 10},
      {90, 90, 20, 10},    {50, 60, 50, 20},
  };
  int n = 0;
  for (const Knobs& k : presets) {
    SCOPED_TRACE("preset " + std::to_string(n));
    const Outcome o = RunBench<Model, kDb>(seed + 7919 * n++, k);
    EXPECT_TRUE(o.done) << "did not drain (" << o.out << " of " << o.items << " items)";
    EXPECT_EQ(o.mismatches, 0) << o.first_mismatch;
    EXPECT_FALSE(o.sva_error) << "an RTL assertion fired";
    EXPECT_GT(o.err_commands, 10) << "the error path is barely exercised";
    if (kDb > 16) {
      EXPECT_GT(o.preloads, 10) << "the preload path is barely exercised";
    }
  }
}

// With rows and beats always offered and the output always ready: one item per cycle, plus one
// cycle per row whose first in-bounds beat needs two global beats (docs/rtl.md).
template <class Model, int kDb>
void CheckThroughput(uint32_t seed) {
  Knobs k;
  k.rows = 2000;
  const Outcome o = RunBench<Model, kDb>(seed, k);
  ASSERT_TRUE(o.done);
  EXPECT_EQ(o.mismatches, 0) << o.first_mismatch;
  EXPECT_EQ(o.last_out - o.first_out + 1, o.items + o.preloads);
  EXPECT_FALSE(o.sva_error);
}

TEST(RowAligner, SweepDb16) {
  CheckSweep<Vtma_row_aligner_db16, 16>(16);
}
TEST(RowAligner, SweepDb32) {
  CheckSweep<Vtma_row_aligner_db32, 32>(32);
}
TEST(RowAligner, SweepDb64) {
  CheckSweep<Vtma_row_aligner_db64, 64>(64);
}
TEST(RowAligner, SweepDb128) {
  CheckSweep<Vtma_row_aligner_db128, 128>(128);
}
TEST(RowAligner, ThroughputDb16) {
  CheckThroughput<Vtma_row_aligner_db16, 16>(161);
}
TEST(RowAligner, ThroughputDb64) {
  CheckThroughput<Vtma_row_aligner_db64, 64>(641);
}
TEST(RowAligner, ThroughputDb128) {
  CheckThroughput<Vtma_row_aligner_db128, 128>(1281);
}

// The comparison can fail: each deliberately wrong reference must disagree with the RTL.
TEST(RowAligner, WrongReferencesAreCaught) {
  for (Bug bug : {Bug::kFillSwapped, Bug::kNoTf32, Bug::kErrFromNextItem}) {
    Knobs k;
    k.rows = 400;
    k.err_pct = 50;
    k.bug = bug;
    const Outcome o = RunBench<Vtma_row_aligner_db32, 32>(9, k);
    EXPECT_GT(o.mismatches, 0) << "bug " << static_cast<int>(bug);
  }
}

// ---- The fork's row entry (tma_row_fork) against the same field definitions ----
// The aligner's rows above come from Fork(); here tma_row_fork computes them from the
// walker's row: every field must equal Fork()'s (lo_ok / hi_ok where the row reads). Random
// rows cover every 16-byte group of the shared address, the global address and the head, so
// every rotation of the width occurs; rotation 0 at DataBytes 128 (eight groups) is where
// the first in-bounds beat's lower-beat flag once came out 0.
template <class M>
int ForkEntries(int db, uint32_t seed, int nrows) {
  std::mt19937 rng(seed);
  VerilatedDut<M> dut(seed);
  dut->row_valid_i = 0;
  dut->al_row_ready_i = 1;
  dut->rd_req_ready_i = 1;
  dut->up_row_ready_i = 1;
  dut->info_ready_i = 1;
  dut.Reset();
  std::deque<Row> sent;
  int next = 0, checked = 0, mismatches = 0, rot0_reads = 0;
  Row cur;
  bool have = false;
  for (int cyc = 0; cyc < 20 * nrows && checked < nrows; ++cyc) {
    if (!have && next < nrows) {
      cur = Row{};
      cur.has_data = rng() % 8 != 0;
      cur.last = true;
      cur.len = 16 * static_cast<int>(1 + rng() % 24);
      cur.head = 16 * static_cast<int>(rng() % (cur.len / 16));
      cur.dend = cur.head + static_cast<int>(rng() % (cur.len - cur.head + 1));
      cur.smem_addr = 16 * (rng() % 4096);
      cur.gaddr = 0x100000 + 16 * (rng() % 65536);
      cur.fill_nan = rng() % 2;
      cur.swz = static_cast<int>(rng() % 4);
      cur.cta_mask = 1 + rng() % 0xFFFF;
      have = true;
    }
    dut->row_valid_i = have;
    if (have) {
      tma::pkg::row_t w;
      w.has_data = cur.has_data;
      w.last = cur.last;
      w.gaddr = cur.gaddr;
      w.smem_addr = cur.smem_addr;
      w.row_bytes = static_cast<uint16_t>(cur.len);
      w.head = static_cast<uint16_t>(cur.head);
      w.dend = static_cast<uint16_t>(cur.dend);
      w.fill_nan = cur.fill_nan;
      w.swz = static_cast<uint8_t>(cur.swz);
      w.cpl.cta_mask = static_cast<uint16_t>(cur.cta_mask);
      tma::pkg::Pack(w, dut->row_i.data());
    }
    dut.Settle();
    if (dut->al_row_valid_o) {
      const auto a = tma::pkg::Unpack<tma::pkg::al_row_t>(dut->al_row_o.data());
      if (sent.empty()) {
        ++mismatches;
      } else {
        const AlRow e = Fork(sent.front(), db);
        const bool rd = e.has_read;
        const bool ok = a.has_data == e.has_data && a.last == e.last && a.has_read == e.has_read &&
                        a.beat == e.beat && a.xh16 == e.xh16 && a.xd1 == e.xd1 && a.xl1 == e.xl1 &&
                        a.s16 == e.s16 && a.rot16 == e.rot16 && a.h_at0 == e.h_at0 &&
                        a.d_at0 == e.d_at0 && a.l_at0 == e.l_at0 && a.fill_nan == e.fill_nan &&
                        a.swz == e.swz && a.cta_mask == e.cta_mask &&
                        (!rd || (a.lo_ok == e.lo_ok && a.hi_ok == e.hi_ok));
        if (!ok && mismatches < 3) {
          ADD_FAILURE() << "DataBytes " << db << " row " << checked << ": smem 0x" << std::hex
                        << sent.front().smem_addr << " gaddr 0x" << sent.front().gaddr << std::dec
                        << " len " << sent.front().len << " [" << sent.front().head << ","
                        << sent.front().dend << ") rot16 " << int(a.rot16) << "/" << e.rot16
                        << " lo_ok " << a.lo_ok << "/" << e.lo_ok << " hi_ok " << a.hi_ok << "/"
                        << e.hi_ok;
        }
        mismatches += !ok;
        rot0_reads += rd && e.rot16 == 0;
        sent.pop_front();
        ++checked;
      }
    }
    const bool take = have && dut->row_ready_o;
    dut.Cycle();
    if (take) {
      sent.push_back(cur);
      have = false;
      ++next;
    }
  }
  EXPECT_EQ(checked, nrows) << "DataBytes " << db;
  EXPECT_GT(rot0_reads, 0) << "DataBytes " << db << ": no reading row of rotation 0";
  EXPECT_FALSE(dut.GotError());
  return mismatches;
}

TEST(RowFork, EntryMatchesFieldDefinitions) {
  EXPECT_EQ(ForkEntries<Vtma_row_fork_db16>(16, 21, 3000), 0);
  EXPECT_EQ(ForkEntries<Vtma_row_fork_db32>(32, 22, 3000), 0);
  EXPECT_EQ(ForkEntries<Vtma_row_fork_db64>(64, 23, 3000), 0);
  EXPECT_EQ(ForkEntries<Vtma_row_fork_db128>(128, 24, 3000), 0);
}

}  // namespace
}  // namespace tma::tb
