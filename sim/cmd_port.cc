// SPDX-License-Identifier: Apache-2.0
//
// The command port: codec and driver (cmd_port.h).
#include "sim/cmd_port.h"

namespace tma::sim {

namespace m = tma::model;

void CmdCodec::Encode(const EngineCommand& c, TopPins* p) {
  const m::TensorInstr& in = c.instr;
  p->cmd_op = static_cast<uint8_t>(in.op);
  p->cmd_mode = static_cast<uint8_t>(in.mode);
  p->cmd_redop = static_cast<uint8_t>(in.redop);
  p->cmd_dim = static_cast<uint8_t>(in.dim);
  p->cmd_desc_addr = c.desc_addr;
  for (int i = 0; i < 5; ++i) {
    p->cmd_coords[i] =
        i < static_cast<int>(in.coords.size()) ? static_cast<uint32_t>(in.coords[i]) : 0u;
  }
  uint64_t im = 0;
  for (size_t i = 0; i < in.im2col_info.size() && i < 3; ++i) {
    im |= static_cast<uint64_t>(in.im2col_info[i]) << (16 * i);
  }
  p->cmd_im2col = im;
  p->cmd_smem_addr = in.smem_addr;
  p->cmd_mbar_addr = in.mbar_addr;
  p->cmd_multicast = in.multicast;
  p->cmd_cta_mask = in.cta_mask;
  p->cmd_issuer = static_cast<uint8_t>(in.issuer_cta);
  p->cmd_dst_cta = static_cast<uint8_t>(in.dst_cta < 0 ? in.issuer_cta : in.dst_cta);
  p->cmd_cta_group = static_cast<uint8_t>(in.cta_group);
  p->cmd_tag = c.tag;
}

EngineCommand CmdCodec::Decode(const TopPins& p) {
  EngineCommand c;
  m::TensorInstr& in = c.instr;
  in.op = static_cast<m::Op>(p.cmd_op);
  in.mode = static_cast<m::LoadMode>(p.cmd_mode);
  in.redop = static_cast<m::RedOp>(p.cmd_redop);
  in.dim = static_cast<int>(p.cmd_dim);
  c.desc_addr = p.cmd_desc_addr;
  const int ncoords =
      in.mode == m::LoadMode::kTileGather4 || in.mode == m::LoadMode::kTileScatter4 ? 5 : in.dim;
  for (int i = 0; i < ncoords && i < 5; ++i) {
    in.coords.push_back(static_cast<int32_t>(p.cmd_coords[i]));
  }
  int nim = 0;
  if (in.mode == m::LoadMode::kIm2col) {
    nim = in.dim - 2;
  } else if (in.mode == m::LoadMode::kIm2colW || in.mode == m::LoadMode::kIm2colW128) {
    nim = 2;
  }
  for (int i = 0; i < nim; ++i) {
    in.im2col_info.push_back(static_cast<uint16_t>(p.cmd_im2col >> (16 * i)));
  }
  in.smem_addr = p.cmd_smem_addr;
  in.mbar_addr = p.cmd_mbar_addr;
  in.multicast = p.cmd_multicast;
  in.cta_mask = p.cmd_cta_mask;
  in.issuer_cta = static_cast<int>(p.cmd_issuer);
  in.dst_cta = static_cast<int>(p.cmd_dst_cta);
  in.cta_group = static_cast<int>(p.cmd_cta_group);
  c.tag = p.cmd_tag;
  return c;
}

void CmdPort::Tick(TopPins& p, uint64_t /*now*/) {
  if (!p.rst_n) {
    p.cmd_valid = false;
    return;
  }
  p.desc_inval = false;
  if (driving_ && p.cmd_ready) {
    driving_ = false;
    p.cmd_valid = false;
    ++accepted_;
    if (acc_) {
      acc_(cur_);
    }
  }
  if (driving_ || !rng_->Chance(valid_pct_)) {
    return;
  }
  if (!src_ || !src_(&cur_)) {
    return;
  }
  if (cur_.inval_before) {
    p.desc_inval = true;
  }
  CmdCodec::Encode(cur_, &p);
  p.cmd_valid = true;
  driving_ = true;
}

}  // namespace tma::sim
