// SPDX-License-Identifier: Apache-2.0
//
// The RTL's claim list (sim/rtl_support.h) and the golden replay's skip decision: expectations
// from what the RTL implements (docs/architecture.md: sm_90 loads and prefetches in tile and
// im2col mode, sm_90 stores and reductions in tile and im2col_no_offs mode, sm_100+ loads and
// prefetches in tile, im2col, im2col::w, im2col::w::128 and gather4 mode, .cta_group::2; sm_100+
// stores in tile and scatter4 mode but not of b6x16_p32 (no packer); no sm_100+ reductions; the
// packed sub-byte types only with SubByte = 1),
// written by hand. The arch's encoder rules are the RTL's (arch_i): an sm_90 case with an
// sm_100 map runs.
#include <optional>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "sim/rtl_support.h"
#include "tma/descriptor.h"
#include "tma/golden.h"
#include "tma/golden_replay.h"

namespace tma::sim {
namespace {

namespace m = tma::model;

RtlCommandKind Kind(m::Op op, m::LoadMode mode, m::Arch arch, m::DType t = m::DType::kU16,
                    int cta_group = 0) {
  RtlCommandKind k;
  k.op = op;
  k.mode = mode;
  k.arch = arch;
  k.dtype = t;
  k.cta_group = cta_group;
  return k;
}

TEST(RtlClaims, WhatTheRtlImplements) {
  const RtlBuild b16 = RtlBuild::Default(16);
  using m::Arch;
  using m::LoadMode;
  using m::Op;
  EXPECT_EQ(RtlUnclaimed(Kind(Op::kLoad, LoadMode::kTile, Arch::kSm90), b16), "");
  EXPECT_EQ(RtlUnclaimed(Kind(Op::kLoad, LoadMode::kIm2col, Arch::kSm90), b16), "");
  EXPECT_EQ(RtlUnclaimed(Kind(Op::kPrefetch, LoadMode::kTile, Arch::kSm90), b16), "");
  EXPECT_EQ(RtlUnclaimed(Kind(Op::kPrefetch, LoadMode::kIm2col, Arch::kSm90), b16), "");
  EXPECT_EQ(RtlUnclaimed(Kind(Op::kLoad, LoadMode::kTile, Arch::kSm100), b16), "");
  EXPECT_EQ(RtlUnclaimed(Kind(Op::kStore, LoadMode::kTile, Arch::kSm90), b16), "");
  EXPECT_EQ(RtlUnclaimed(Kind(Op::kReduce, LoadMode::kTile, Arch::kSm90), b16), "");
  EXPECT_EQ(RtlUnclaimed(Kind(Op::kStore, LoadMode::kIm2colNoOffs, Arch::kSm90), b16), "");
  EXPECT_EQ(RtlUnclaimed(Kind(Op::kStore, LoadMode::kTile, Arch::kSm100), b16), "");
  EXPECT_EQ(RtlUnclaimed(Kind(Op::kStore, LoadMode::kTileScatter4, Arch::kSm100), b16), "");
  EXPECT_EQ(RtlUnclaimed(Kind(Op::kStore, LoadMode::kTileScatter4, Arch::kSm103), b16), "");
  EXPECT_NE(RtlUnclaimed(
                Kind(Op::kStore, LoadMode::kTileScatter4, Arch::kSm100, m::DType::kB6x16P32), b16),
            "");
  EXPECT_NE(RtlUnclaimed(Kind(Op::kStore, LoadMode::kTile, Arch::kSm100, m::DType::kB6x16P32), b16),
            "");
  EXPECT_NE(RtlUnclaimed(Kind(Op::kReduce, LoadMode::kTile, Arch::kSm100), b16), "");
  EXPECT_EQ(RtlUnclaimed(Kind(Op::kLoad, LoadMode::kTileGather4, Arch::kSm100), b16), "");
  EXPECT_EQ(RtlUnclaimed(Kind(Op::kPrefetch, LoadMode::kTileGather4, Arch::kSm103), b16), "");
  EXPECT_EQ(RtlUnclaimed(Kind(Op::kLoad, LoadMode::kIm2colW, Arch::kSm100), b16), "");
  EXPECT_EQ(RtlUnclaimed(Kind(Op::kLoad, LoadMode::kIm2colW128, Arch::kSm100), b16), "");
  EXPECT_EQ(RtlUnclaimed(Kind(Op::kLoad, LoadMode::kIm2col, Arch::kSm100), b16), "");
  EXPECT_EQ(RtlUnclaimed(Kind(Op::kPrefetch, LoadMode::kTile, Arch::kSm100), b16), "");
  EXPECT_EQ(RtlUnclaimed(Kind(Op::kLoad, LoadMode::kTile, Arch::kSm100, m::DType::kU16, 2), b16),
            "");
  EXPECT_NE(RtlUnclaimed(Kind(Op::kStore, LoadMode::kTileScatter4, Arch::kSm90), b16), "");
  EXPECT_NE(RtlUnclaimed(Kind(Op::kReduce, LoadMode::kTileScatter4, Arch::kSm100), b16), "");
  // (sm_90: the RTL refuses the sm_100 modes itself, as the model's sm_90 does)
  EXPECT_EQ(RtlUnclaimed(Kind(Op::kLoad, LoadMode::kIm2colW, Arch::kSm90), b16), "");
  EXPECT_EQ(RtlUnclaimed(Kind(Op::kLoad, LoadMode::kTileGather4, Arch::kSm90), b16), "");
  // The packed sub-byte types need the unpacker: SubByte = 1 at DataBytes 16 and 32, not 64.
  for (m::DType t : {m::DType::kB4x16P64, m::DType::kB6x16P32}) {
    EXPECT_EQ(RtlUnclaimed(Kind(Op::kLoad, LoadMode::kTile, Arch::kSm100, t), b16), "");
    EXPECT_EQ(
        RtlUnclaimed(Kind(Op::kLoad, LoadMode::kTile, Arch::kSm100, t), RtlBuild::Default(32)), "");
    EXPECT_NE(
        RtlUnclaimed(Kind(Op::kLoad, LoadMode::kTile, Arch::kSm100, t), RtlBuild::Default(64)), "");
  }
  EXPECT_EQ(RtlUnclaimed(Kind(Op::kLoad, LoadMode::kTile, Arch::kSm100, m::DType::kB4x16),
                         RtlBuild::Default(64)),
            "");
}

m::GoldenCase TileCase(const std::string& dtype, const std::string& swizzle,
                       const std::string& arch) {
  nlohmann::json j = {{"id", "t"},
                      {"op", "load"},
                      {"mode", "tile"},
                      {"arch", arch},
                      {"tensor",
                       {{"dtype", dtype},
                        {"rank", 2},
                        {"dims", {256, 8}},
                        {"strides", {256}},
                        {"box", {128, 8}},
                        {"swizzle", swizzle}}},
                      {"coords", {0, 0}},
                      {"global", {{"bytes", 2048}, {"fill", "const"}, {"value", 1}}},
                      {"smem", {{"bytes", 2048}, {"dst", 0}, {"fill", "const"}, {"value", 0}}},
                      {"expect", nlohmann::json::object()}};
  m::GoldenCase c;
  std::string err;
  EXPECT_TRUE(m::ParseGoldenCase(j, &c, &err)) << err;
  return c;
}

// With descriptor_hex the element type and swizzle the RTL sees are the descriptor's, not the
// case's tensor object: the skip decision must use them.
TEST(RtlClaims, DescriptorHexDecidesTheTypeAndSwizzle) {
  // A b4x16_p64 map (needs the unpacker) in a case whose tensor object says u8.
  m::GoldenCase packed = TileCase("b4x16_p64", "none", "sm_100a");
  m::TensorMap map;
  ASSERT_TRUE(m::CaseTensorMap(packed, m::kGoldenGlobalBase, &map).ok());
  const m::DescriptorBytes d = m::EncodeDescriptor(map);
  m::GoldenCase c = TileCase("u8", "none", "sm_100a");
  EXPECT_EQ(RtlSkipReason(c, RtlBuild::Default(64)), "");
  c.descriptor_hex = m::ToHex(d.data(), d.size());
  EXPECT_NE(RtlSkipReason(c, RtlBuild::Default(64)).find("unpacker"), std::string::npos);
  EXPECT_EQ(RtlSkipReason(c, RtlBuild::Default(16)), "");

  // A 128B_atom_32B swizzle in the descriptor of an sm_90 case whose tensor says none: the
  // case runs (the RTL at arch_i sm_90 answers invalid_descriptor itself).
  m::GoldenCase atom = TileCase("u8", "128B_atom_32B", "sm_100a");
  ASSERT_TRUE(m::CaseTensorMap(atom, m::kGoldenGlobalBase, &map).ok());
  const m::DescriptorBytes d2 = m::EncodeDescriptor(map);
  m::GoldenCase s = TileCase("u8", "none", "sm_90");
  s.descriptor_hex = m::ToHex(d2.data(), d2.size());
  EXPECT_EQ(RtlSkipReason(s, RtlBuild::Default(16)), "");
}

// A case outside the claims that expects `unsupported` runs (the RTL must decline it).
TEST(RtlClaims, ExpectedUnsupportedRuns) {
  m::GoldenCase c = TileCase("u16", "none", "sm_100a");
  c.op = m::Op::kReduce;  // (sm_100 reductions are not claimed)
  EXPECT_NE(RtlSkipReason(c, RtlBuild::Default(16)), "");
  c.expect.error = m::ErrorClass::kUnsupported;
  EXPECT_EQ(RtlSkipReason(c, RtlBuild::Default(16)), "");
  EXPECT_FALSE(RtlClaims(c, RtlBuild::Default(16)));
  // A reduction in scatter4 mode is no instruction (seed 003): it runs to be refused.
  c.mode = m::LoadMode::kTileScatter4;
  c.expect.error = m::ErrorClass::kInvalidInstruction;
  EXPECT_EQ(RtlSkipReason(c, RtlBuild::Default(16)), "");
  EXPECT_FALSE(RtlClaims(c, RtlBuild::Default(16)));
  // An sm_90 scatter4 store runs to be refused (unsupported), outside the claims.
  c.op = m::Op::kStore;
  c.arch = "sm_90";
  c.expect.error = m::ErrorClass::kUnsupported;
  EXPECT_EQ(RtlSkipReason(c, RtlBuild::Default(16)), "");
  EXPECT_FALSE(RtlClaims(c, RtlBuild::Default(16)));
  c.arch = "sm_100a";
  c.expect.error.reset();
  EXPECT_TRUE(RtlClaims(c, RtlBuild::Default(16)));
}

// The PTX readings where silicon differs (D7 store clip, B1 bulk size) need the PTX-readings
// top (StoreClipElem = 1, BulkSizeStrict = 1); the default top skips them, and the
// PTX-readings top skips the silicon readings.
TEST(RtlClaims, PtxReadingsNeedThePtxTop) {
  m::GoldenCase st = TileCase("u16", "none", "sm_90");
  st.op = m::Op::kStore;
  EXPECT_EQ(RtlSkipReason(st, RtlBuild::Default(16)), "");
  EXPECT_NE(RtlSkipReason(st, RtlBuild::PtxReadings(16)), "");
  st.store_clip_element = true;
  EXPECT_NE(RtlSkipReason(st, RtlBuild::Default(16)).find("StoreClipElem = 0"), std::string::npos);
  EXPECT_EQ(RtlSkipReason(st, RtlBuild::PtxReadings(16)), "");
  EXPECT_TRUE(RtlClaims(st, RtlBuild::PtxReadings(16)));

  m::GoldenCase bulk = TileCase("u16", "none", "sm_90");
  bulk.bulk = m::GoldenBulk{};
  bulk.bulk->dir = m::BulkDir::kGlobalToSharedCta;
  bulk.bulk->size = 24;
  bulk.bulk->ptx_size_check = true;
  EXPECT_NE(RtlSkipReason(bulk, RtlBuild::Default(16)).find("BulkSizeStrict = 0"),
            std::string::npos);
  EXPECT_EQ(RtlSkipReason(bulk, RtlBuild::PtxReadings(16)), "");
  bulk.bulk->ptx_size_check = false;
  EXPECT_EQ(RtlSkipReason(bulk, RtlBuild::Default(16)), "");
  EXPECT_NE(RtlSkipReason(bulk, RtlBuild::PtxReadings(16)), "");
}

// Every non-tensor bulk operation is claimed, the shared::cta -> shared::cluster reduction
// (tma_s2s_copy's read-modify-write) included: an `unsupported` answer to one fails the replay.
TEST(RtlClaims, BulkOperationsAreClaimed) {
  m::GoldenCase c = TileCase("u16", "none", "sm_90");
  c.bulk = m::GoldenBulk{};
  c.bulk->size = 64;
  c.cluster = m::GoldenCluster{};
  c.cluster->ctas = 2;
  c.dst_cta = 1;
  const RtlBuild b16 = RtlBuild::Default(16);
  const std::pair<m::Op, m::BulkDir> ops[] = {
      {m::Op::kLoad, m::BulkDir::kGlobalToSharedCta},
      {m::Op::kLoad, m::BulkDir::kGlobalToSharedCluster},
      {m::Op::kStore, m::BulkDir::kSharedCtaToGlobal},
      {m::Op::kStore, m::BulkDir::kSharedCtaToSharedCluster},
      {m::Op::kReduce, m::BulkDir::kSharedCtaToGlobal},
      {m::Op::kReduce, m::BulkDir::kSharedCtaToSharedCluster}};
  for (const auto& [op, d] : ops) {
    c.op = op;
    c.bulk->dir = d;
    if (op == m::Op::kReduce) {
      c.redop = m::RedOp::kMax;
      c.bulk->type = m::BulkType::kS32;
    }
    EXPECT_EQ(RtlSkipReason(c, b16), "") << m::ToString(op) << " " << m::ToString(d);
    EXPECT_TRUE(RtlClaims(c, b16)) << m::ToString(op) << " " << m::ToString(d);
  }
}

// A map with no 128-byte encoding: the host encoder's verdict (rule 9, a stride that is not a
// multiple of 16; rule 8, a dim of 0), as the driver refuses it on silicon. A map the
// descriptor holds goes to the engine (nullopt), whether the encoder accepts it or not.
TEST(RtlClaims, MapsWithoutAnEncodingGetTheHostVerdict) {
  m::GoldenCase c = TileCase("u16", "none", "sm_90");
  EXPECT_FALSE(RtlHostEncoderRefusal(c).has_value());
  c.tensor.strides = {264};  // 264 % 16 = 8: the descriptor keeps stride >> 4
  std::optional<m::Status> v = RtlHostEncoderRefusal(c);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->cls, m::ErrorClass::kInvalidDescriptor);
  c.tensor.strides = {256};
  c.tensor.dims = {0, 8};  // the descriptor keeps dim - 1
  v = RtlHostEncoderRefusal(c);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->cls, m::ErrorClass::kInvalidDescriptor);
  // A box[0] of 200 u16 (400 bytes, rule 12 holds, rule 11 holds) over 128B swizzle breaks
  // rule 13 but fits the descriptor: the engine checks it, no host verdict.
  c.tensor.dims = {256, 8};
  c.tensor.box = {200, 8};
  c.tensor.swizzle = m::Swizzle::k128B;
  EXPECT_FALSE(RtlHostEncoderRefusal(c).has_value());
  // A descriptor_hex case: the bytes go to the engine as given.
  m::GoldenCase h = TileCase("u16", "none", "sm_90");
  h.tensor.strides = {264};
  h.descriptor_hex = std::string(256, '0');
  EXPECT_FALSE(RtlHostEncoderRefusal(h).has_value());
}

// The replay's policy: an engine that answers `unsupported` to a case it runs fails it.
class AlwaysUnsupported : public m::CaseEngine {
 public:
  std::string Name() const override { return "stub"; }
  m::CaseOutcome Run(const m::GoldenCase&, m::GlobalMemoryIf&, m::SharedMemoryIf&) override {
    m::CaseOutcome o;
    o.status = m::Status::Error(m::ErrorClass::kUnsupported, "op", "declined");
    return o;
  }
};

TEST(RtlClaims, UnsupportedAnswerIsAFailure) {
  AlwaysUnsupported e;
  m::GoldenCase c = TileCase("u16", "none", "sm_90");
  EXPECT_EQ(m::ReplayCase(c, e).verdict, m::Verdict::kFail);
  c.expect.error = m::ErrorClass::kUnsupported;
  EXPECT_EQ(m::ReplayCase(c, e).verdict, m::Verdict::kPass);
}

// The load90 top (Arch = sm_90, StorePath = 0) claims the sm_90 loads and prefetches only, and
// its refusals follow the model's order of checks: a bulk write to global memory is
// `unsupported` before any check; a tensor store or reduction meets the descriptor's verdicts
// under sm_90 first (ValidateTensorMap), then `unsupported`.
TEST(RtlClaims, Load90ClaimsAndRefusals) {
  using m::Arch;
  using m::LoadMode;
  using m::Op;
  const RtlBuild l = RtlBuild::Load90(16);
  EXPECT_EQ(RtlUnclaimed(Kind(Op::kLoad, LoadMode::kTile, Arch::kSm90), l), "");
  EXPECT_EQ(RtlUnclaimed(Kind(Op::kPrefetch, LoadMode::kIm2col, Arch::kSm90), l), "");
  EXPECT_NE(RtlUnclaimed(Kind(Op::kLoad, LoadMode::kTile, Arch::kSm100), l), "");
  EXPECT_NE(RtlUnclaimed(Kind(Op::kStore, LoadMode::kTile, Arch::kSm90), l), "");
  EXPECT_NE(RtlUnclaimed(Kind(Op::kReduce, LoadMode::kTile, Arch::kSm90), l), "");
  // (sm_90: a packed sub-byte map is the encoder's invalid_descriptor, checked without the
  // unpacker)
  EXPECT_EQ(RtlUnclaimed(Kind(Op::kLoad, LoadMode::kTile, Arch::kSm90, m::DType::kB4x16P64), l),
            "");

  m::GoldenCase st = TileCase("u16", "none", "sm_90");
  st.op = m::Op::kStore;
  EXPECT_FALSE(RtlBuildRefusal(st, RtlBuild::Default(16), Arch::kSm90).has_value());
  std::optional<m::Status> r = RtlBuildRefusal(st, l, Arch::kSm90);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->cls, m::ErrorClass::kUnsupported);
  EXPECT_EQ(RtlSkipReason(st, l), "");  // runs, to see it refused
  EXPECT_FALSE(RtlClaims(st, l));
  // A 128B_atom_32B swizzle is an sm_100 map: at sm_90 its descriptor verdict comes first.
  m::GoldenCase atom = TileCase("u8", "128B_atom_32B", "sm_100a");
  atom.op = m::Op::kReduce;
  r = RtlBuildRefusal(atom, l, Arch::kSm100);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->cls, m::ErrorClass::kInvalidDescriptor);
  m::GoldenCase ld = TileCase("u16", "none", "sm_90");
  EXPECT_FALSE(RtlBuildRefusal(ld, l, Arch::kSm90).has_value());
}

}  // namespace
}  // namespace tma::sim
