// SPDX-License-Identifier: Apache-2.0
//
// Unit test of tma_frontend (Verilated C++), the engine's frontend as a whole:
//  - Equivalence with tma_cmd_ctrl_ref (a single-cycle controller kept as an oracle: it passed
//    every golden case and the random bench against the C++ model): random maps (valid ones
//    and ones with broken codes, reserved bits, derived fields, alignments, size rules) and
//    random commands (every error class, prefetch, multicast, im2col, interleave, large and
//    negative coordinates), map rewrites with and without desc_inval_i (also during a fetch),
//    random AXI and job back-pressure and bus errors, at DataBytes 16 and 64 (maps not aligned
//    to a beat). Both must issue the same descriptor reads and the same jobs (a marker job:
//    the same completion) in the same order.
//  - A hand-derived 2-D tile job, and the cycles from command accept to job valid.
// The reciprocal table of the size check is tested with the check block
// (tests/rtl/frontend/desc_check_test.cc, DescCheck.ReciprocalTableIsExact).

#include <cstdint>
#include <cstdio>
#include <deque>
#include <map>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "Vtma_cmd_ctrl_ref_db16.h"
#include "Vtma_cmd_ctrl_ref_db64.h"
#include "Vtma_frontend_db16.h"
#include "Vtma_frontend_db64.h"
#include "sim/autogen/tma_structs.h"
#include "verilated_dut.h"

namespace tma::tb {
namespace {

// The controller's ports carry the package structs (sim/autogen/tma_structs.h).
using Job = pkg::job_t;
static_assert(sizeof(Vtma_frontend_db16::cmd_i) == 4 * pkg::cmd_t::kWords);
static_assert(sizeof(Vtma_frontend_db16::job_o) == 4 * Job::kWords);

// ---- Descriptors (docs/descriptor.md) ----
struct MapDesc {
  uint8_t b[128];
};

void SetDescBits(MapDesc* d, int pos, int width, uint64_t v) {
  for (int i = 0; i < width; ++i) {
    const int b = pos + i;
    const uint8_t bit = static_cast<uint8_t>((v >> i) & 1u);
    d->b[b / 8] = static_cast<uint8_t>((d->b[b / 8] & ~(1u << (b % 8))) | (bit << (b % 8)));
  }
}

// log2 of the element's shared-memory bytes (hw_type: the format code, tma_pkg::Dt*); the
// sub-byte types count 1 byte (b4x16 stores two per byte: the byte sizes are halved).
int ElemLog2(int hw_type) {
  switch (hw_type) {
    case pkg::DtU8:
    case pkg::DtB4x16:
    case pkg::DtB4x16P64:
    case pkg::DtB6x16P32:
      return 0;
    case pkg::DtU16:
    case pkg::DtF16:
    case pkg::DtBF16:
      return 1;
    case pkg::DtU32:
    case pkg::DtS32:
    case pkg::DtF32:
    case pkg::DtF32Ftz:
      return 2;
    default:
      return 3;
  }
}

struct MapParams {
  bool im2col = false;
  int rank = 2;
  int type = pkg::DtU16;  // the format code (tma_pkg::Dt*)
  int il = 0;
  int span = 0;
  int atom = 0;
  bool b96 = false;
  bool fill = false;
  bool tf32 = false;
  uint64_t addr = 0x10000;
  uint64_t stride[4] = {};  // bytes
  uint64_t dim[5] = {1, 1, 1, 1, 1};
  int es[5] = {1, 1, 1, 1, 1};
  int box[5] = {1, 1, 1, 1, 1};  // im2col: box[0] = channels per pixel
  int lower[3] = {}, upper[3] = {};
  int ppc = 1;
  int64_t boxbytes_delta = 0;  // added to the correct box bytes
  int swzrep_override = -1;
};

MapDesc Encode(const MapParams& p) {
  MapDesc d{};
  SetDescBits(&d, pkg::DescAddressLsb, pkg::DescAddressW, p.addr);
  SetDescBits(&d, pkg::DescModeLsb, pkg::DescModeW, p.im2col);
  SetDescBits(&d, pkg::DescRankLsb, pkg::DescRankW, static_cast<uint64_t>(p.rank - 1));
  SetDescBits(&d, pkg::DescTypeLsb, pkg::DescTypeW, static_cast<uint64_t>(p.type));
  SetDescBits(&d, pkg::DescInterleaveLsb, pkg::DescInterleaveW, static_cast<uint64_t>(p.il));
  SetDescBits(&d, pkg::DescSwizzleSpanLsb, pkg::DescSwizzleSpanW, static_cast<uint64_t>(p.span));
  SetDescBits(&d, pkg::DescOobFillLsb, pkg::DescOobFillW, p.fill);
  SetDescBits(&d, pkg::DescTf32Lsb, pkg::DescTf32W, p.tf32);
  SetDescBits(&d, pkg::DescSwizzleAtomLsb, pkg::DescSwizzleAtomW, static_cast<uint64_t>(p.atom));
  SetDescBits(&d, pkg::DescSwizzle96BLsb, pkg::DescSwizzle96BW, p.b96);
  for (int i = 0; i < 4; ++i) {
    SetDescBits(&d, pkg::DescStrideLoLsb + pkg::DescStrideLoW * i, pkg::DescStrideLoW,
                (p.stride[i] >> pkg::DescStrideShift) & 0xFFFFFFFFu);
    SetDescBits(&d, pkg::DescStrideHiLsb + pkg::DescStrideHiW * i, pkg::DescStrideHiW,
                p.stride[i] >> (pkg::DescStrideShift + 32));
  }
  for (int i = 0; i < 5; ++i) {
    SetDescBits(&d, pkg::DescDimLsb + pkg::DescDimW * i, pkg::DescDimW, p.dim[i] - 1);
    SetDescBits(&d, pkg::DescElemStrideLsb + pkg::DescElemStrideW * i, pkg::DescElemStrideW,
                static_cast<uint64_t>(p.es[i] - 1));
  }
  SetDescBits(&d, pkg::DescBox0Lsb, pkg::DescBox0W, static_cast<uint64_t>(p.box[0] - 1));
  const int e_log2 = ElemLog2(p.type);
  uint64_t bytes = 0;
  if (!p.im2col) {
    for (int i = 1; i < 5; ++i)
      SetDescBits(&d, pkg::DescBox1Lsb + pkg::DescBox1W * (i - 1), pkg::DescBox1W, p.box[i] - 1);
    bytes = 1ull << e_log2;
    for (int i = 0; i < p.rank && i < 5; ++i)
      bytes *= static_cast<uint64_t>(p.box[i] / p.es[i]);
  } else {
    const int w = p.rank == 3 ? pkg::DescCornerWRank3
                              : (p.rank == 4 ? pkg::DescCornerWRank4 : pkg::DescCornerWRank5);
    for (int k = 0; k < p.rank - 2 && k < 3; ++k) {
      SetDescBits(&d, pkg::DescLowerCornerLsb + w * k, w, static_cast<uint64_t>(p.lower[k]));
      SetDescBits(&d, pkg::DescUpperCornerLsb + w * k, w, static_cast<uint64_t>(p.upper[k]));
    }
    SetDescBits(&d, pkg::DescPixelsPerColumnLsb, pkg::DescPixelsPerColumnW,
                static_cast<uint64_t>(p.ppc - 1));
    bytes = static_cast<uint64_t>(p.box[0]) * p.ppc << e_log2;
  }
  if (p.type == pkg::DtB4x16)
    bytes = (bytes + 1) / 2;  // b4x16: nibbles, rounded up to bytes
  SetDescBits(&d, pkg::DescBoxBytesLsb, pkg::DescBoxBytesW,
              bytes + static_cast<uint64_t>(p.boxbytes_delta));
  uint32_t rep = pkg::SwzRepeatNone;
  if (p.b96)
    rep = pkg::SwzRepeat96B;
  else if (p.span == pkg::SwzSpan32B)
    rep = pkg::SwzRepeat32B;
  else if (p.span == pkg::SwzSpan64B)
    rep = pkg::SwzRepeat64B;
  else if (p.span == pkg::SwzSpan128B)
    rep = pkg::SwzRepeat128B;  // with or without an atomicity (docs/descriptor.md sec. 3)
  SetDescBits(&d, pkg::DescSwizzleRepeatLsb, pkg::DescSwizzleRepeatW,
              p.swzrep_override >= 0 ? static_cast<uint64_t>(p.swzrep_override) : rep);
  return d;
}

// ---- Commands (tma_pkg::cmd_t) ----
struct Cmd {
  int op = 0, mode = 0, redop = 0, dim = 2;
  uint64_t desc_addr = 0;
  int32_t coords[5] = {};
  uint16_t im2col[3] = {};
  uint32_t smem = 0, mbar = 0;
  bool multicast = false;
  uint16_t cta_mask = 0;
  int issuer = 0, dst = 0, cta_group = 0, tag = 0;
  // stimulus controls
  bool inval_before = false;  // pulse desc_inval_i before this command (all earlier done)
  bool inval_fetch = false;   // pulse it with the first descriptor beat of this command
  bool rewrite = false;       // the map at desc_addr changes before this command
  MapDesc map{};
  int hw_type = 0;  // type code of the map the command uses (bits 71..74)
};

int HwType(const MapDesc& d) {
  int v = 0;
  for (int i = 0; i < static_cast<int>(pkg::DescTypeW); ++i) {
    const int b = pkg::DescTypeLsb + i;
    v |= ((d.b[b / 8] >> (b % 8)) & 1) << i;
  }
  return v;
}

bool IsSubByteType(int hw_type) {
  return hw_type >= pkg::DtB4x16 && hw_type <= pkg::DtB6x16P32;
}

pkg::cmd_t ToPkg(const Cmd& c) {
  pkg::cmd_t p;
  p.op = static_cast<uint8_t>(c.op);
  p.mode = static_cast<uint8_t>(c.mode);
  p.redop = static_cast<uint8_t>(c.redop);
  p.dim = static_cast<uint8_t>(c.dim);
  p.desc_addr = c.desc_addr;
  for (int i = 0; i < 5; ++i)
    p.coords.v[i] = static_cast<uint32_t>(c.coords[i]);
  for (int k = 0; k < 3; ++k)
    p.im2col.v[k] = c.im2col[k];
  p.smem_addr = c.smem;
  p.mbar_addr = c.mbar;
  p.multicast = c.multicast;
  p.cta_mask = c.cta_mask;
  p.issuer = static_cast<uint8_t>(c.issuer);
  p.dst_cta = static_cast<uint8_t>(c.dst);
  p.cta_group = static_cast<uint8_t>(c.cta_group);
  p.tag = static_cast<uint8_t>(c.tag);
  return p;
}

struct Outcome {
  std::vector<Job> jobs;
  std::vector<uint64_t> ars;
  std::vector<int> latency;  // cycles from accept to job valid, per command
};

// The frontend's architecture and cluster-size settings (the reference controller has neither:
// it answers `unsupported` to the sm_100 modes and cta_group::2, knows no sub-byte type, and
// checks the CTAs against NumCtas).
template <class T>
auto SetArch(T* dut, uint8_t arch, int) -> decltype(dut->arch_i = arch, void()) {
  dut->arch_i = arch;
  dut->cluster_i = 0;  // a cluster of NumCtas CTAs
}
template <class T>
void SetArch(T*, uint8_t, long) {}

// Runs `cmds` through one model with random back-pressure and descriptor latency, the frontend
// at `arch` (tma::pkg::Arch*).
template <class M, int kDataBytes>
Outcome RunCmds(const std::vector<Cmd>& cmds, uint32_t seed, double p_rerr,
                double p_job_ready = 0.6, uint8_t arch = pkg::ArchSm103) {
  VerilatedDut<M> dut(seed);
  SetArch(dut.operator->(), arch, 0);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  Outcome out;
  std::map<uint64_t, MapDesc> mem;  // maps by 16-aligned address (128 bytes each)
  auto mem_byte = [&](uint64_t a) -> uint8_t {
    for (const auto& [base, m] : mem) {
      if (a >= base && a < base + 128)
        return m.b[a - base];
    }
    return static_cast<uint8_t>((a * 0x9E3779B1u) >> 24);  // junk
  };
  dut->cmd_valid_i = 0;
  dut->desc_inval_i = 0;
  dut->ar_ready_i = 0;
  dut->r_valid_i = 0;
  dut->r_err_i = 0;
  dut->job_ready_i = 0;
  dut.Reset();

  std::deque<std::pair<uint64_t, int>> rq;  // (beat address, cycle it may return)
  size_t next = 0;                          // next command to present
  size_t accepted = 0;
  int first_beat_of = -1;  // command whose fetch saw its first beat
  std::vector<int64_t> t_accept(cmds.size(), -1);
  int64_t cycle = 0;
  bool pulsed_before = false;
  while (out.jobs.size() < cmds.size() && cycle < 200000) {
    // Inputs for this cycle.
    bool inval = false;
    bool present = false;
    if (next < cmds.size()) {
      const Cmd& c = cmds[next];
      const bool drained = out.jobs.size() == next;
      if ((c.inval_before || c.rewrite) && !drained) {
        present = false;
      } else if (c.inval_before && !pulsed_before) {
        inval = true;
        pulsed_before = true;
      } else {
        if (c.rewrite)
          mem[c.desc_addr & ~uint64_t{15}] = c.map;
        present = true;
      }
    }
    dut->cmd_valid_i = present;
    if (present) {
      pkg::Pack(ToPkg(cmds[next]), dut->cmd_i.data());
    }
    dut->ar_ready_i = u01(rng) < 0.7;
    dut->job_ready_i = u01(rng) < p_job_ready;
    bool beat = false;
    if (!rq.empty() && rq.front().second <= cycle && u01(rng) < 0.8) {
      beat = true;
      const uint64_t a = rq.front().first;
      for (int byte = 0; byte < kDataBytes; ++byte) {
        const uint8_t v = mem_byte(a + static_cast<uint64_t>(byte));
        uint32_t& word = dut->r_data_i[byte / 4];
        const int sh = (byte % 4) * 8;
        word = (word & ~(0xFFu << sh)) | (static_cast<uint32_t>(v) << sh);
      }
      dut->r_err_i = u01(rng) < p_rerr;
      const int cur = static_cast<int>(accepted) - 1;
      if (cur >= 0 && cmds[cur].inval_fetch && first_beat_of != cur) {
        inval = true;
        first_beat_of = cur;
      }
      rq.pop_front();
    }
    dut->r_valid_i = beat;
    dut->desc_inval_i = inval;
    dut.Settle();
    // Handshakes at this edge.
    if (dut->cmd_valid_i && dut->cmd_ready_o) {
      t_accept[next] = cycle;
      ++next;
      ++accepted;
      pulsed_before = false;
    }
    if (dut->ar_valid_o && dut->ar_ready_i) {
      const uint64_t addr = pkg::Unpack<pkg::ar_t>(dut->ar_o.data()).addr;
      out.ars.push_back(addr);
      rq.emplace_back(addr, static_cast<int>(cycle) + 2 + static_cast<int>(rng() % 6));
    }
    if (dut->job_valid_o) {
      const size_t idx = out.jobs.size();
      if (out.latency.size() == idx) {
        out.latency.push_back(static_cast<int>(cycle - t_accept[idx]));
      }
      if (dut->job_ready_i) {
        out.jobs.push_back(pkg::Unpack<Job>(dut->job_o.data()));
      }
    }
    dut.Cycle();
    ++cycle;
  }
  EXPECT_FALSE(dut.GotError()) << "assertion failed";
  return out;
}

// Whether command i's map (the last one written at its address) has the im2col-wide bit: an
// sm_100 map the reference refuses (rule 21).
bool WideMap(const std::vector<Cmd>& cmds, size_t i) {
  size_t j = i;
  while (j > 0 && !(cmds[j].rewrite && cmds[j].desc_addr == cmds[i].desc_addr))
    --j;
  const int b = pkg::DescIm2colWideLsb;
  return ((cmds[j].map.b[b / 8] >> (b % 8)) & 1) != 0;
}

// Compares two job streams: a marker job by its completion, a data job in full. Commands on
// a sub-byte map are skipped (the reference predates the sub-byte types and answers
// `unsupported`; SubByteHandDerived checks them), and so are the sm_100 modes and
// .cta_group::2 (the reference answers `unsupported`; the frontend at sm_103 runs them: the
// golden hand cases and tests/vectors/forms check them through the engine), and the maps with
// the im2col-wide bit.
void ExpectSameJobs(const Outcome& dut, const Outcome& ref, const std::vector<Cmd>& cmds) {
  ASSERT_EQ(dut.jobs.size(), ref.jobs.size());
  EXPECT_EQ(dut.ars, ref.ars) << "descriptor reads differ";
  int shown = 0;
  for (size_t i = 0; i < ref.jobs.size(); ++i) {
    if (IsSubByteType(cmds[i].hw_type) || WideMap(cmds, i) ||
        (cmds[i].mode >= pkg::ModeIm2colW && cmds[i].mode <= pkg::ModeTileScatter4) ||
        cmds[i].cta_group == 2)
      continue;
    const bool marker = ref.jobs[i].marker;
    const bool same = dut.jobs[i].marker == marker &&
                      (marker ? dut.jobs[i].cpl == ref.jobs[i].cpl : dut.jobs[i] == ref.jobs[i]);
    if (!same && shown++ < 5) {
      const auto a = pkg::Pack(dut.jobs[i]), b = pkg::Pack(ref.jobs[i]);
      int first = -1;
      for (int k = 0; k < Job::kBits; ++k) {
        if (((a[k / 32] ^ b[k / 32]) >> (k % 32)) & 1)
          first = k;
      }
      ADD_FAILURE() << "job " << i << " differs (marker " << marker << ", highest differing bit "
                    << first << "), op " << cmds[i].op << " mode " << cmds[i].mode << " dim "
                    << cmds[i].dim;
    }
  }
}

// ---- Random stimulus ----
MapParams RandomMap(std::mt19937& rng) {
  auto rnd = [&](int lo, int hi) { return lo + static_cast<int>(rng() % (hi - lo + 1)); };
  auto p = [&](double x) { return (rng() % 10000) < x * 10000; };
  MapParams m;
  m.im2col = p(0.3);
  m.rank = m.im2col ? rnd(3, 5) : rnd(1, 5);
  if (p(0.02))
    m.rank = rnd(1, 8);
  m.type = p(0.9) ? rnd(0, 10) : rnd(0, 15);
  m.il = p(0.8) ? 0 : rnd(1, 2);
  if (p(0.01))
    m.il = 3;
  m.span = rnd(0, 3);
  if (m.span == pkg::SwzSpan128B && p(0.3))
    m.atom = rnd(1, 3);
  if (p(0.02))
    m.atom = rnd(0, 3);
  m.b96 = p(0.05);
  if (m.b96 && p(0.8))
    m.span = m.atom = 0;
  m.fill = p(0.3) && m.type >= pkg::DtF16 && m.type <= pkg::DtBF16;  // the float formats
  if (p(0.02))
    m.fill = true;
  m.tf32 = p(0.1) && (m.type == pkg::DtF32 || m.type == pkg::DtF32Ftz);
  if (p(0.01))
    m.tf32 = true;
  const int e = 1 << ElemLog2(m.type);
  m.addr = (static_cast<uint64_t>(rng()) << 8) & ~uint64_t{31};
  if (p(0.1))
    m.addr = (static_cast<uint64_t>(rng()) << 32 | rng()) & ~uint64_t{15};
  if (p(0.03))
    m.addr |= static_cast<uint64_t>(rnd(1, 31));
  for (int i = 0; i < 5; ++i) {
    m.dim[i] = p(0.8) ? static_cast<uint64_t>(rnd(1, 300)) : 1 + (rng() % 0xFFFFFFFFull);
    if (p(0.03))
      m.dim[i] = 0x80000000ull;
    m.es[i] = p(0.7) ? 1 : rnd(1, 8);
    m.box[i] = p(0.7) ? rnd(1, 16) : rnd(1, 256);
  }
  m.box[0] = std::max(1, (p(0.5) ? 16 : 64) / e * rnd(1, 4));
  if (p(0.1))
    m.box[0] = rnd(1, 256);
  if (m.span != 0 && p(0.7))
    m.box[0] = std::max(1, (16 << m.span) / e);
  uint64_t acc = static_cast<uint64_t>(m.box[0]) * e;
  for (int i = 0; i < 4; ++i) {
    acc = ((acc + 15) / 16) * 16 * static_cast<uint64_t>(rnd(1, 4));
    m.stride[i] = p(0.9) ? acc : ((static_cast<uint64_t>(rng()) << 8 | rng()) & 0xFFFFFFFFF0ull);
    if (p(0.05))
      m.stride[i] |= 16;
    if (p(0.02))
      m.stride[i] = (static_cast<uint64_t>(rng()) << 32 | rng()) & 0xFFFFFFFFFF0ull;
  }
  const int cmax = m.rank == 3 ? 32767 : (m.rank == 4 ? 127 : 15);
  for (int k = 0; k < 3; ++k) {
    m.lower[k] = p(0.5) ? 0 : rnd(-std::min(cmax, 5), std::min(cmax, 3));
    m.upper[k] = p(0.5) ? 0 : rnd(-std::min(cmax, 5), std::min(cmax, 3));
  }
  m.ppc = p(0.7) ? rnd(1, 64) : rnd(1, 1024);
  if (p(0.08))
    m.boxbytes_delta = p(0.5) ? 1 : -static_cast<int64_t>(rnd(1, 16));
  if (p(0.03))
    m.swzrep_override = rnd(0, 2048);
  return m;
}

std::vector<Cmd> RandomCmds(std::mt19937& rng, int n, bool any_offset) {
  auto rnd = [&](int lo, int hi) { return lo + static_cast<int>(rng() % (hi - lo + 1)); };
  auto p = [&](double x) { return (rng() % 10000) < x * 10000; };
  std::vector<uint64_t> slots = {0x1000, 0x1080, 0x2000, 0x3040, 0x4000, 0x5010};
  std::map<uint64_t, std::pair<MapDesc, MapParams>> cur;
  std::vector<Cmd> cmds;
  for (int i = 0; i < n; ++i) {
    Cmd c;
    uint64_t a = slots[rng() % slots.size()];
    if (!any_offset)
      a &= ~uint64_t{63};
    c.desc_addr = a;
    if (!cur.count(a) || p(0.15)) {
      MapParams mp = RandomMap(rng);
      MapDesc md = Encode(mp);
      if (p(0.05)) {
        const int bit = rnd(0, 1023);
        md.b[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
      }
      cur[a] = {md, mp};
      c.rewrite = true;
      c.map = md;
      c.inval_before = p(0.7);
    }
    if (p(0.05))
      c.inval_before = true;
    c.inval_fetch = p(0.1);
    const MapParams& m = cur[a].second;
    c.hw_type = HwType(cur[a].first);
    c.op = p(0.9) ? pkg::OpLoad : (p(0.7) ? pkg::OpPrefetch : rnd(pkg::OpStore, pkg::OpReduce));
    c.mode = m.im2col ? pkg::ModeIm2col : pkg::ModeTile;
    if (p(0.03))
      c.mode = rnd(0, 7);
    c.dim = m.rank;
    if (p(0.03))
      c.dim = rnd(0, 7);
    for (int d = 0; d < 5; ++d) {
      c.coords[d] = p(0.8) ? rnd(-20, 300) : static_cast<int32_t>(rng());
      if (p(0.3))
        c.coords[d] = 0;
    }
    const int e = 1 << ElemLog2(m.type);
    if (p(0.85))
      c.coords[0] = c.coords[0] / (16 / std::min(e, 16)) * (16 / std::min(e, 16));
    for (int k = 0; k < 3; ++k)
      c.im2col[k] = static_cast<uint16_t>(p(0.7) ? rnd(0, 5) : rnd(0, 300));
    c.smem = p(0.95) ? static_cast<uint32_t>(rnd(0, 100)) * 128 : rng();
    c.mbar = p(0.95) ? static_cast<uint32_t>(rnd(0, 100)) * 8 : rng();
    c.multicast = p(0.2);
    c.cta_mask = static_cast<uint16_t>(p(0.95) ? rnd(0, 15) : rng());
    c.issuer = p(0.95) ? rnd(0, 3) : rnd(0, 15);
    c.dst = p(0.95) ? rnd(0, 3) : rnd(0, 15);
    c.cta_group = p(0.95) ? 0 : rnd(0, 3);
    c.tag = rnd(0, 255);
    if (p(0.02))
      c.desc_addr |= static_cast<uint64_t>(rnd(1, 15));
    cmds.push_back(c);
  }
  return cmds;
}

template <class M, class R, int kDataBytes>
void Equivalence(uint32_t seed, int n) {
  std::mt19937 rng(seed);
  const std::vector<Cmd> cmds = RandomCmds(rng, n, kDataBytes > 16);
  const Outcome dut = RunCmds<M, kDataBytes>(cmds, seed + 1, 0.0);
  const Outcome ref = RunCmds<R, kDataBytes>(cmds, seed + 2, 0.0);
  ExpectSameJobs(dut, ref, cmds);
  int markers = 0, sub_byte = 0;
  for (const Job& j : ref.jobs)
    markers += j.marker;
  for (const Cmd& c : cmds)
    sub_byte += IsSubByteType(c.hw_type);
  std::printf(
      "seed %u DataBytes %d: %zu commands, %d markers, %zu descriptor reads, %d on sub-byte "
      "maps (not compared)\n",
      seed, kDataBytes, ref.jobs.size(), markers, ref.ars.size(), sub_byte);
}

TEST(CmdCtrl, EquivalentToReferenceDb16) {
  for (uint32_t seed = 1; seed <= 4; ++seed) {
    Equivalence<Vtma_frontend_db16, Vtma_cmd_ctrl_ref_db16, 16>(seed, 1500);
  }
}

TEST(CmdCtrl, EquivalentToReferenceDb64) {
  for (uint32_t seed = 11; seed <= 13; ++seed) {
    Equivalence<Vtma_frontend_db64, Vtma_cmd_ctrl_ref_db64, 64>(seed, 1500);
  }
}

// Bus errors: the same commands with an error on every descriptor beat end in bus_error.
TEST(CmdCtrl, BusErrorsMatchReference) {
  std::mt19937 rng(77);
  std::vector<Cmd> cmds = RandomCmds(rng, 300, false);
  for (Cmd& c : cmds)
    c.inval_before = true;  // every command fetches
  const Outcome dut = RunCmds<Vtma_frontend_db16, 16>(cmds, 5, 1.0);
  const Outcome ref = RunCmds<Vtma_cmd_ctrl_ref_db16, 16>(cmds, 6, 1.0);
  ExpectSameJobs(dut, ref, cmds);
}

// A 2-D u16 tile, hand derived: map at 0x1000, tensor at 0x200000, dims {100, 50}, row
// stride 256 B, box {32, 8}; coords {8, 3}: gaddr = 0x200000 + 8 x 2 = 0x200010,
// astart[1] = 3 x 256 = 768, step[1] = 256, row bytes 64, head 0, dend 64, hi[1] = 10.
TEST(CmdCtrl, HandDerivedTileJobAndLatency) {
  MapParams m;
  m.rank = 2;
  m.type = pkg::DtU16;
  m.addr = 0x200000;
  m.dim[0] = 100;
  m.dim[1] = 50;
  m.stride[0] = 256;
  m.box[0] = 32;
  m.box[1] = 8;
  Cmd c;
  c.desc_addr = 0x1000;
  c.coords[0] = 8;
  c.coords[1] = 3;
  c.rewrite = true;
  c.map = Encode(m);
  c.smem = 0x400;
  c.tag = 9;
  std::vector<Cmd> cmds = {c, c, c};
  cmds[1].rewrite = cmds[2].rewrite = false;
  cmds[2].coords[1] = 0x12345;  // two partial products for astart[1]
  const Outcome o = RunCmds<Vtma_frontend_db16, 16>(cmds, 1, 0.0);
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
  // latency with a walker that always takes the job
  const Outcome l = RunCmds<Vtma_frontend_db16, 16>(cmds, 1, 0.0, 1.0);
  const Outcome r = RunCmds<Vtma_cmd_ctrl_ref_db16, 16>(cmds, 1, 0.0, 1.0);
  std::printf(
      "accept -> job valid, cycles (miss, hit, hit with a large coordinate): "
      "new %d %d %d, reference %d %d %d\n",
      l.latency[0], l.latency[1], l.latency[2], r.latency[0], r.latency[1], r.latency[2]);
  // a hit: Read, W1, W1B, W2, then the Mac (operands, operand copy, product, accumulate)
  EXPECT_LE(l.latency[1], 10);
  EXPECT_LE(l.latency[2], 10);
}

// The swizzle-repeat field (bits 576-607) of a 128B-span map: docs/descriptor.md section 3
// gives 1024 for 128B and for each of its atomicity variants (atom 1 = 128B_atom_32B, 2 =
// 128B_atom_32B_flip_8B, 3 = 128B_atom_64B); any other value is an invalid descriptor. The
// same commands through the reference must give the same completions.
TEST(CmdCtrl, SwizzleRepeatOf128BSpans) {
  std::vector<Cmd> cmds;
  std::vector<int> want_err;  // 0: a data job; 1: invalid_descriptor (tma_pkg::ErrInvalid..)
  uint64_t slot = 0x1000;
  for (int atom = 0; atom < 4; ++atom) {
    for (uint32_t rep : {pkg::SwzRepeat128B, pkg::SwzRepeat64B, pkg::SwzRepeat32B,
                         pkg::SwzRepeatNone, 2 * pkg::SwzRepeat128B}) {
      MapParams m;
      m.rank = 2;
      m.type = pkg::DtU16;  // box[0] 64 x 2 B = 128 B = the span
      m.addr = 0x200000;
      m.dim[0] = 256;
      m.dim[1] = 64;
      m.stride[0] = 512;
      m.box[0] = 64;
      m.box[1] = 8;
      m.span = pkg::SwzSpan128B;
      m.atom = atom;
      m.swzrep_override = static_cast<int>(rep);
      Cmd c;
      c.desc_addr = slot;
      slot += 0x80;
      c.coords[0] = 64;
      c.coords[1] = 8;
      c.rewrite = true;
      c.inval_before = true;
      c.map = Encode(m);
      c.smem = 0x400;
      c.tag = static_cast<int>(cmds.size());
      cmds.push_back(c);
      want_err.push_back(rep == pkg::SwzRepeat128B ? 0 : 1);
    }
  }
  const Outcome o = RunCmds<Vtma_frontend_db16, 16>(cmds, 3, 0.0);
  const Outcome r = RunCmds<Vtma_cmd_ctrl_ref_db16, 16>(cmds, 4, 0.0);
  ASSERT_EQ(o.jobs.size(), cmds.size());
  for (size_t i = 0; i < cmds.size(); ++i) {
    const Job& j = o.jobs[i];
    const uint64_t err = j.cpl.err, kind = j.cpl.kind, swz = j.swz;
    const bool marker = j.marker;
    if (want_err[i] == 0) {
      EXPECT_FALSE(marker) << "command " << i;
      EXPECT_EQ(kind, uint64_t{pkg::CplTx}) << "command " << i;
      EXPECT_EQ(swz, pkg::Swz128B + static_cast<uint64_t>(i / 5)) << "command " << i;  // + atom
    } else {
      EXPECT_TRUE(marker) << "command " << i;
      EXPECT_EQ(kind, uint64_t{pkg::CplError}) << "command " << i;
      EXPECT_EQ(err, uint64_t{pkg::ErrInvalidDescriptor}) << "command " << i;
    }
  }
  ExpectSameJobs(o, r, cmds);
}

// Sub-byte types (sm_100; hardware codes 11 b4x16, 12 b4x16_p64, 13 b6x16_p32), hand
// derived from docs/descriptor.md, docs/rtl-unpack.md and the model's rules (encoder.cc,
// tensor_copy.cc F1): b4x16 stores two elements per byte in both memories (row, head, dend
// in bytes = elements / 2; global offset c0 / 2); the padded types use 1 byte per element in
// shared memory and 8 (p64) or 12 (p32) global bytes per 16 elements (offset c0 / 2, 3 c0 / 4),
// with pk telling the unpacker (1 PkG8, 2 PkG12).
TEST(CmdCtrl, SubByteHandDerived) {
  struct Want {
    int err;  // 0: data job; else the completion's error code (tma_pkg::Err*)
    uint64_t gaddr, row, head, dend, pitch, pk, astart1, step1;
  };
  std::vector<Cmd> cmds;
  std::vector<Want> want;
  uint64_t slot = 0x1000;
  auto add = [&](const MapParams& m, int c0, int c1, const Want& w, int mode = 0) {
    Cmd c;
    c.desc_addr = slot;
    slot += 0x80;
    c.coords[0] = c0;
    c.coords[1] = c1;
    c.dim = m.rank;
    c.mode = mode;
    c.rewrite = true;
    c.inval_before = true;
    c.map = Encode(m);
    c.hw_type = m.type;
    c.smem = 0x400;
    c.tag = static_cast<int>(cmds.size());
    cmds.push_back(c);
    want.push_back(w);
  };
  // b4x16: dims {200, 10}, row stride 128 B, box {64, 4} (32 B rows), coords {-32, 3}:
  // gaddr 0x200000 - 16, elements 32..63 of the row in bounds: head 16, dend 32 bytes;
  // astart[1] 3 x 128; box bytes 64 x 4 / 2 = 128.
  MapParams a;
  a.rank = 2;
  a.type = pkg::DtB4x16;
  a.addr = 0x200000;
  a.dim[0] = 200;
  a.dim[1] = 10;
  a.stride[0] = 128;
  a.box[0] = 64;
  a.box[1] = 4;
  add(a, -32, 3, {0, 0x1FFFF0, 32, 16, 32, 32, 0, 384, 128});
  // the same at coords {192, 7}: elements 192..199 in bounds (dim 200): head 0, dend 4 bytes;
  // gaddr + 96
  add(a, 192, 7, {0, 0x200060, 32, 0, 4, 32, 0, 7 * 128, 128});
  // F1: c0 x 4 bits not a multiple of 128 bits
  add(a, 16, 0, {3, 0, 0, 0, 0, 0, 0, 0, 0});
  // box bytes off by one: invalid descriptor
  MapParams a2 = a;
  a2.boxbytes_delta = 1;
  add(a2, 0, 0, {1, 0, 0, 0, 0, 0, 0, 0, 0});
  // box[0] not a multiple of 32, dim[0] odd: invalid descriptor
  MapParams a3 = a;
  a3.box[0] = 48;
  add(a3, 0, 0, {1, 0, 0, 0, 0, 0, 0, 0, 0});
  MapParams a4 = a;
  a4.dim[0] = 201;
  add(a4, 0, 0, {1, 0, 0, 0, 0, 0, 0, 0, 0});
  // an odd nibble count: rank 1, box 64 with element stride 3: 21 nibbles, field ceil = 11;
  // 10 or 21 are invalid
  MapParams a5;
  a5.rank = 1;
  a5.type = pkg::DtB4x16;
  a5.addr = 0x200000;
  a5.dim[0] = 256;
  a5.es[0] = 3;
  a5.box[0] = 64;
  add(a5, 64, 0, {0, 0x200020, 32, 0, 32, 32, 0, 0, 0});
  a5.boxbytes_delta = -1;
  add(a5, 64, 0, {1, 0, 0, 0, 0, 0, 0, 0, 0});
  a5.boxbytes_delta = 10;
  add(a5, 64, 0, {1, 0, 0, 0, 0, 0, 0, 0, 0});
  // b4x16 in im2col mode: rank 3, cpp 64 (32 bytes), 1 pixel at W 0, N 0: a data job, row 32
  // bytes all in bounds, astart[1] = 0 x 32, step[1] = 1 x 32
  MapParams a6;
  a6.im2col = true;
  a6.rank = 3;
  a6.type = pkg::DtB4x16;
  a6.addr = 0x200000;
  a6.dim[0] = 64;
  a6.dim[1] = 8;
  a6.dim[2] = 2;
  a6.stride[0] = 32;
  a6.stride[1] = 256;
  a6.box[0] = 64;
  a6.ppc = 1;
  add(a6, 0, 0, {0, 0x200000, 32, 0, 32, 32, 0, 0, 32}, 1);
  // b4x16_p64: dims {256, 4}, stride 128 B (256 x 8 / 16), box {128, 2}, coords {128, 1}:
  // gaddr 0x300000 + 64, row 128 shared bytes, astart[1] 128, pk 1
  MapParams b;
  b.rank = 2;
  b.type = pkg::DtB4x16P64;
  b.addr = 0x300000;
  b.dim[0] = 256;
  b.dim[1] = 4;
  b.stride[0] = 128;
  b.box[0] = 128;
  b.box[1] = 2;
  add(b, 128, 1, {0, 0x300040, 128, 0, 128, 128, 1, 128, 128});
  // F1 of the packed types: c0 a multiple of 128
  add(b, 64, 1, {3, 0, 0, 0, 0, 0, 0, 0, 0});
  // a 64B swizzle, an address not 32-aligned, box[0] 64: invalid descriptor
  MapParams b2 = b;
  b2.span = pkg::SwzSpan64B;
  add(b2, 0, 0, {1, 0, 0, 0, 0, 0, 0, 0, 0});
  MapParams b3 = b;
  b3.addr = 0x300010;
  add(b3, 0, 0, {1, 0, 0, 0, 0, 0, 0, 0, 0});
  MapParams b4 = b;
  b4.box[0] = 64;
  add(b4, 0, 0, {1, 0, 0, 0, 0, 0, 0, 0, 0});
  // b6x16_p32: dims {256, 4}, stride 192 B (256 x 12 / 16), box {128, 2}, coords {128, 2}:
  // gaddr 0x300000 + 96, astart[1] 384, pk 2; with the 128B swizzle the pitch is the span
  MapParams c;
  c.rank = 2;
  c.type = pkg::DtB6x16P32;
  c.addr = 0x300000;
  c.dim[0] = 256;
  c.dim[1] = 4;
  c.stride[0] = 192;
  c.box[0] = 128;
  c.box[1] = 2;
  add(c, 128, 2, {0, 0x300060, 128, 0, 128, 128, 2, 384, 192});
  MapParams c2 = c;
  c2.span = pkg::SwzSpan128B;
  add(c2, -128, 1, {0, 0x300000 - 96, 128, 128, 128, 128, 2, 192, 192});
  // a stride not a multiple of 32: invalid descriptor
  MapParams c3 = c;
  c3.stride[0] = 208;
  add(c3, 0, 0, {1, 0, 0, 0, 0, 0, 0, 0, 0});

  const Outcome o = RunCmds<Vtma_frontend_db16, 16>(cmds, 21, 0.0);
  ASSERT_EQ(o.jobs.size(), cmds.size());
  for (size_t i = 0; i < cmds.size(); ++i) {
    const Job& j = o.jobs[i];
    const Want& w = want[i];
    const bool marker = j.marker;
    const uint64_t err = j.cpl.err, kind = j.cpl.kind;
    if (w.err != 0) {
      EXPECT_TRUE(marker) << "case " << i;
      EXPECT_EQ(kind, uint64_t{pkg::CplError}) << "case " << i;
      EXPECT_EQ(err, static_cast<uint64_t>(w.err)) << "case " << i;
      continue;
    }
    EXPECT_FALSE(marker) << "case " << i << " err " << err;
    if (marker)
      continue;
    EXPECT_EQ(j.gaddr, w.gaddr) << "case " << i;
    EXPECT_EQ(j.row_bytes, w.row) << "case " << i;
    EXPECT_EQ(j.head, w.head) << "case " << i;
    EXPECT_EQ(j.dend, w.dend) << "case " << i;
    EXPECT_EQ(j.pitch, w.pitch) << "case " << i;
    EXPECT_EQ(j.pk, w.pk) << "case " << i;
    if (cmds[i].dim >= 2) {
      EXPECT_EQ(j.astart.v[1], w.astart1) << "case " << i;
      EXPECT_EQ(j.step.v[1], w.step1) << "case " << i;
    }
  }
}

}  // namespace
}  // namespace tma::tb
