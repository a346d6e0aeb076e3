// SPDX-License-Identifier: Apache-2.0
//
// What the RTL engine (tma_sim_top) implements: the ONE list every harness consults. It is
// built from the claims generated out of the numbering source (rtl/data/tma_numbering.json
// "rtl_claims" -> kClaim* of cmodel/include/tma/autogen/numbering.h) and the top's SubByte
// parameter. The RTL applies the case's architecture (arch_i) and cluster size (cluster_i): of
// an sm_90 case it claims loads and prefetches in tile and im2col mode (and in the sm_100 modes,
// which it refuses as the model's sm_90 does) and stores and reductions (read-modify-write) in
// tile and im2col_no_offs mode; of an sm_100+ case loads and
// prefetches in tile, im2col, im2col::w, im2col::w::128 and tile::gather4 mode (multicast,
// remote destinations and .cta_group::2 included). Element types: every whole-byte type and
// b4x16 (a byte copy); b4x16_p64 / b6x16_p32 only in a top built with SubByte = 1
// (tma_sim_top's default for DataBytes <= 32). Non-tensor bulk operations: every one
// (cp.async.bulk in each direction, cp.reduce.async.bulk to global and to shared::cluster,
// cp.async.bulk.prefetch), in a top built with the bulk commands and the case's size check.
//
// A top built smaller (tma_engine's Arch and StorePath, RtlBuild::arch / store_path) claims
// less: a case whose arch is newer than the top's Arch is outside the claims (the top would
// apply its own, older rules), and a top without the write direction claims no store,
// reduction or copy / reduction to global memory: it runs them only to see them refused
// (RtlBuildRefusal gives the verdict it must give).
//
// The skip policy (docs/verification.md): a case outside the claims is SKIP with the reason;
// a case inside them runs, and an `unsupported` answer to it is a FAIL. A case that expects
// `unsupported` runs whatever the claims (the RTL must decline it).
#ifndef TMA_SIM_RTL_SUPPORT_H_
#define TMA_SIM_RTL_SUPPORT_H_

#include <optional>
#include <string>

#include "sim/cmd_port.h"
#include "tma/encoder.h"
#include "tma/golden.h"
#include "tma/types.h"

namespace tma::sim {

// The parameters of a Verilated tma_sim_top that change what it implements.
struct RtlBuild {
  int data_bytes = 16;
  bool sub_byte = true;  // SubByte: the unpacker of b4x16_p64 / b6x16_p32
  int num_ctas = 16;
  // StoreClipElem: stores clip along dim 0 to elements (else to 16-byte granules, silicon D7)
  bool store_clip_element = false;
  // The top takes the non-tensor bulk commands (tma_bulk_rows; tma_sim_top and the SoC top
  // both do)
  bool bulk = true;
  // BulkSizeStrict: a bulk size that is not a multiple of 16 is invalid_instruction (else it
  // moves size & ~15 bytes, silicon B1)
  bool bulk_size_strict = false;
  // Arch: the newest architecture the top applies (the case's arch above it is clamped to it)
  tma::model::Arch arch = tma::model::Arch::kSm103;
  // StorePath: the write direction (tensor and bulk stores and reductions to global memory)
  bool store_path = true;
  // The sim/tops.h top of a DataBytes: tma_sim_top's defaults (SubByte = DataBytes <= 32),
  // except that DataBytes 128 is built with SubByte = 1 (sim/CMakeLists.txt).
  static RtlBuild Default(int data_bytes) {
    RtlBuild b;
    b.data_bytes = data_bytes;
    b.sub_byte = data_bytes <= 32 || data_bytes == 128;
    return b;
  }
  // The PTX-readings top of sim/tops.h (SimTopVariant::kPtxReadings): the defaults with
  // StoreClipElem = 1 and BulkSizeStrict = 1.
  static RtlBuild PtxReadings(int data_bytes) {
    RtlBuild b = Default(data_bytes);
    b.store_clip_element = true;
    b.bulk_size_strict = true;
    return b;
  }
  // The load90 top of sim/tops.h (SimTopVariant::kLoad90; synth/run_synth.py --config load90):
  // Arch = sm_90 (no gather4 / im2col::w::128 walker, no unpacker) and StorePath = 0.
  static RtlBuild Load90(int data_bytes) {
    RtlBuild b = Default(data_bytes);
    b.sub_byte = false;
    b.arch = tma::model::Arch::kSm90;
    b.store_path = false;
    return b;
  }
};

// What decides a claim: the command's op, mode and .cta_group, the map's element type and the
// arch generation of the case.
struct RtlCommandKind {
  tma::model::Op op = tma::model::Op::kLoad;
  tma::model::LoadMode mode = tma::model::LoadMode::kTile;
  tma::model::DType dtype = tma::model::DType::kU8;
  tma::model::Arch arch = tma::model::Arch::kSm90;
  int cta_group = 0;
};
// Why the RTL does not claim a command of this kind (empty: it claims it).
std::string RtlUnclaimed(const RtlCommandKind& k, const RtlBuild& b);

bool RtlImplementsOp(tma::model::Op op);  // claimed for some arch (rtl_claims "ops")
bool RtlImplementsDType(tma::model::DType t, const RtlBuild& b);
// Why the RTL cannot run golden case `c` (empty: it can): outside the claims. The element type
// is the map's: decoded from descriptor_hex when the case has one.
std::string RtlSkipReason(const tma::model::GoldenCase& c, const RtlBuild& b);
// Whether the RTL claims to run `c` completely: then an `unsupported` answer from the RTL is a
// failure of the replay, not a skip. Claimed: the tile, scatter4 and im2col_no_offs stores,
// the tile and im2col_no_offs reductions and the bulk operations RtlSkipReason lets through.
bool RtlClaims(const tma::model::GoldenCase& c, const RtlBuild& b);
// The 128 tensor-map bytes a harness puts in global memory for case `c` (its descriptor_hex,
// else EncodeDescriptor of the case's map), or why no engine sees the case (empty: `desc`
// holds the bytes): a map the host cannot encode or that does not fit the descriptor's fields.
// A map the case's encoder refuses goes to the engine (the RTL checks the encoder rules of its
// arch_i itself), and so do CTA numbers outside the case's cluster (cluster_i, F6).
std::string RtlCaseDescriptor(const tma::model::GoldenCase& c, uint8_t* desc);
// The host encoder's verdict on a case whose map has no 128-byte encoding (a field the
// descriptor cannot hold: a stride that is not a multiple of 16, a dim of 0, ...): the case's
// map through the encoder rules of the case's arch (ValidateTensorMap, the firmware's encoder
// tma_fw_encoder), when the encoder refuses it; and CaseTensorMap's invalid_descriptor when
// the case's arrays do not make a map at all. Such a map never reaches an engine: the host's
// encoder refuses it before any descriptor exists, as the driver's cuTensorMapEncode* does on
// silicon (no kernel runs). nullopt: the case has a 128-byte encoding (or descriptor_hex, or is
// a bulk case), or the encoder accepts the map.
std::optional<tma::model::Status> RtlHostEncoderRefusal(const tma::model::GoldenCase& c);
// The verdict a top gives a case it refuses by construction, from the model's order of
// checks: on a top without the write direction (StorePath = 0) a store, reduction or bulk copy
// / reduction to global memory. A bulk one is `unsupported` before any other check
// (tma_bulk_rows); a tensor one first meets the descriptor's verdicts (the model's
// DecodeDescriptor and ValidateTensorMap under `arch`, at most the top's Arch: the RTL's
// descriptor check and its encoder rules under arch_i), then `unsupported` (the first
// instruction check, tma_instr_check); a map the host's encoder refuses never reaches the
// engine: the host's verdict (RtlHostEncoderRefusal). nullopt: the top builds what the case
// needs.
std::optional<tma::model::Status> RtlBuildRefusal(const tma::model::GoldenCase& c,
                                                  const RtlBuild& b, tma::model::Arch arch);
// A bulk case's command (global operands at CaseGlobalBase(c)), tagged `tag`.
EngineCommand RtlBulkCommand(const tma::model::GoldenCase& c, uint8_t tag);

}  // namespace tma::sim

#endif  // TMA_SIM_RTL_SUPPORT_H_
