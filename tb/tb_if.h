// SPDX-License-Identifier: Apache-2.0
//
// The signals between the bench and tma_sim_top (docs/DUT interface, flat ports): the
// "virtual interface" every agent reaches through the config store (key "vif").
// Types follow Verilator's SystemC mapping: 1 bit bool, 2..32 bits uint32_t, 33..64 bits
// uint64_t, wider sc_bv<N>. The bench is built for DataBytes = kDataBytes.
#ifndef TMA_TB_TB_IF_H_
#define TMA_TB_TB_IF_H_

#include <cstdint>

#include <systemc>

namespace tma::tb {

inline constexpr int kDataBytes = 16;
inline constexpr int kDataBits = kDataBytes * 8;
inline constexpr int kNumCtas = 16;

template <class T>
using Sig = sc_core::sc_signal<T>;
using DataBv = sc_dt::sc_bv<kDataBits>;
using CoordBv = sc_dt::sc_bv<160>;

struct TmaIf {
  sc_core::sc_clock clk{"clk", 1, sc_core::SC_NS};
  Sig<bool> rst_n{"rst_n"};
  // command
  Sig<bool> cmd_valid{"cmd_valid"}, cmd_ready{"cmd_ready"};
  Sig<uint32_t> cmd_op{"cmd_op"}, cmd_mode{"cmd_mode"}, cmd_redop{"cmd_redop"}, cmd_dim{"cmd_dim"};
  Sig<uint64_t> cmd_desc_addr{"cmd_desc_addr"};
  Sig<CoordBv> cmd_coords{"cmd_coords"};
  Sig<uint64_t> cmd_im2col{"cmd_im2col"};
  Sig<uint32_t> cmd_smem_addr{"cmd_smem_addr"}, cmd_mbar_addr{"cmd_mbar_addr"};
  Sig<bool> cmd_multicast{"cmd_multicast"};
  Sig<uint32_t> cmd_cta_mask{"cmd_cta_mask"}, cmd_issuer{"cmd_issuer"}, cmd_dst_cta{"cmd_dst_cta"},
      cmd_cta_group{"cmd_cta_group"}, cmd_tag{"cmd_tag"};
  Sig<bool> desc_inval{"desc_inval"};
  // AXI AR / R
  Sig<bool> arvalid{"arvalid"}, arready{"arready"};
  Sig<uint32_t> arid{"arid"}, arlen{"arlen"}, arsize{"arsize"}, arburst{"arburst"};
  Sig<uint64_t> araddr{"araddr"};
  Sig<bool> rvalid{"rvalid"}, rready{"rready"}, rlast{"rlast"};
  Sig<uint32_t> rid{"rid"}, rresp{"rresp"};
  Sig<DataBv> rdata{"rdata"};
  // AXI AW / W / B (stores; the load engine ties them off)
  Sig<bool> awvalid{"awvalid"}, awready{"awready"};
  Sig<uint32_t> awid{"awid"}, awlen{"awlen"}, awsize{"awsize"}, awburst{"awburst"};
  Sig<uint64_t> awaddr{"awaddr"};
  Sig<bool> wvalid{"wvalid"}, wready{"wready"}, wlast{"wlast"};
  Sig<DataBv> wdata{"wdata"};
  Sig<uint32_t> wstrb{"wstrb"};
  Sig<bool> bvalid{"bvalid"}, bready{"bready"};
  Sig<uint32_t> bid{"bid"}, bresp{"bresp"};
  // shared-memory write / read
  Sig<bool> smem_wr_valid{"smem_wr_valid"}, smem_wr_ready{"smem_wr_ready"};
  Sig<uint32_t> smem_wr_addr{"smem_wr_addr"}, smem_wr_strb{"smem_wr_strb"},
      smem_wr_cta_mask{"smem_wr_cta_mask"};
  Sig<DataBv> smem_wr_data{"smem_wr_data"};
  Sig<bool> smem_rd_valid{"smem_rd_valid"}, smem_rd_ready{"smem_rd_ready"};
  Sig<uint32_t> smem_rd_addr{"smem_rd_addr"}, smem_rd_cta{"smem_rd_cta"};
  Sig<bool> smem_rd_rvalid{"smem_rd_rvalid"};
  Sig<DataBv> smem_rd_rdata{"smem_rd_rdata"};
  // completion
  Sig<bool> cpl_valid{"cpl_valid"}, cpl_ready{"cpl_ready"};
  Sig<uint32_t> cpl_kind{"cpl_kind"}, cpl_cta{"cpl_cta"}, cpl_mbar_addr{"cpl_mbar_addr"},
      cpl_bytes{"cpl_bytes"}, cpl_error{"cpl_error"}, cpl_tag{"cpl_tag"};
  // status
  Sig<bool> busy{"busy"};
  Sig<uint32_t> err_count{"err_count"};
};

// Byte k of a data beat lives at bits [8k+7:8k].
inline void BvToBytes(const DataBv& bv, uint8_t* out) {
  for (int w = 0; w < kDataBytes / 4; ++w) {
    uint32_t v = bv.get_word(w);
    for (int k = 0; k < 4; ++k) {
      out[4 * w + k] = static_cast<uint8_t>(v >> (8 * k));
    }
  }
}
inline DataBv BytesToBv(const uint8_t* in) {
  DataBv bv;
  for (int w = 0; w < kDataBytes / 4; ++w) {
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      v |= static_cast<uint32_t>(in[4 * w + k]) << (8 * k);
    }
    bv.set_word(w, v);
  }
  return bv;
}

}  // namespace tma::tb

#endif  // TMA_TB_TB_IF_H_
