// SPDX-License-Identifier: Apache-2.0
//
// The TLM-2.0 skin (cosim/tlm) on its own: an initiator thread writes one otma_op to the
// engine's command socket; the engine reads global memory and writes shared memory through its
// initiator sockets (the first access of a region by b_transport, then DMI once the target
// grants it), signals complete_tx as a write with a TxExt to the mbarrier's address, and the
// engine clocks advance SystemC time through the quantum keeper. Expected bytes by hand: a u8
// box {32, 4} at {16, 1} of a {64, 8} tensor (pitch 64) lands as rows y = 1..4, bytes
// [64 y + 16, 64 y + 48) of the global buffer.
#include <cstring>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "otma_tlm.h"
#include "test_host.h"

namespace {

using otma::tlm::Backing;
using otma::tlm::Engine;
using otma::tlm::Memory;

constexpr uint64_t kBase = 0x8000;

struct VecBacking : Backing {
  uint64_t base;
  std::vector<uint8_t> v;
  bool dmi;
  std::vector<std::pair<uint64_t, uint32_t>> tx;
  VecBacking(uint64_t b, size_t n, bool allow_dmi) : base(b), v(n), dmi(allow_dmi) {}
  bool Read(uint64_t a, uint8_t* d, uint32_t n) override {
    if (a < base || a + n > base + v.size())
      return false;
    std::memcpy(d, v.data() + (a - base), n);
    return true;
  }
  bool Write(uint64_t a, const uint8_t* s, uint32_t n) override {
    if (a < base || a + n > base + v.size())
      return false;
    std::memcpy(v.data() + (a - base), s, n);
    return true;
  }
  bool Region(uint64_t, uint8_t** b, uint64_t* start, uint64_t* bytes) override {
    if (!dmi)
      return false;
    *b = v.data();
    *start = base;
    *bytes = v.size();
    return true;
  }
  void CompleteTx(uint64_t a, uint32_t bytes) override { tx.emplace_back(a, bytes); }
};

struct Top : sc_core::sc_module {
  Engine engine{"engine", sc_core::sc_time(1, sc_core::SC_NS)};
  Memory gmem{"gmem", sc_core::sc_time(2, sc_core::SC_NS)};
  Memory smem{"smem", sc_core::sc_time(1, sc_core::SC_NS)};
  tlm_utils::simple_initiator_socket<Top> cmd{"cmd"};
  VecBacking gb{kBase, 1024, true};
  VecBacking sb{0, 1u << 25, false};  // rank 1 window at 1 << 24; no DMI: b_transport only
  otma_status status = OTMA_E_BUSY;
  std::vector<uint8_t> map;
  SC_HAS_PROCESS(Top);
  explicit Top(sc_core::sc_module_name n) : sc_module(n) {
    engine.gmem.bind(gmem.socket);
    engine.smem.bind(smem.socket);
    cmd.bind(engine.cmd);
    gmem.set_backing(&gb);
    smem.set_backing(&sb);
    for (size_t i = 0; i < gb.v.size(); ++i)
      gb.v[i] = static_cast<uint8_t>(i * 5 + 1);
    map = cosim_test::Map2D(kBase, 0, 64, 8, 64, 32, 4);
    SC_THREAD(Run);
  }
  void Run() {
    otma_config c;
    std::memset(&c, 0, sizeof c);
    c.struct_size = sizeof c;
    c.abi_version = OTMA_ABI_VERSION;
    c.cluster_size = 2;
    otma_host h;
    std::memset(&h, 0, sizeof h);
    h.struct_size = sizeof h;
    ASSERT_EQ(engine.Reset(c, h), OTMA_OK);
    for (int i = 0; i < 2; ++i) {
      otma_op op = cosim_test::Load2D(map, 16, 1, 1024 + 256 * i, 64, 0);
      op.flags = OTMA_OPF_MULTICAST;
      op.cta_mask = 0x2;  // rank 1 only
      tlm::tlm_generic_payload p;
      otma::tlm::CmdExt ext;
      p.set_command(tlm::TLM_WRITE_COMMAND);
      p.set_data_ptr(reinterpret_cast<unsigned char*>(&op));
      p.set_data_length(sizeof op);
      p.set_streaming_width(sizeof op);
      p.set_extension(&ext);
      sc_core::sc_time d = sc_core::SC_ZERO_TIME;
      cmd->b_transport(p, d);
      p.clear_extension(&ext);
      status = ext.status;
      engine.Tick(1000);
    }
  }
};

TEST(CosimTlm, LoadThroughSocketsWithDmiAndQuantumKeeper) {
  Top top("top");
  sc_core::sc_start();
  EXPECT_EQ(top.status, OTMA_OK);
  for (int i = 0; i < 2; ++i) {
    for (int y = 0; y < 4; ++y) {
      for (int x = 0; x < 32; ++x) {
        const size_t g = 64 * (1 + y) + 16 + x;
        ASSERT_EQ(top.sb.v[(1u << 24) + 1024 + 256 * i + 32 * y + x], top.gb.v[g]);
      }
    }
  }
  ASSERT_EQ(top.sb.tx.size(), 2u);
  EXPECT_EQ(top.sb.tx[0].first, (1ull << 24) | 64);
  EXPECT_EQ(top.sb.tx[0].second, 128u);
  EXPECT_EQ(top.gmem.dmi_grants(), 1u);  // granted after the first b_transport
  EXPECT_GT(top.engine.dmi_hits(), 0u);  // the second op's reads went through DMI
  EXPECT_GE(top.smem.transports(), 8u);  // shared memory has no DMI: every row a transport
  EXPECT_GE(sc_core::sc_time_stamp(), sc_core::sc_time(2000, sc_core::SC_NS));
}

}  // namespace

int sc_main(int, char**) {
  return 0;
}
