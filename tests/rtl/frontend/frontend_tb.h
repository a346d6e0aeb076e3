// SPDX-License-Identifier: Apache-2.0
//
// What the frontend tests share (tests/rtl/frontend/frontend_tb.cc):
//  - DescAxi connects a Verilated block's descriptor read port (ar_valid_o / ar_ready_i / ar_o,
// r_valid_i / r_data_i / r_err_i: single-beat reads of ID AxiIdDesc, R always accepted) to the
// harness's AXI4 read slave (sim/axi_read_slave.h) over a model memory: per-ID latency, random
// arready / rvalid, SLVERR / DECERR injection and the slave's protocol checks (full-width
// beats, no burst across 4 KiB, AR held stable).
// Per cycle: Drive() writes the block's inputs, the test settles the block, Tick() hands the
// block's outputs to the slave (the handshakes at the coming edge), then the clock edge.

#ifndef TMA_TESTS_RTL_FRONTEND_FRONTEND_TB_H_
#define TMA_TESTS_RTL_FRONTEND_FRONTEND_TB_H_

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "sim/axi_read_slave.h"
#include "tma/descriptor.h"
#include "tma/encoder.h"
#include "tma/memory.h"

#include "sim/autogen/tma_structs.h"
#include "verilated_dut.h"

namespace tma::tb {

using DescBytes = tma::model::DescriptorBytes;

// The descriptor reads of a map at `addr` (16-byte aligned), hand derived from
// tma_desc_fetch's header: 128 / DataBytes single beats from the beat that holds the map, one
// more when the map does not start a beat.
std::vector<uint64_t> WantDescReads(uint64_t addr, int data_bytes);

// The model's verdict on 128 bytes as a map for the RTL's descriptor check: DecodeDescriptor,
// then the encoder rules of sm_103 (the check applies the newest arch's rules, so the verdict it
// caches holds for every arch_i; the instruction check adds the arch's own, InstrVerdict).
// *m: the decoded map (when DecodeDescriptor accepts the bytes). Returns the status.
tma::model::Status ModelDescVerdict(const DescBytes& d, tma::model::TensorMap* m);

constexpr int kNumCtas = 4;  // NumCtas of the Verilated frontend and instruction check

// The decoded fields of 128 bytes, from the field positions (docs/descriptor.md): the decode's
// contract (tma_pkg::desc_fields_t; swz is the 3-bit swizzle code: 96B if its bit is set, else
// the 128B span plus the atomicity, else the span).
tma::pkg::desc_fields_t FieldsOf(const DescBytes& d);

// The cluster size the instruction check applies for a cluster_i setting (0 or above
// kNumCtas: kNumCtas).
int ClusterCtas(int cluster);

// The instruction checks' verdict on a command and its map (valid at sm_103) at `arch`
// (arch_i) in a cluster of `ctas` CTAs: first the encoder rules of `arch` (a map only a newer
// arch has is `invalid_descriptor`), then the model's CheckInstruction with the RTL's rule of its
// own (docs/differences.md, "RTL vs model": a multicast to no CTA is invalid_instruction) at its
// place in its order (tma_instr_check): after the qualifier and operand checks, before F2.
tma::model::Status InstrVerdict(const tma::pkg::cmd_t& c, const tma::model::TensorMap& m,
                                tma::model::Arch arch, int ctas);

// A command of the frontend tests, with its stimulus.
struct FeCmd {
  pkg::cmd_t cmd;
  bool inval_before = false;  // pulse desc_inval_i before this command (all earlier done)
  bool inval_fetch = false;   // pulse it with the first descriptor beat of this command
  bool rewrite = false;       // the map at desc_addr becomes `map` (all earlier done)
  DescBytes map{};
  int err_beat = -1;      // this beat of the command's map reads answers with an error
  uint32_t err_resp = 2;  // SLVERR or DECERR
};

// Random commands over a few map slots (rewritten now and then with RandomDescriptor): every
// error class the frontend decides, prefetch, multicast, im2col, the sm_100 modes (gather4 on
// 2-D maps with box[1] 1, im2col::w / ::w::128 on im2col-wide maps), .shared::cta, an mbarrier
// in another CTA, .cta_group::1 / ::2, large and negative coordinates; any_offset: map
// addresses not aligned to 64 bytes.
std::vector<FeCmd> RandomCmds(std::mt19937_64& rng, int n, bool any_offset);

// A random map through the model's encoder (tiled, im2col, im2col-wide; some 2-D tiles with
// box[1] 1 for gather4): mostly valid, some fields out of range, 10 % with one flipped bit
// anywhere (broken codes, reserved bits, derived fields).
DescBytes RandomDescriptor(std::mt19937_64& rng, tma::model::TensorMap* m = nullptr);

template <class M>
class DescAxi {
 public:
  DescAxi(int data_bytes, tma::model::GlobalMemoryIf* mem, uint64_t seed,
          const sim::AxiReadConfig& cfg)
      : rng_(seed),
        src_(mem),
        slave_(
            &src_, &rng_,
            [](const std::string& id, const std::string& msg) {
              ADD_FAILURE() << "AXI read slave: " << id << ": " << msg;
            },
            cfg) {
    pins_.data_bytes = data_bytes;
    pins_.rst_n = true;
    pins_.rready = true;
    int lg = 0;
    while ((1 << lg) < data_bytes)
      ++lg;
    size_log2_ = lg;
  }
  sim::AxiReadSlave& slave() { return slave_; }
  // Descriptor read addresses the block issued, in order.
  const std::vector<uint64_t>& ars() const { return ars_; }
  void ClearArs() { ars_.clear(); }

  void Drive(M* m) {
    m->ar_ready_i = pins_.arready;
    m->r_valid_i = pins_.rvalid;
    m->r_err_i = pins_.rvalid && pins_.rresp != 0;
    for (int w = 0; w < pins_.data_bytes / 4; ++w) {
      uint32_t v = 0;
      for (int b = 0; b < 4; ++b)
        v |= static_cast<uint32_t>(pins_.rdata[4 * w + b]) << (8 * b);
      m->r_data_i[w] = v;
    }
  }

  // `now`: the cycle number; the block's outputs are settled.
  void Tick(M* m, uint64_t now) {
    const auto ar = pkg::Unpack<pkg::ar_t>(m->ar_o.data());
    pins_.arvalid = m->ar_valid_o;
    pins_.araddr = ar.addr;
    pins_.arlen = ar.len;
    pins_.arid = static_cast<uint8_t>(pkg::AxiIdDesc);
    pins_.arsize = static_cast<uint8_t>(size_log2_);
    pins_.arburst = 1;  // INCR
    if (pins_.arvalid && pins_.arready)
      ars_.push_back(ar.addr);
    if (pins_.rvalid) {
      ++beats_;
      errors_ += pins_.rresp != 0;
    }
    slave_.Tick(pins_, now);
  }
  uint64_t beats() const { return beats_; }
  uint64_t error_beats() const { return errors_; }

 private:
  sim::MtRandom rng_;
  sim::GlobalMemorySource src_;
  sim::AxiReadSlave slave_;
  sim::TopPins pins_;
  int size_log2_ = 4;
  std::vector<uint64_t> ars_;
  uint64_t beats_ = 0, errors_ = 0;
};

// The descriptor fetch + decode + check (tma_desc_fetch_tb) over DescAxi: Fetch() runs one
// fetch as the sequencer does (start, then fetching until the last beat) and waits for the
// check.
struct FetchResult {
  bool ended = false, bad = false, ok = false;
  int fetch_cycles = 0;  // start to the last beat
  int chk_cycles = -1;   // last beat to map valid
  std::vector<uint64_t> ars;
  tma::pkg::desc_fields_t fields;
  tma::pkg::map_t map;
};

template <class M, int kDataBytes>
class FetchBench {
 public:
  FetchBench(uint32_t seed, int lat_hi, int ready_pct)
      : dut_(seed), rng_(seed), axi_(kDataBytes, &mem_, seed, Config(lat_hi, ready_pct)) {
    dut_->start_i = 0;
    dut_->fetching_i = 0;
    dut_->start_addr_i = 0;
    axi_.Drive(dut_.operator->());
    dut_.Reset();
  }
  static sim::AxiReadConfig Config(int lat_hi, int ready_pct) {
    sim::AxiReadConfig c;
    c.SetLatency(0, lat_hi);
    c.arready_pct = ready_pct;
    c.rvalid_pct = ready_pct;
    c.full_width = true;
    return c;
  }
  tma::model::SparseGlobalMemory& mem() { return mem_; }
  DescAxi<M>& axi() { return axi_; }
  bool GotError() const { return dut_.GotError(); }

  // Fetches the map at `addr` (16-byte aligned) after `idle` idle cycles.
  FetchResult Fetch(uint64_t addr, int idle) {
    FetchResult r;
    axi_.ClearArs();
    for (int i = 0; i < idle; ++i)
      Step(false, false, rng_());
    Step(true, false, addr >> 4);
    for (r.fetch_cycles = 1; r.fetch_cycles < 2000; ++r.fetch_cycles) {
      axi_.Drive(dut_.operator->());
      dut_->start_i = 0;
      dut_->fetching_i = 1;
      dut_->start_addr_i = rng_() >> 4;  // the command stream has moved on
      dut_.Settle();
      const bool end = dut_->end_o;
      if (end) {
        r.ended = true;
        r.bad = dut_->bad_o;
        r.ok = dut_->ok_o;
      }
      axi_.Tick(dut_.operator->(), cycle_++);
      dut_.Cycle();
      if (end)
        break;
    }
    for (int i = 1; i <= 12; ++i) {
      axi_.Drive(dut_.operator->());
      dut_->fetching_i = 0;
      dut_.Settle();
      EXPECT_FALSE(dut_->ar_valid_o);
      if (dut_->map_valid_o && r.chk_cycles < 0) {
        r.chk_cycles = i;
        r.fields = tma::pkg::Unpack<tma::pkg::desc_fields_t>(dut_->fields_o.data());
        r.map = tma::pkg::Unpack<tma::pkg::map_t>(dut_->map_o.data());
      }
      axi_.Tick(dut_.operator->(), cycle_++);
      dut_.Cycle();
    }
    r.ars = axi_.ars();
    return r;
  }

 private:
  void Step(bool start, bool fetching, uint64_t start_addr) {
    axi_.Drive(dut_.operator->());
    dut_->start_i = start;
    dut_->fetching_i = fetching;
    dut_->start_addr_i = start_addr & 0x0FFF'FFFF'FFFF'FFFFull;
    dut_.Settle();
    axi_.Tick(dut_.operator->(), cycle_++);
    dut_.Cycle();
  }

  VerilatedDut<M> dut_;
  std::mt19937_64 rng_;
  tma::model::SparseGlobalMemory mem_;
  DescAxi<M> axi_;
  uint64_t cycle_ = 0;
};

}  // namespace tma::tb

#endif  // TMA_TESTS_RTL_FRONTEND_FRONTEND_TB_H_
