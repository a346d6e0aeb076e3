// SPDX-License-Identifier: Apache-2.0
//
// What the RTL engine implements (rtl_support.h), from the generated claims.
#include "sim/rtl_support.h"

#include <cstring>
#include <optional>
#include <vector>

#include "tma/bulk_copy.h"
#include "tma/descriptor.h"
#include "tma/encoder.h"
#include "tma/golden_replay.h"

#include "tma/autogen/numbering.h"

namespace tma::sim {

namespace m = tma::model;
namespace num = tma::model::num;

namespace {
bool Bit(uint32_t mask, int code) {
  return code >= 0 && code < 32 && ((mask >> code) & 1u) != 0;
}
}  // namespace

bool RtlImplementsOp(m::Op op) {
  return Bit(num::kClaimOpsSm90 | num::kClaimOpsSm100, static_cast<int>(op));
}

bool RtlImplementsDType(m::DType t, const RtlBuild& b) {
  const uint8_t pk = num::kElemPk[static_cast<int>(t)];
  return pk == num::kPkNone || b.sub_byte;
}

std::string RtlUnclaimed(const RtlCommandKind& k, const RtlBuild& b) {
  const bool sm90 = k.arch == m::Arch::kSm90;
  const std::string gen = sm90 ? "sm_90" : "sm_100+";
  if (static_cast<int>(k.arch) > static_cast<int>(b.arch)) {
    return std::string("this top is built for ") + m::ToString(b.arch) +
           " at most (Arch = " + std::to_string(static_cast<int>(b.arch)) +
           "): it applies those rules to a " + m::ToString(k.arch) + " case";
  }
  if ((k.op == m::Op::kStore || k.op == m::Op::kReduce) && !b.store_path) {
    return "this top has no write direction (StorePath = 0)";
  }
  if (!Bit(sm90 ? num::kClaimOpsSm90 : num::kClaimOpsSm100, static_cast<int>(k.op))) {
    return std::string("the RTL does not claim ") + m::ToString(k.op) + " of " + gen +
           " cases (rtl_claims)";
  }
  if (!Bit(sm90 ? num::kClaimModesSm90 : num::kClaimModesSm100, static_cast<int>(k.mode))) {
    return std::string("the RTL does not claim ") + m::ToString(k.mode) + " mode of " + gen +
           " cases (rtl_claims)";
  }
  if (k.cta_group == 2 && !num::kClaimCtaGroup2) {
    return "the RTL does not claim .cta_group::2 (rtl_claims)";
  }
  if (k.op == m::Op::kStore && k.dtype == m::DType::kB6x16P32) {
    // (the model packs each 16-element group to 12 bytes on the way out; the store direction
    // writes the shared bytes as they are)
    return "a store of b6x16_p32: the RTL's store direction has no packer (rtl_claims)";
  }
  // (on sm_90 the packed sub-byte types are an invalid_descriptor of the encoder rules, which
  // the RTL checks without the unpacker)
  if (!sm90 && !RtlImplementsDType(k.dtype, b)) {
    return std::string("element type ") + m::ToString(k.dtype) +
           " needs the unpacker (SubByte = 1), which this top (DataBytes " +
           std::to_string(b.data_bytes) + ") is built without";
  }
  return "";
}

namespace {
// The bulk operations the RTL runs (tma_bulk_rows, tma_s2s_copy): every copy and reduction
// direction and the prefetch.
std::string BulkSkipReason(const m::GoldenCase& c, const RtlBuild& b) {
  const m::GoldenBulk& k = *c.bulk;
  if (!b.bulk) {
    return "this top does not take the non-tensor bulk commands";
  }
  if (RtlBuildRefusal(c, b, m::Arch::kSm90)) {
    return "";  // refused before any check: runs to see the refusal
  }
  if (k.ptx_size_check != b.bulk_size_strict) {
    return std::string("bulk size check \"") + (k.ptx_size_check ? "ptx" : "silicon") +
           "\": this top is built with BulkSizeStrict = " + (b.bulk_size_strict ? "1" : "0");
  }
  const int ctas = c.NumCtas();
  const uint16_t mask = c.cluster && c.cluster->cta_mask ? *c.cluster->cta_mask : 0;
  if (c.Issuer() >= ctas || (c.dst_cta && *c.dst_cta >= ctas) ||
      (ctas < 16 && (mask >> ctas) != 0)) {
    return "a CTA number at or above the cluster size (" + std::to_string(ctas) +
           "): the top has no cluster-size input (F6 is the launcher's check)";
  }
  return "";
}
}  // namespace

EngineCommand RtlBulkCommand(const m::GoldenCase& c, uint8_t tag) {
  const m::GoldenBulk& k = *c.bulk;
  const uint64_t base = m::CaseGlobalBase(c);
  EngineCommand e;
  e.tag = tag;
  m::TensorInstr& in = e.instr;
  in.op = c.op;
  in.redop = c.redop;
  in.mbar_addr = c.Mbar();
  in.issuer_cta = c.Issuer();
  in.dst_cta = c.dst_cta ? *c.dst_cta : -1;
  // (as the model's replay: .multicast::cluster on either copy direction, never on a reduction)
  if ((c.op == m::Op::kLoad || c.op == m::Op::kStore) && c.cluster && c.cluster->cta_mask) {
    in.multicast = true;
    in.cta_mask = *c.cluster->cta_mask;
  }
  BulkCommand b;
  const bool s2s = k.dir == m::BulkDir::kSharedCtaToSharedCluster;
  const bool to_global = (c.op == m::Op::kStore || c.op == m::Op::kReduce) && !s2s;
  // coords[2][5]: the destination is .shared::cluster (a load's, or a store's / reduction's
  // from shared::cta, whose destination offset in CTA dst_cta's window takes the global
  // address's place).
  b.to_cluster = (c.op == m::Op::kLoad && k.dir == m::BulkDir::kGlobalToSharedCluster) || s2s;
  b.gaddr = s2s ? k.dst : base + (to_global ? k.dst : k.src);
  b.saddr = static_cast<uint32_t>(to_global || s2s ? k.src : k.dst);
  b.size = k.size;
  b.cp_mask = k.cp_mask;
  b.type = static_cast<uint8_t>(k.type.value_or(m::BulkType::kU32));
  b.noftz = k.noftz;
  e.bulk = b;
  return e;
}

namespace {
// The kind of a tensor case (nothing when its arch is not known). The element type is the
// one the engine will see: the descriptor's when the case has one.
std::optional<RtlCommandKind> TensorCaseKind(const m::GoldenCase& c) {
  const std::optional<m::Arch> arch = m::ParseArch(c.arch);
  if (!arch) {
    return std::nullopt;
  }
  m::DType dtype = c.tensor.dtype;
  if (c.descriptor_hex) {
    m::TensorMap map;
    if (m::CaseMap(c, &map).ok()) {
      dtype = map.dtype;
    }
  }
  RtlCommandKind k;
  k.op = c.op;
  k.mode = c.mode;
  k.dtype = dtype;
  k.arch = *arch;
  k.cta_group = c.cluster ? c.cluster->cta_group : 0;
  return k;
}
}  // namespace

std::string RtlSkipReason(const m::GoldenCase& c, const RtlBuild& b) {
  if (c.bulk) {
    return BulkSkipReason(c, b);
  }
  const std::optional<RtlCommandKind> k = TensorCaseKind(c);
  if (!k) {
    return "arch " + c.arch + " is not known";
  }
  // A case whose answer is `unsupported` runs whatever the claims: the RTL must decline it.
  // So does a reduction in scatter4 mode, which is no instruction (seed 003: .tile and
  // .im2col_no_offs only): the RTL must refuse it as the model does, whatever the arch.
  // A case this top refuses by construction runs, whatever its store reading (RtlBuildRefusal).
  if (RtlBuildRefusal(c, b, k->arch)) {
    return "";
  }
  const bool declines = (c.expect.error && *c.expect.error == m::ErrorClass::kUnsupported) ||
                        (c.op == m::Op::kReduce && c.mode == m::LoadMode::kTileScatter4);
  if (std::string why = RtlUnclaimed(*k, b); !why.empty() && !declines) {
    return why;
  }
  if ((c.op == m::Op::kStore || c.op == m::Op::kReduce) &&
      c.store_clip_element != b.store_clip_element) {
    return std::string("store clipping \"") + (c.store_clip_element ? "element" : "granule") +
           "\": this top is built with StoreClipElem = " + (b.store_clip_element ? "1" : "0");
  }
  return "";
}

bool RtlClaims(const m::GoldenCase& c, const RtlBuild& b) {
  if (c.bulk) {
    return RtlSkipReason(c, b).empty() && !RtlBuildRefusal(c, b, m::Arch::kSm90);
  }
  // (a case the RTL runs only to see it refused, RtlSkipReason's `declines`, is not claimed)
  const std::optional<RtlCommandKind> k = TensorCaseKind(c);
  return (c.op == m::Op::kStore || c.op == m::Op::kReduce) &&
         (c.mode == m::LoadMode::kTile || c.mode == m::LoadMode::kIm2colNoOffs ||
          c.mode == m::LoadMode::kTileScatter4) &&
         k && RtlUnclaimed(*k, b).empty() && RtlSkipReason(c, b).empty();
}

std::optional<m::Status> RtlBuildRefusal(const m::GoldenCase& c, const RtlBuild& b, m::Arch arch) {
  const bool writes = c.op == m::Op::kStore || c.op == m::Op::kReduce;
  if (b.store_path || !writes) {
    return std::nullopt;
  }
  const m::Status unsupported = m::Status::Error(
      m::ErrorClass::kUnsupported, "op", "no write direction in this engine (StorePath = 0)");
  if (c.bulk) {
    if (c.bulk->dir == m::BulkDir::kSharedCtaToSharedCluster) {
      return std::nullopt;  // shared::cta -> shared::cluster: no global write
    }
    return unsupported;
  }
  if (std::optional<m::Status> host = RtlHostEncoderRefusal(c)) {
    return host;  // the host's encoder refuses the map: no engine sees it
  }
  uint8_t desc[m::kDescriptorBytes];
  if (!RtlCaseDescriptor(c, desc).empty()) {
    return std::nullopt;  // the harness cannot hand it to an engine
  }
  m::TensorMap map;
  if (m::Status st = m::DecodeDescriptor(desc, &map); !st.ok()) {
    return st;
  }
  const m::Arch eff = static_cast<int>(arch) > static_cast<int>(b.arch) ? b.arch : arch;
  if (m::Status st = m::ValidateTensorMap(map, eff); !st.ok()) {
    return st;
  }
  return unsupported;
}

std::optional<m::Status> RtlHostEncoderRefusal(const m::GoldenCase& c) {
  const std::optional<m::Arch> arch = m::ParseArch(c.arch);
  if (c.bulk || c.descriptor_hex || !arch) {
    return std::nullopt;
  }
  m::TensorMap map;
  if (m::Status st = m::CaseTensorMap(c, m::CaseGlobalBase(c), &map); !st.ok()) {
    return st;  // the driver's arrays do not make a map (a rank and arrays that disagree)
  }
  const m::DescriptorBytes d = m::EncodeDescriptor(map);
  m::TensorMap back;
  if (!m::DecodeDescriptor(d.data(), &back).ok() || back == map) {
    return std::nullopt;  // the engine gets the bytes (RtlCaseDescriptor) and checks them
  }
  m::Status st = m::ValidateTensorMap(map, *arch);
  if (st.ok()) {
    return std::nullopt;
  }
  return st;
}

std::string RtlCaseDescriptor(const m::GoldenCase& c, uint8_t* desc) {
  if (c.descriptor_hex) {
    std::vector<uint8_t> d;
    if (!m::FromHex(*c.descriptor_hex, &d) || d.size() != m::kDescriptorBytes) {
      return "descriptor_hex is not 128 bytes";
    }
    std::memcpy(desc, d.data(), m::kDescriptorBytes);
  } else {
    m::TensorMap map;
    m::Status st = m::CaseTensorMap(c, m::CaseGlobalBase(c), &map);
    if (!st.ok()) {
      return "the host cannot encode this map (" + st.ToString() + "); no engine sees it";
    }
    m::DescriptorBytes d = m::EncodeDescriptor(map);
    m::TensorMap back;
    if (m::DecodeDescriptor(d.data(), &back).ok() && !(back == map)) {
      return "the map does not fit the descriptor's fields (no 128-byte encoding)";
    }
    std::memcpy(desc, d.data(), m::kDescriptorBytes);
  }
  // Maps go to the engine even when the case's encoder refuses them: the RTL checks the encoder
  // rules of its architecture (arch_i) itself, the sm_100 / sm_103 ones (sub-byte types,
  // 128B-atom and 96B swizzles, im2col-wide maps) included, and the CTA operands against the
  // cluster size (cluster_i).
  return "";
}

}  // namespace tma::sim
