// SPDX-License-Identifier: Apache-2.0
//
// The protocol checkers of rtl/sva/ (bound to every AXI port of the engine and the SoC top by
// rtl/sva/tma_bind.sv) fire on planted protocol violations, and stay silent on legal traffic:
// each test drives the channels of tma_sva_tb.sv by hand, plants one violation and expects
// exactly the set of assertions (instance.name) that it breaks. Together the cases fire every
// assertion of tma_axi_rd_sva, tma_axi_wr_sva (full width and Narrow), tma_axil_sva and
// tma_stream_sva at least once (the list is read from their sources).
#include <cstdio>
#include <functional>
#include <regex>
#include <set>
#include <string>
#include <unistd.h>

#include <gtest/gtest.h>
#include <verilated.h>

#include "Vtma_sva_tb.h"
#include "sim/autogen/tma_structs.h"

namespace {

using Fired = std::set<std::string>;  // "u_rd.ArHeld_A", ...

Fired& AllFired() {
  static Fired all;
  return all;
}

// Runs `body` on a fresh model (reset for two edges first) with stdout captured; returns the
// assertions that failed, as instance.name.
Fired Run(const std::function<void(Vtma_sva_tb&, const std::function<void()>&)>& body) {
  std::fflush(stdout);
  FILE* tmp = std::tmpfile();
  const int saved = dup(fileno(stdout));
  dup2(fileno(tmp), fileno(stdout));
  {
    VerilatedContext ctx;
    ctx.fatalOnError(false);
    Vtma_sva_tb m(&ctx);
    // Every input idle; the burst fields legal (INCR, 16-byte beats, full strobes).
    m.ar_size_i = 4;
    m.ar_burst_i = 1;
    m.aw_size_i = 4;
    m.aw_burst_i = 1;
    m.w_strb_i = 0xFFFF;
    m.l_wstrb_i = 0xF;
    m.clk_i = 0;
    m.rst_ni = 0;
    m.eval();
    auto cycle = [&] {
      m.clk_i = 0;
      m.eval();
      m.clk_i = 1;
      m.eval();
      ctx.timeInc(1);
      std::fflush(stdout);
    };
    cycle();
    cycle();
    m.rst_ni = 1;
    body(m, cycle);
    cycle();
    cycle();
    m.final();
  }
  std::fflush(stdout);
  dup2(saved, fileno(stdout));
  close(saved);
  Fired f;
  std::rewind(tmp);
  char line[2048];
  const std::regex scope(R"(Assertion failed in (\S+?):)");
  while (std::fgets(line, sizeof line, tmp)) {
    const std::string s(line);
    std::smatch mt;
    if (!std::regex_search(s, mt, scope))
      continue;
    std::string inst, name;
    const std::string path = mt[1].str();
    size_t pos = 0;
    while (pos <= path.size()) {
      const size_t dot = path.find('.', pos);
      const std::string part = path.substr(pos, dot == std::string::npos ? dot : dot - pos);
      if (part.rfind("u_", 0) == 0)
        inst = part;
      if (part.size() > 2 && part.compare(part.size() - 2, 2, "_A") == 0)
        name = part;
      if (dot == std::string::npos)
        break;
      pos = dot + 1;
    }
    f.insert(inst + "." + name);
  }
  std::fclose(tmp);
  AllFired().insert(f.begin(), f.end());
  return f;
}

using M = Vtma_sva_tb;
using Clk = std::function<void()>;

// ---- AXI4 read (u_rd) ----
void Ar(M& m, uint64_t addr, int len, int id = 0) {
  m.ar_valid_i = 1;
  m.ar_ready_i = 1;
  m.ar_addr_i = addr;
  m.ar_len_i = static_cast<uint8_t>(len);
  m.ar_id_i = static_cast<uint8_t>(id);
}
void R(M& m, int id, bool last, uint64_t data = 0) {
  m.r_valid_i = 1;
  m.r_ready_i = 1;
  m.r_id_i = static_cast<uint8_t>(id);
  m.r_last_i = last;
  m.r_data_i = data;
}

void ReadLegalTrafficIsSilent() {
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              Ar(m, 0x1000, 1, 2);  // two beats, ID 2
              c();
              Ar(m, 0x2ff0, 0, 5);  // one beat, ID 5, ending on the page end
              c();
              m.ar_valid_i = 0;
              R(m, 5, true);  // ID 5 overtakes ID 2 (across IDs: any order)
              c();
              R(m, 2, false, 7);
              m.r_ready_i = 0;  // a stalled beat, held
              c();
              c();
              m.r_ready_i = 1;
              c();
              R(m, 2, true);
              c();
              m.r_valid_i = 0;
            }),
            Fired{});
}

void ReadArHeld() {
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              Ar(m, 0x1000, 0);
              m.ar_ready_i = 0;
              c();
              m.ar_addr_i = 0x1010;  // payload changed while waiting
              c();
              m.ar_valid_i = 0;
            }),
            Fired{"u_rd.ArHeld_A"});
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              Ar(m, 0x1000, 0);
              m.ar_ready_i = 0;
              c();
              m.ar_valid_i = 0;  // withdrawn before ready
            }),
            Fired{"u_rd.ArHeld_A"});
}

void ReadArBurstForm() {
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              Ar(m, 0x1000, 0);
              m.ar_burst_i = 0;  // FIXED
              c();
              m.ar_valid_i = 0;
            }),
            Fired{"u_rd.ArIncr_A"});
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              Ar(m, 0x1008, 0);  // not aligned to the 16-byte beat
              c();
              m.ar_valid_i = 0;
            }),
            Fired{"u_rd.ArAligned_A"});
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              Ar(m, 0xF80, 15);  // 256 bytes from 0xF80: crosses 4 KiB
              c();
              m.ar_valid_i = 0;
            }),
            Fired{"u_rd.ArInPage_A"});
}

void ReadCheckerRoom() {
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              for (int i = 0; i < 5; ++i) {  // MaxBursts 4 of one ID outstanding, then a 5th
                Ar(m, 0x1000 + 16 * static_cast<uint64_t>(i), 0, 1);
                c();
              }
              m.ar_valid_i = 0;
            }),
            Fired{"u_rd.ArCheckerRoom_A"});
}

void ReadResponses() {
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              Ar(m, 0x1000, 0, 3);
              c();
              m.ar_valid_i = 0;
              R(m, 3, true, 1);
              m.r_ready_i = 0;
              c();
              m.r_data_i = 2;  // data changed while waiting
              c();
              m.r_valid_i = 0;
            }),
            Fired{"u_rd.RHeld_A"});
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              R(m, 3, true);  // no AR of ID 3 outstanding
              c();
              m.r_valid_i = 0;
            }),
            Fired{"u_rd.RAfterAr_A"});
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              Ar(m, 0x1000, 1, 3);  // two beats
              c();
              m.ar_valid_i = 0;
              R(m, 3, true);  // RLAST on the first
              c();
              m.r_valid_i = 0;
            }),
            Fired{"u_rd.RLastCount_A"});
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              Ar(m, 0x1000, 0, 3);  // one beat
              c();
              m.ar_valid_i = 0;
              R(m, 3, false);  // no RLAST on it
              c();
              m.r_valid_i = 0;
            }),
            Fired{"u_rd.RLastCount_A"});
}

// ---- AXI4 write (u_wr: DataBytes 16; u_nwr: DataBytes 32, Narrow) ----
void Aw(M& m, uint64_t addr, int len, int size = 4) {
  m.aw_valid_i = 1;
  m.aw_ready_i = 1;
  m.aw_addr_i = addr;
  m.aw_len_i = static_cast<uint8_t>(len);
  m.aw_size_i = static_cast<uint8_t>(size);
}
void W(M& m, bool last, uint64_t data = 0, uint16_t strb = 0xFFFF) {
  m.w_valid_i = 1;
  m.w_ready_i = 1;
  m.w_last_i = last;
  m.w_data_i = data;
  m.w_strb_i = strb;
}
void B(M& m, int resp = 0) {
  m.b_valid_i = 1;
  m.b_ready_i = 1;
  m.b_resp_i = static_cast<uint8_t>(resp);
}

void WriteLegalTrafficIsSilent() {
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              Aw(m, 0x2000, 1);
              c();
              m.aw_valid_i = 0;
              W(m, false, 1);
              m.w_ready_i = 0;  // a stalled beat, held
              c();
              m.w_ready_i = 1;
              c();
              W(m, true, 2, 0x00F0);
              c();
              m.w_valid_i = 0;
              B(m, 2);  // SLVERR is a legal response
              m.b_ready_i = 0;
              c();
              m.b_ready_i = 1;
              c();
              m.b_valid_i = 0;
              Aw(m, 0x3008, 0, 3);  // narrow (8 bytes) at an 8-byte address: legal for u_nwr
              m.aw_valid_i = 0;
            }),
            Fired{});
}

void WriteAwChecks() {
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              Aw(m, 0x2000, 0);
              m.aw_ready_i = 0;
              c();
              m.aw_len_i = 1;  // payload changed while waiting
              c();
              m.aw_valid_i = 0;
            }),
            (Fired{"u_wr.AwHeld_A", "u_nwr.AwHeld_A"}));
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              Aw(m, 0x2000, 0);
              m.aw_burst_i = 2;  // WRAP
              c();
              m.aw_valid_i = 0;
            }),
            (Fired{"u_wr.AwIncr_A", "u_nwr.AwIncr_A"}));
  // 8-byte transfers (aligned to 8): narrow, legal only where Narrow is set.
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              Aw(m, 0x2008, 0, 3);
              c();
              m.aw_valid_i = 0;
            }),
            Fired{"u_wr.AwIncr_A"});
  // 64-byte transfers: wider than either bus.
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              Aw(m, 0x2000, 0, 6);
              c();
              m.aw_valid_i = 0;
            }),
            (Fired{"u_wr.AwIncr_A", "u_nwr.AwIncr_A"}));
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              Aw(m, 0x2004, 0);  // 16-byte transfer at a 4-byte address
              c();
              m.aw_valid_i = 0;
            }),
            (Fired{"u_wr.AwAligned_A", "u_nwr.AwAligned_A"}));
  // AXI5 AtomicStore: one 4- or 8-byte transfer on ID AxiIdAtop is legal on either bus.
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              Aw(m, 0x2004, 0, 2);
              m.aw_id_i = tma::pkg::AxiIdAtop;
              m.aw_atop_i = tma::pkg::AtopStAdd;
              c();
              m.aw_valid_i = 0;
            }),
            Fired{});
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              Aw(m, 0x2000, 1);  // an atomic burst of two 16-byte beats
              m.aw_id_i = tma::pkg::AxiIdAtop;
              m.aw_atop_i = tma::pkg::AtopStUmin;
              c();
              m.aw_valid_i = 0;
            }),
            (Fired{"u_wr.AwAtomicStore_A", "u_nwr.AwAtomicStore_A"}));
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              Aw(m, 0x2000, 0, 2);  // AtomicStore on the plain writes' ID
              m.aw_atop_i = tma::pkg::AtopStEor;
              c();
              m.aw_valid_i = 0;
            }),
            (Fired{"u_wr.AwAtomicStore_A", "u_nwr.AwAtomicStore_A"}));
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              Aw(m, 0x2000, 0);  // a plain write on the atomics' ID
              m.aw_id_i = tma::pkg::AxiIdAtop;
              c();
              m.aw_valid_i = 0;
            }),
            (Fired{"u_wr.AwAtopId_A", "u_nwr.AwAtopId_A"}));
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              Aw(m, 0x2FF0, 1);  // 32 bytes from 16 below the page end
              c();
              m.aw_valid_i = 0;
            }),
            (Fired{"u_wr.AwInPage_A", "u_nwr.AwInPage_A"}));
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              for (int i = 0; i < 5; ++i) {  // 5 bursts without data: u_wr holds 4
                Aw(m, 0x2000 + 16 * static_cast<uint64_t>(i), 0);
                c();
              }
              m.aw_valid_i = 0;
            }),
            Fired{"u_wr.AwCheckerRoom_A"});
}

void WriteWChecks() {
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              Aw(m, 0x2000, 0);
              c();
              m.aw_valid_i = 0;
              W(m, true, 1);
              m.w_ready_i = 0;
              c();
              m.w_data_i = 3;  // data changed while waiting
              c();
              m.w_valid_i = 0;
            }),
            (Fired{"u_wr.WHeld_A", "u_nwr.WHeld_A"}));
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              W(m, true);  // data before its AW
              c();
              m.w_valid_i = 0;
            }),
            (Fired{"u_wr.WAfterAw_A", "u_nwr.WAfterAw_A"}));
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              Aw(m, 0x2000, 1);  // two beats
              c();
              m.aw_valid_i = 0;
              W(m, true);  // WLAST on the first
              c();
              m.w_valid_i = 0;
            }),
            (Fired{"u_wr.WLastCount_A", "u_nwr.WLastCount_A"}));
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              Aw(m, 0x2000, 0);
              c();
              m.aw_valid_i = 0;
              W(m, true, 0, 0);  // no strobe
              c();
              m.w_valid_i = 0;
            }),
            (Fired{"u_wr.WStrobes_A", "u_nwr.WStrobes_A"}));
}

void WriteBChecks() {
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              Aw(m, 0x2000, 0);
              c();
              m.aw_valid_i = 0;
              W(m, true);  // W after its AW (the engine's rule: not in the AW's cycle)
              c();
              m.w_valid_i = 0;
              B(m);
              m.b_ready_i = 0;
              c();
              m.b_resp_i = 2;  // response changed while waiting
              c();
              m.b_valid_i = 0;
            }),
            (Fired{"u_wr.BHeld_A", "u_nwr.BHeld_A"}));
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              Aw(m, 0x2000, 0);  // AW without its data yet
              c();
              m.aw_valid_i = 0;
              B(m);  // B before the burst's data
              c();
              m.b_valid_i = 0;
            }),
            (Fired{"u_wr.BAfterW_A", "u_nwr.BAfterW_A"}));
}

// ---- AXI4-Lite (u_axil, MaxWait 16) ----
void AxiLiteLegalTrafficIsSilent() {
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              m.l_awvalid_i = 1;
              m.l_awaddr_i = 0x40;
              m.l_wvalid_i = 1;
              m.l_wdata_i = 5;
              c();
              m.l_awready_i = 1;
              m.l_wready_i = 1;
              c();
              m.l_awvalid_i = m.l_wvalid_i = m.l_awready_i = m.l_wready_i = 0;
              m.l_bvalid_i = 1;
              m.l_bresp_i = 2;
              c();
              m.l_bready_i = 1;
              c();
              m.l_bvalid_i = m.l_bready_i = 0;
              m.l_arvalid_i = m.l_arready_i = 1;
              m.l_araddr_i = 0x44;
              c();
              m.l_arvalid_i = m.l_arready_i = 0;
              m.l_rvalid_i = m.l_rready_i = 1;
              c();
              m.l_rvalid_i = m.l_rready_i = 0;
            }),
            Fired{});
}

void AxiLiteHeld() {
  auto held = [](int which) {
    return Run([which](M& m, const Clk& c) {
      if (which == 0) {
        m.l_awvalid_i = 1;
        c();
        m.l_awaddr_i = 4;
      } else if (which == 1) {
        m.l_wvalid_i = 1;
        c();
        m.l_wstrb_i = 1;
      } else {
        m.l_arvalid_i = 1;
        c();
        m.l_araddr_i = 8;
      }
      c();
      m.l_awvalid_i = m.l_wvalid_i = m.l_arvalid_i = 0;
    });
  };
  EXPECT_EQ(held(0), Fired{"u_axil.AwHeld_A"});
  EXPECT_EQ(held(1), Fired{"u_axil.WHeld_A"});
  EXPECT_EQ(held(2), Fired{"u_axil.ArHeld_A"});
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              m.l_awvalid_i = m.l_awready_i = m.l_wvalid_i = m.l_wready_i = 1;
              c();
              m.l_awvalid_i = m.l_awready_i = m.l_wvalid_i = m.l_wready_i = 0;
              m.l_bvalid_i = 1;
              c();
              m.l_bvalid_i = 0;  // withdrawn before bready
              c();
              m.l_bvalid_i = m.l_bready_i = 1;
              c();
              m.l_bvalid_i = m.l_bready_i = 0;
            }),
            Fired{"u_axil.BHeld_A"});
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              m.l_arvalid_i = m.l_arready_i = 1;
              c();
              m.l_arvalid_i = m.l_arready_i = 0;
              m.l_rvalid_i = 1;
              c();
              m.l_rdata_i = 9;  // data changed while waiting
              c();
              m.l_rready_i = 1;
              c();
              m.l_rvalid_i = m.l_rready_i = 0;
            }),
            Fired{"u_axil.RHeld_A"});
}

void AxiLiteResponses() {
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              m.l_bvalid_i = m.l_bready_i = 1;  // no write accepted
              c();
              m.l_bvalid_i = m.l_bready_i = 0;
            }),
            Fired{"u_axil.BAfterWrite_A"});
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              m.l_rvalid_i = m.l_rready_i = 1;  // no read accepted
              c();
              m.l_rvalid_i = m.l_rready_i = 0;
            }),
            Fired{"u_axil.RAfterRead_A"});
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              m.l_awvalid_i = m.l_awready_i = m.l_wvalid_i = m.l_wready_i = 1;
              c();
              m.l_awvalid_i = m.l_awready_i = m.l_wvalid_i = m.l_wready_i = 0;
              m.l_bvalid_i = m.l_bready_i = 1;
              m.l_bresp_i = 3;  // DECERR: the port never answers it
              c();
              m.l_bvalid_i = m.l_bready_i = 0;
            }),
            Fired{"u_axil.BRespLegal_A"});
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              m.l_arvalid_i = m.l_arready_i = 1;
              c();
              m.l_arvalid_i = m.l_arready_i = 0;
              m.l_rvalid_i = m.l_rready_i = 1;
              m.l_rresp_i = 1;  // EXOKAY
              c();
              m.l_rvalid_i = m.l_rready_i = 0;
            }),
            Fired{"u_axil.RRespLegal_A"});
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              m.l_awvalid_i = m.l_awready_i = m.l_wvalid_i = m.l_wready_i = 1;
              c();
              m.l_awvalid_i = m.l_awready_i = m.l_wvalid_i = m.l_wready_i = 0;
              for (int i = 0; i < 20; ++i)  // never answered
                c();
            }),
            Fired{"u_axil.WriteAnswered_A"});
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              m.l_arvalid_i = m.l_arready_i = 1;
              c();
              m.l_arvalid_i = m.l_arready_i = 0;
              for (int i = 0; i < 20; ++i)
                c();
            }),
            Fired{"u_axil.ReadAnswered_A"});
}

// ---- Stream (u_st) ----
void StreamHeld() {
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              m.s_valid_i = 1;
              m.s_data_i = 1;
              c();
              m.s_ready_i = 1;  // a stall, then the handshake: legal
              c();
              m.s_valid_i = 0;
              m.s_ready_i = 0;
            }),
            Fired{});
  EXPECT_EQ(Run([](M& m, const Clk& c) {
              m.s_valid_i = 1;
              m.s_data_i = 1;
              c();
              m.s_data_i = 2;
              c();
              m.s_valid_i = 0;
            }),
            Fired{"u_st.StreamHeld_A"});
}

// Every assertion of the checkers, from their sources (TMA_ASSERT* macros, parameter checks
// left out): a checker gaining an assertion without a planted violation here fails the test.
std::set<std::string> AssertionsOf(const std::string& file, const std::string& inst) {
  std::set<std::string> names;
  FILE* f = std::fopen((std::string(TMA_SOURCE_DIR) + "/rtl/sva/" + file).c_str(), "r");
  EXPECT_NE(f, nullptr) << file;
  if (f == nullptr)
    return names;
  char line[1024];
  const std::regex def(R"(`TMA_ASSERT(?:_IMPLY|_STABLE|_NEVER)?\((\w+_A))");
  while (std::fgets(line, sizeof line, f)) {
    const std::string s(line);
    std::smatch mt;
    if (std::regex_search(s, mt, def))
      names.insert(inst + "." + mt[1].str());
  }
  std::fclose(f);
  return names;
}

// Each violation fires exactly its assertions; legal traffic fires none; every assertion of
// every checker fired at least once.
TEST(SvaCheckers, PlantedViolations) {
  {
    SCOPED_TRACE("ReadLegalTrafficIsSilent");
    ReadLegalTrafficIsSilent();
  }
  {
    SCOPED_TRACE("ReadArHeld");
    ReadArHeld();
  }
  {
    SCOPED_TRACE("ReadArBurstForm");
    ReadArBurstForm();
  }
  {
    SCOPED_TRACE("ReadCheckerRoom");
    ReadCheckerRoom();
  }
  {
    SCOPED_TRACE("ReadResponses");
    ReadResponses();
  }
  {
    SCOPED_TRACE("WriteLegalTrafficIsSilent");
    WriteLegalTrafficIsSilent();
  }
  {
    SCOPED_TRACE("WriteAwChecks");
    WriteAwChecks();
  }
  {
    SCOPED_TRACE("WriteWChecks");
    WriteWChecks();
  }
  {
    SCOPED_TRACE("WriteBChecks");
    WriteBChecks();
  }
  {
    SCOPED_TRACE("AxiLiteLegalTrafficIsSilent");
    AxiLiteLegalTrafficIsSilent();
  }
  {
    SCOPED_TRACE("AxiLiteHeld");
    AxiLiteHeld();
  }
  {
    SCOPED_TRACE("AxiLiteResponses");
    AxiLiteResponses();
  }
  {
    SCOPED_TRACE("StreamHeld");
    StreamHeld();
  }
  std::set<std::string> want;
  for (const auto& [file, inst] :
       {std::make_pair("tma_axi_rd_sva.sv", "u_rd"), std::make_pair("tma_axi_wr_sva.sv", "u_wr"),
        std::make_pair("tma_axil_sva.sv", "u_axil"), std::make_pair("tma_stream_sva.sv", "u_st")}) {
    const auto n = AssertionsOf(file, inst);
    want.insert(n.begin(), n.end());
  }
  EXPECT_GE(want.size(), 30u) << "the checkers' sources were not read";
  for (const std::string& n : want)
    EXPECT_TRUE(AllFired().count(n)) << n << " never fired";
  for (const char* n : {"u_nwr.AwIncr_A", "u_nwr.AwAligned_A"})
    EXPECT_TRUE(AllFired().count(n)) << n << " never fired";
}

}  // namespace
