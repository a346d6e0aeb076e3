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
#include <vector>

#include <gtest/gtest.h>

#include "sim/autogen/tma_structs.h"
#include "sim/axi_read_slave.h"
#include "tma/descriptor.h"
#include "tma/encoder.h"

namespace tma::tb {

using DescBytes = tma::model::DescriptorBytes;

// The descriptor reads of a map at `addr` (16-byte aligned), hand derived from
// tma_desc_fetch's header: 128 / DataBytes single beats from the beat that holds the map, one
// more when the map does not start a beat.
std::vector<uint64_t> WantDescReads(uint64_t addr, int data_bytes);

// The map needs the sm_100+ rules (a sub-byte type, a swizzle sm_90 lacks).
bool Sm100Only(const tma::model::TensorMap& m);
// The arch whose encoder rules the RTL applies to `m` (the RTL has no arch input): sm_90, or
// the first arch that has the map's type and swizzle (96B: sm_103).
tma::model::Arch ArchOf(const tma::model::TensorMap& m);

// The model's verdict on 128 bytes as a map for the RTL: DecodeDescriptor, then the encoder
// rules of ArchOf (im2col-wide maps, which the RTL does not implement, count as invalid).
// *m: the decoded map (when DecodeDescriptor accepts the bytes). Returns the status.
tma::model::Status ModelDescVerdict(const DescBytes& d, tma::model::TensorMap* m);

// A map whose verdict the RTL does not decide like the model: a 96B swizzle with an interleave
// (an sm_103 encoder rule, rule 4, that tma_desc_check does not check; a driver never hands
// such a map to an engine). The tests count these and do not compare their verdicts.
bool OutsideRtlChecks(const tma::model::TensorMap& m);

// A random map through the model's encoder: mostly valid, some fields out of range, 10 % with
// one flipped bit anywhere (broken codes, reserved bits, derived fields).
DescBytes RandomDescriptor(std::mt19937_64& rng, tma::model::TensorMap* m = nullptr);

template <class M>
class DescAxi {
 public:
  DescAxi(int data_bytes, tma::model::GlobalMemoryIf* mem, uint64_t seed,
          const sim::AxiReadConfig& cfg)
      : rng_(seed),
        src_(mem),
        slave_(&src_, &rng_,
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

}  // namespace tma::tb

#endif  // TMA_TESTS_RTL_FRONTEND_FRONTEND_TB_H_
