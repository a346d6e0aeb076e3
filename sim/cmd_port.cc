// SPDX-License-Identifier: Apache-2.0
//
// The command port: codec and driver (cmd_port.h).
#include "sim/cmd_port.h"

#include <algorithm>

namespace tma::sim {

namespace m = tma::model;

namespace pkg = tma::pkg;

pkg::cmd_t CmdCodec::Encode(const EngineCommand& c) {
  const m::TensorInstr& in = c.instr;
  pkg::cmd_t cmd;
  if (c.bulk) {
    const BulkCommand& b = *c.bulk;
    cmd.op = static_cast<uint8_t>(in.op);
    cmd.mode = pkg::BulkMode;
    cmd.redop = static_cast<uint8_t>(in.redop);
    cmd.desc_addr = b.gaddr;
    cmd.smem_addr = b.saddr;
    cmd.coords.v[0] = b.size;
    cmd.coords.v[1] = b.cp_mask ? (uint32_t{1} << 16) | *b.cp_mask : 0;
    cmd.coords.v[2] =
        (b.type & 15u) | (b.noftz ? 16u : 0u) | (b.to_cluster ? 32u : 0u) | (b.commit ? 64u : 0u);
    cmd.mbar_addr = in.mbar_addr;
    cmd.multicast = in.multicast;
    cmd.cta_mask = in.cta_mask;
    cmd.issuer = static_cast<uint8_t>(in.issuer_cta);
    cmd.dst_cta = static_cast<uint8_t>(in.dst_cta < 0 ? in.issuer_cta : in.dst_cta);
    cmd.tag = c.tag;
    return cmd;
  }
  cmd.op = static_cast<uint8_t>(in.op);
  cmd.mode = static_cast<uint8_t>(in.mode);
  cmd.redop = static_cast<uint8_t>(in.redop);
  cmd.dim = static_cast<uint8_t>(in.dim);
  cmd.desc_addr = c.desc_addr;
  for (size_t i = 0; i < in.coords.size() && i < cmd.coords.v.size(); ++i) {
    cmd.coords.v[i] = static_cast<uint32_t>(in.coords[i]);
  }
  for (size_t i = 0; i < in.im2col_info.size() && i < cmd.im2col.v.size(); ++i) {
    cmd.im2col.v[i] = in.im2col_info[i];
  }
  cmd.smem_addr = in.smem_addr;
  cmd.mbar_addr = in.mbar_addr;
  cmd.multicast = in.multicast;
  cmd.cta_mask = in.cta_mask;
  cmd.issuer = static_cast<uint8_t>(in.issuer_cta);
  cmd.dst_cta = static_cast<uint8_t>(in.dst_cta < 0 ? in.issuer_cta : in.dst_cta);
  cmd.cta_group = static_cast<uint8_t>(in.cta_group);
  cmd.smem_cta = in.smem_space == m::SmemSpace::kSharedCta;
  cmd.mbar_remote = in.mbar_cta >= 0;
  cmd.mbar_cta = static_cast<uint8_t>(in.mbar_cta >= 0 ? in.mbar_cta : 0);
  cmd.tag = c.tag;
  return cmd;
}

EngineCommand CmdCodec::Decode(const pkg::cmd_t& cmd) {
  EngineCommand c;
  m::TensorInstr& in = c.instr;
  if (cmd.mode == pkg::BulkMode) {
    BulkCommand b;
    b.gaddr = cmd.desc_addr;
    b.saddr = cmd.smem_addr;
    b.size = cmd.coords.v[0];
    if ((cmd.coords.v[1] >> 16) & 1u) {
      b.cp_mask = static_cast<uint16_t>(cmd.coords.v[1]);
    }
    b.type = static_cast<uint8_t>(cmd.coords.v[2] & 15u);
    b.noftz = ((cmd.coords.v[2] >> 4) & 1u) != 0;
    b.to_cluster = ((cmd.coords.v[2] >> 5) & 1u) != 0;
    b.commit = ((cmd.coords.v[2] >> 6) & 1u) != 0;
    c.bulk = b;
    in.op = static_cast<m::Op>(cmd.op);
    in.redop = static_cast<m::RedOp>(cmd.redop);
    in.mbar_addr = cmd.mbar_addr;
    in.multicast = cmd.multicast;
    in.cta_mask = cmd.cta_mask;
    in.issuer_cta = static_cast<int>(cmd.issuer);
    in.dst_cta = static_cast<int>(cmd.dst_cta);
    c.tag = cmd.tag;
    return c;
  }
  in.op = static_cast<m::Op>(cmd.op);
  in.mode = static_cast<m::LoadMode>(cmd.mode);
  in.redop = static_cast<m::RedOp>(cmd.redop);
  in.dim = static_cast<int>(cmd.dim);
  c.desc_addr = cmd.desc_addr;
  const int ncoords = cmd.mode == pkg::ModeTileGather4 || cmd.mode == pkg::ModeTileScatter4
                          ? static_cast<int>(cmd.coords.v.size())
                          : in.dim;
  for (int i = 0; i < ncoords && i < static_cast<int>(cmd.coords.v.size()); ++i) {
    in.coords.push_back(static_cast<int32_t>(cmd.coords.v[i]));
  }
  int nim = 0;
  if (cmd.mode == pkg::ModeIm2col) {
    nim = in.dim - 2;
  } else if (cmd.mode == pkg::ModeIm2colW || cmd.mode == pkg::ModeIm2colW128) {
    nim = 2;
  }
  for (size_t i = 0; i < static_cast<size_t>(std::max(nim, 0)); ++i) {
    in.im2col_info.push_back(i < cmd.im2col.v.size() ? cmd.im2col.v[i] : uint16_t{0});
  }
  in.smem_addr = cmd.smem_addr;
  in.mbar_addr = cmd.mbar_addr;
  in.multicast = cmd.multicast;
  in.cta_mask = cmd.cta_mask;
  in.issuer_cta = static_cast<int>(cmd.issuer);
  in.dst_cta = static_cast<int>(cmd.dst_cta);
  in.cta_group = static_cast<int>(cmd.cta_group);
  in.smem_space = cmd.smem_cta ? m::SmemSpace::kSharedCta : m::SmemSpace::kSharedCluster;
  in.mbar_cta = cmd.mbar_remote ? static_cast<int>(cmd.mbar_cta) : -1;
  c.tag = cmd.tag;
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
