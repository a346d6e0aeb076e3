// SPDX-License-Identifier: Apache-2.0
//
// Golden-case I/O, generators and replay. Expected numbers are derived by hand or with an
// independent Python implementation of the formulas in shared/spec/golden-cases.md, never
// from this code's output.
#include "tma/golden.h"

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tma/descriptor.h"
#include "tma/golden_replay.h"

namespace tma::model {
namespace {

std::string HandDir() {
  std::string f = __FILE__;  // .../tests/cmodel/golden_test.cc
  return f.substr(0, f.rfind("/cmodel/")) + "/vectors/hand/";
}

GoldenCase FindCase(const std::string& file, const std::string& id) {
  std::vector<GoldenCase> cases;
  std::string err;
  EXPECT_TRUE(ReadGoldenFile(HandDir() + file, &cases, &err)) << err;
  for (const GoldenCase& c : cases) {
    if (c.id == id) {
      return c;
    }
  }
  ADD_FAILURE() << "no case " << id << " in " << file;
  return {};
}

const char* kCaseJson = R"({"id":"rt-1","source":"hand","op":"load","mode":"tile",
  "tensor":{"dtype":"f16","rank":2,"dims":[100,37],"strides":[256],"element_strides":[1,1],
            "interleave":"none","swizzle":"128B","l2_promotion":"none","oob_fill":"nan",
            "box":[64,8]},
  "coords":[-8,33],"cluster":{"ctas":2,"issuer":1,"cta_mask":3},
  "global":{"bytes":9472,"offset":256,"fill":"splitmix64","seed":7},
  "smem":{"bytes":1024,"dst":0,"fill":"const","value":165},
  "expect":{"complete_tx_bytes":1024,"smem":["00ff",""]},
  "arch":"sm_100a","mbar":2048,"store_clip":"element","run":{"note":"kept"}})";

TEST(GoldenSplitMix, MatchesIndependentValues) {
  // Python, from the formula in golden-cases.md; 0 -> e220a8397b1dcdaf is also the published
  // first output of SplitMix64 seeded with 0.
  EXPECT_EQ(SplitMix64(0), 0xe220a8397b1dcdafull);
  EXPECT_EQ(SplitMix64(1), 0x910a2dec89025cc1ull);
  EXPECT_EQ(SplitMix64(7), 0x63cbe1e459320dd7ull);
  EXPECT_EQ(SplitMix64(1234567), 0x599ed017fb08fc85ull);
}

TEST(GoldenFill, ByteAndConstPatterns) {
  std::vector<uint8_t> b;
  std::string err;
  GoldenFill f;
  f.kind = GoldenFill::Kind::kSplitmix64;
  f.seed = 7;
  ASSERT_TRUE(GenerateFill(f, DType::kU8, 8, &b, &err)) << err;
  EXPECT_EQ(b, (std::vector<uint8_t>{215, 54, 100, 202, 157, 3, 255, 62}));
  f.kind = GoldenFill::Kind::kConst;
  f.value = 0xA5;
  ASSERT_TRUE(GenerateFill(f, DType::kU8, 3, &b, &err));
  EXPECT_EQ(b, (std::vector<uint8_t>{0xA5, 0xA5, 0xA5}));
}

TEST(GoldenFill, ValuesPerFloatType) {
  // seed 3: splitmix64(3) % 2001 - 1000 = 791 -> 98.875; splitmix64(4) -> -255 -> -31.875.
  GoldenFill f;
  f.kind = GoldenFill::Kind::kValues;
  f.seed = 3;
  std::vector<uint8_t> b;
  std::string err;
  ASSERT_TRUE(GenerateFill(f, DType::kF32, 8, &b, &err)) << err;
  EXPECT_EQ(ToHex(b.data(), b.size()), "00c0c5420000ffc1");  // 0x42c5c000, 0xc1ff0000
  ASSERT_TRUE(GenerateFill(f, DType::kF16, 4, &b, &err));
  EXPECT_EQ(ToHex(b.data(), b.size()), "2e56f8cf");  // 0x562e, 0xcff8
  // bf16 has 8 significant bits: 98.875 = 791/8 (10 bits) rounds up to 792/8 = 99.0 = 0x42c6;
  // -31.875 = -255/8 (8 bits) is exact: 0xc1ff.
  ASSERT_TRUE(GenerateFill(f, DType::kBF16, 4, &b, &err));
  EXPECT_EQ(ToHex(b.data(), b.size()), "c642ffc1");
  ASSERT_TRUE(GenerateFill(f, DType::kF64, 8, &b, &err));
  EXPECT_EQ(ToHex(b.data(), b.size()), "0000000000b85840");  // 98.875 = 0x4058b80000000000
  // A trailing partial element is truncated.
  ASSERT_TRUE(GenerateFill(f, DType::kF32, 6, &b, &err));
  EXPECT_EQ(ToHex(b.data(), b.size()), "00c0c5420000");
  // Integer types have no "values" pattern.
  EXPECT_FALSE(GenerateFill(f, DType::kU32, 8, &b, &err));
  EXPECT_NE(err.find("values"), std::string::npos);
}

TEST(GoldenFill, HalfRoundingTiesToEven) {
  EXPECT_EQ(DoubleToBf16(786 / 8.0), 0x42c4);  // 98.25: tie between 98.0 and 98.5 -> 98.0
  EXPECT_EQ(DoubleToBf16(790 / 8.0), 0x42c6);  // 98.75: tie -> 99.0 (even significand)
  EXPECT_EQ(DoubleToF16(1.0), 0x3c00);
  EXPECT_EQ(DoubleToF16(5.960464477539063e-08), 0x0001);  // 2^-24, smallest subnormal
  EXPECT_EQ(DoubleToF16(65520.0), 0x7c00);                // rounds to infinity
  EXPECT_EQ(DoubleToF16(-0.0), 0x8000);
}

TEST(GoldenHex, Sha256AndHex) {
  const uint8_t abc[] = {'a', 'b', 'c'};
  EXPECT_EQ(Sha256Hex(abc, 3),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");  // FIPS 180-2
  std::vector<uint8_t> b;
  ASSERT_TRUE(FromHex("00fFa5", &b));
  EXPECT_EQ(b, (std::vector<uint8_t>{0x00, 0xff, 0xa5}));
  EXPECT_EQ(ToHex(b.data(), b.size()), "00ffa5");
  EXPECT_FALSE(FromHex("0g", &b));
  EXPECT_FALSE(FromHex("abc", &b));
}

TEST(GoldenIo, ParsesEveryKey) {
  GoldenCase c;
  std::string err;
  ASSERT_TRUE(ParseGoldenCase(nlohmann::json::parse(kCaseJson), &c, &err)) << err;
  EXPECT_EQ(c.id, "rt-1");
  EXPECT_EQ(c.tensor.dtype, DType::kF16);
  EXPECT_EQ(c.tensor.swizzle, Swizzle::k128B);
  EXPECT_EQ(c.tensor.oob_fill, OobFill::kNan);
  EXPECT_EQ(c.coords, (std::vector<int32_t>{-8, 33}));
  ASSERT_TRUE(c.cluster.has_value());
  EXPECT_EQ(*c.cluster->cta_mask, 3);
  EXPECT_EQ(c.global.offset, 256u);
  EXPECT_EQ(c.global.fill.seed, 7u);
  EXPECT_EQ(c.smem->fill.value, 165u);
  EXPECT_EQ(c.expect.complete_tx_bytes, (std::vector<uint32_t>{1024}));
  EXPECT_TRUE(c.expect.smem_is_array);
  EXPECT_EQ(c.arch, "sm_100a");
  EXPECT_EQ(c.Mbar(), 2048u);
  EXPECT_TRUE(c.store_clip_element);
  EXPECT_EQ(c.extra["run"]["note"], "kept");
  TensorInstr in = CaseInstr(c);
  EXPECT_TRUE(in.multicast);
  EXPECT_EQ(in.cta_mask, 3);
  EXPECT_EQ(in.issuer_cta, 1);
  EXPECT_EQ(in.dim, 2);
  TensorMap m;
  ASSERT_TRUE(CaseTensorMap(c, kGoldenGlobalBase, &m).ok());
  EXPECT_EQ(m.global_address, kGoldenGlobalBase + 256);
  EXPECT_EQ(m.box[0], 64u);
  EXPECT_EQ(m.strides[0], 256u);
}

TEST(GoldenIo, ClusterMbarCtaRoundTripsAndReachesTheInstruction) {
  nlohmann::json j = nlohmann::json::parse(kCaseJson);
  j["cluster"]["cta_group"] = 2;
  j["cluster"]["mbar_cta"] = 1;
  GoldenCase c;
  std::string err;
  ASSERT_TRUE(ParseGoldenCase(j, &c, &err)) << err;
  ASSERT_TRUE(c.cluster->mbar_cta.has_value());
  EXPECT_EQ(*c.cluster->mbar_cta, 1);
  EXPECT_EQ(CaseInstr(c).mbar_cta, 1);
  EXPECT_EQ(CaseInstr(c).cta_group, 2);
  nlohmann::json back = GoldenCaseToJson(c);
  EXPECT_EQ(back["cluster"]["mbar_cta"], 1);
  // Only loads have an mbarrier.
  c.op = Op::kStore;
  EXPECT_EQ(CaseInstr(c).mbar_cta, -1);
  // Absent: -1 (the destination CTA); out of range: an error naming the key.
  j["cluster"].erase("mbar_cta");
  ASSERT_TRUE(ParseGoldenCase(j, &c, &err)) << err;
  EXPECT_FALSE(c.cluster->mbar_cta.has_value());
  EXPECT_EQ(CaseInstr(c).mbar_cta, -1);
  j["cluster"]["mbar_cta"] = 16;
  EXPECT_FALSE(ParseGoldenCase(j, &c, &err));
  EXPECT_NE(err.find("cluster.mbar_cta"), std::string::npos) << err;
}

TEST(GoldenIo, DefaultMbarIsPastTheWindow) {
  nlohmann::json j = nlohmann::json::parse(kCaseJson);
  j.erase("mbar");
  j["smem"]["bytes"] = 1020;
  GoldenCase c;
  std::string err;
  ASSERT_TRUE(ParseGoldenCase(j, &c, &err)) << err;
  EXPECT_EQ(c.Mbar(), 1024u);
}

TEST(GoldenIo, RoundTripJsonlAndGz) {
  GoldenCase c;
  std::string err;
  ASSERT_TRUE(ParseGoldenCase(nlohmann::json::parse(kCaseJson), &c, &err)) << err;
  GoldenCase d = c;
  d.id = "rt-2";
  d.op = Op::kReduce;
  d.redop = RedOp::kXor;
  d.cluster.reset();
  d.expect = GoldenExpect{};
  d.expect.global_diff = std::vector<std::pair<uint64_t, std::string>>{{16, "abcd"}};
  d.expect.global_sha256 = std::string(64, '0');
  const std::vector<GoldenCase> cases = {c, d};
  const std::string dir = ::testing::TempDir();
  for (const std::string name : {"golden_rt.jsonl", "golden_rt.jsonl.gz"}) {
    const std::string path = dir + name;
    ASSERT_TRUE(WriteGoldenFile(path, cases, &err)) << err;
    std::ifstream f(path, std::ios::binary);
    int b0 = f.get(), b1 = f.get();
    const bool gz = b0 == 0x1f && b1 == 0x8b;
    EXPECT_EQ(gz, name.size() > 6 && name.substr(name.size() - 3) == ".gz") << name;
    std::vector<GoldenCase> back;
    ASSERT_TRUE(ReadGoldenFile(path, &back, &err)) << err;
    ASSERT_EQ(back.size(), 2u);
    for (size_t i = 0; i < 2; ++i) {
      EXPECT_EQ(GoldenCaseToJson(back[i]), GoldenCaseToJson(cases[i])) << name << " case " << i;
    }
    EXPECT_EQ(back[1].redop, RedOp::kXor);
    EXPECT_EQ(back[1].expect.global_diff->at(0).second, "abcd");
    std::remove(path.c_str());
  }
}

TEST(GoldenIo, MissingKeyNamesTheCase) {
  std::string err;
  GoldenCase c;
  nlohmann::json j = nlohmann::json::parse(kCaseJson);
  j.erase("tensor");
  EXPECT_FALSE(ParseGoldenCase(j, &c, &err));
  EXPECT_NE(err.find("rt-1"), std::string::npos) << err;
  EXPECT_NE(err.find("'tensor'"), std::string::npos) << err;

  j = nlohmann::json::parse(kCaseJson);
  j["tensor"].erase("dims");
  EXPECT_FALSE(ParseGoldenCase(j, &c, &err));
  EXPECT_NE(err.find("rt-1"), std::string::npos) << err;
  EXPECT_NE(err.find("tensor.dims"), std::string::npos) << err;

  j = nlohmann::json::parse(kCaseJson);
  j["op"] = "reduce";  // a reduction needs redop
  EXPECT_FALSE(ParseGoldenCase(j, &c, &err));
  EXPECT_NE(err.find("redop"), std::string::npos) << err;

  j = nlohmann::json::parse(kCaseJson);
  j.erase("id");
  EXPECT_FALSE(ParseGoldenCase(j, &c, &err));
  EXPECT_NE(err.find("'id'"), std::string::npos) << err;

  // In a file, the error also names the line.
  const std::string path = ::testing::TempDir() + "golden_bad.jsonl";
  {
    std::ofstream f(path);
    f << nlohmann::json::parse(kCaseJson).dump() << "\n\n";
    nlohmann::json bad = nlohmann::json::parse(kCaseJson);
    bad["id"] = "second";
    bad.erase("expect");
    f << bad.dump() << "\n";
  }
  std::vector<GoldenCase> cases;
  EXPECT_FALSE(ReadGoldenFile(path, &cases, &err));
  EXPECT_NE(err.find(":3:"), std::string::npos) << err;
  EXPECT_NE(err.find("'second'"), std::string::npos) << err;
  EXPECT_NE(err.find("'expect'"), std::string::npos) << err;
  std::remove(path.c_str());
}

// An engine that reports success but writes nothing, or a fixed outcome.
class FakeEngine : public CaseEngine {
 public:
  explicit FakeEngine(CaseOutcome o) : o_(std::move(o)) {}
  std::string Name() const override { return "fake"; }
  CaseOutcome Run(const GoldenCase&, GlobalMemoryIf&, SharedMemoryIf&) override { return o_; }

 private:
  CaseOutcome o_;
};

TEST(GoldenReplay, HandCasePassesOnTheModel) {
  GoldenCase c = FindCase("swizzle.jsonl", "tile2d-u16-v08-sw128-dst128");
  ModelEngine model;
  ReplayResult r = ReplayCase(c, model);
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

TEST(GoldenReplay, PlantedSmemMismatchNamesTheElement) {
  // V8: u16 box {64,16}, 128B swizzle, coords (0,0), dstMem 128. Element (i0=10, i1=3): logical
  // 3*128 + 10*2 = 404, absolute A = 128 + 404 = 0x214; line (A>>7)&7 = 4, chunk (A>>4)&7 = 1,
  // 1^4 = 5 -> physical 0x254 = 596 (tensor-semantics 4.1 / 4.4). Byte 597 is its high byte.
  GoldenCase c = FindCase("swizzle.jsonl", "tile2d-u16-v08-sw128-dst128");
  std::vector<uint8_t> want;
  ASSERT_TRUE(FromHex(c.expect.smem[0], &want));
  want[597] ^= 0x40;
  c.expect.smem[0] = ToHex(want.data(), want.size());
  ModelEngine model;
  ReplayResult r = ReplayCase(c, model);
  ASSERT_EQ(r.verdict, Verdict::kFail);
  ASSERT_TRUE(r.first_byte.has_value());
  EXPECT_EQ(r.first_byte->where, ByteMismatch::Where::kSmem);
  EXPECT_EQ(r.first_byte->offset, 597u);
  EXPECT_EQ(r.first_byte->expected ^ r.first_byte->actual, 0x40);
  EXPECT_NE(r.first_byte->element.find("box (10,3) tensor (10,3)"), std::string::npos)
      << r.first_byte->element;
  EXPECT_NE(r.first_byte->element.find("byte 1 of 2"), std::string::npos) << r.first_byte->element;
  EXPECT_EQ(r.details.size(), 1u);
}

TEST(GoldenReplay, PlantedGlobalMismatchNamesTheElement) {
  // V13 store: u32 box {16,4} at (32,10), row stride 192. Buffer offset 10*192 + 33*4 + 1 =
  // 2053 is byte 1 of tensor element (33,10), box index (1,0).
  GoldenCase c = FindCase("store.jsonl", "store2d-u32-v13-partly-oob");
  ASSERT_TRUE(c.expect.global_diff.has_value());
  auto& runs = *c.expect.global_diff;
  bool planted = false;
  for (auto& run : runs) {
    std::vector<uint8_t> b;
    ASSERT_TRUE(FromHex(run.second, &b));
    if (run.first <= 2053 && 2053 < run.first + b.size()) {
      b[2053 - run.first] ^= 1;
      run.second = ToHex(b.data(), b.size());
      planted = true;
    }
  }
  ASSERT_TRUE(planted) << "byte 2053 should be written by V13";
  ModelEngine model;
  ReplayResult r = ReplayCase(c, model);
  ASSERT_EQ(r.verdict, Verdict::kFail);
  ASSERT_TRUE(r.first_byte.has_value());
  EXPECT_EQ(r.first_byte->where, ByteMismatch::Where::kGlobal);
  EXPECT_EQ(r.first_byte->offset, 2053u);
  EXPECT_NE(r.first_byte->element.find("box (1,0) tensor (33,10)"), std::string::npos)
      << r.first_byte->element;
}

TEST(GoldenReplay, DoNothingEngineFailsAndUnsupportedSkips) {
  GoldenCase c = FindCase("tile.jsonl", "tile2d-u16-v01-inbounds");
  CaseOutcome ok;  // success, no complete-tx, nothing written
  FakeEngine lazy(ok);
  ReplayResult r = ReplayCase(c, lazy);
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_GE(r.details.size(), 2u);  // complete_tx and smem

  CaseOutcome unsupported;
  unsupported.supported = false;
  unsupported.skip_reason = "no im2col";
  FakeEngine cannot(unsupported);
  r = ReplayCase(c, cannot);
  EXPECT_EQ(r.verdict, Verdict::kSkip);
  EXPECT_NE(r.reason.find("no im2col"), std::string::npos);

  // Wrong error class.
  GoldenCase f = FindCase("faults.jsonl", "fault-v12-misaligned-dst16");
  CaseOutcome wrong;
  wrong.status = Status::Error(ErrorClass::kMisalignedCoordinate, "coords[0]", "planted");
  FakeEngine wrong_engine(wrong);
  r = ReplayCase(f, wrong_engine);
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_NE(r.reason.find("expected misaligned, got misaligned_coordinate"), std::string::npos)
      << r.reason;
}

TEST(GoldenReplay, CtaGroup2RoutingIsComparedPerCta) {
  // Mask 0b1110 from issuer 0, mbar in CTA 1: 1 -> 1, 2 -> 3, 3 -> 3 (1024 bytes each),
  // written by gen_hand.py as the array [0, 1024, 0, 2048].
  GoldenCase c = FindCase("sm100.jsonl", "ctagroup2-mcast-issuer-not-in-mask-mbar-cta1");
  ASSERT_TRUE(c.expect.complete_tx_is_array);
  EXPECT_EQ(c.expect.complete_tx_bytes, (std::vector<uint32_t>{0, 1024, 0, 2048}));
  ModelEngine model;
  ReplayResult r = ReplayCase(c, model);
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
  // The number form: per destination, routed by the replay.
  GoldenCase n = c;
  n.expect.complete_tx_is_array = false;
  n.expect.complete_tx_bytes = {1024};
  r = ReplayCase(n, model);
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
  // Unrouted expectations (each destination's own barrier) fail, naming the CTA.
  GoldenCase u = c;
  u.expect.complete_tx_bytes = {0, 1024, 1024, 1024};
  r = ReplayCase(u, model);
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_NE(r.reason.find("CTA 2 expected 1024 bytes (cta_group::2, mbar in CTA 1), got 0"),
            std::string::npos)
      << r.reason;
  // The same case with the mbarrier in an even CTA routes elsewhere: the array no longer fits.
  GoldenCase e = c;
  e.cluster->mbar_cta = 2;
  r = ReplayCase(e, model);
  EXPECT_EQ(r.verdict, Verdict::kFail);
  // Without mbar_cta only the total is compared (3 x 1024).
  GoldenCase t = c;
  t.cluster->mbar_cta.reset();
  r = ReplayCase(t, model);
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

TEST(GoldenReplay, DescriptorHexReplacesTheTensorObject) {
  // V1 with the map given as 128 descriptor bytes at another address: the buffer moves to the
  // descriptor's address (minus global.offset) and the case still passes.
  GoldenCase c = FindCase("tile.jsonl", "tile2d-u16-v01-inbounds");
  TensorMap m;
  ASSERT_TRUE(CaseTensorMap(c, 0x7f0000004000ull, &m).ok());
  DescriptorBytes d = EncodeDescriptor(m);
  c.descriptor_hex = ToHex(d.data(), d.size());
  EXPECT_EQ(CaseGlobalBase(c), 0x7f0000004000ull - c.global.offset);
  ModelEngine model;
  ReplayResult r = ReplayCase(c, model);
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
  // The descriptor wins over `tensor`: a map with box {64,4} delivers 512 bytes, not 1024.
  m.box[1] = 4;
  d = EncodeDescriptor(m);
  c.descriptor_hex = ToHex(d.data(), d.size());
  r = ReplayCase(c, model);
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_NE(r.reason.find("expected 1024 bytes, got 512"), std::string::npos) << r.reason;
}

}  // namespace
}  // namespace tma::model
