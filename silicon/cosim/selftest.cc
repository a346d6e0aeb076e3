// SPDX-License-Identifier: Apache-2.0
//
// Host checks of the capture's GPU-independent pieces: the SHA-256 the GPU runs (compiled for
// the host) against FIPS 180-4 vectors and against silicon/sha256_lite.h at lengths around the
// block boundary (`cosim_selftest x` also prints them for a comparison with Python's hashlib),
// bf16 rounding, the out-of-bounds counts, and a trace written from fabricated records.
//   g++ -std=c++17 -O2 -o /tmp/cosim_selftest silicon/cosim/selftest.cc && /tmp/cosim_selftest
#include <cstdio>
#include <string>
#include <vector>

#include "cosim_writer.h"

using namespace cosim;

static int fails = 0;
static void Expect(bool ok, const std::string& what) {
  if (!ok) {
    std::printf("FAIL %s\n", what.c_str());
    ++fails;
  }
}

int main(int argc, char**) {
  // The GPU's SHA-256 (cosim::Sha256, compiled here for the host) against FIPS 180-4.
  auto gpu_sha = [](const uint8_t* p, size_t n) {
    uint8_t d[32];
    Sha256(p, n, d);
    return HexOf(d, 32);
  };
  const std::string abc = "abc";
  Expect(gpu_sha(reinterpret_cast<const uint8_t*>(abc.data()), 3) ==
             "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
         "sha256(abc)");
  Expect(
      Sha256HexOf(nullptr, 0) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      "sha256()");
  // Lengths 0..200 and a 24 KiB stage of splitmix64 bytes: printed for selftest.py.
  std::vector<uint8_t> buf(24576);
  for (size_t i = 0; i < buf.size(); ++i)
    buf[i] = static_cast<uint8_t>(SplitMix64(5 + i));
  if (argc > 1) {
    for (int n : {0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 200, 4096, 24576})
      std::printf("%d %s\n", n, gpu_sha(buf.data(), n).c_str());
  }
  for (int n : {0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 200, 4096, 24576})
    Expect(gpu_sha(buf.data(), n) == Sha256HexOf(buf.data(), n),
           "GPU SHA-256 == silicon/sha256_lite.h at " + std::to_string(n) + " bytes");
  Expect(Bf16Rne(1.0f) == 0x3f80, "bf16(1)");
  Expect(Bf16Rne(-4.0f) == 0xc080, "bf16(-4)");
  Expect(Bf16Rne(257.0f) == 0x4380, "bf16(257) rounds to even (256)");
  Expect(Bf16Rne(259.0f) == 0x4382, "bf16(259) rounds to even (260)");
  {
    const int64_t dims[2] = {25, 18};
    const int32_t c[2] = {16, 8};
    const uint32_t box[2] = {16, 16};
    Expect(TileOobBytes(2, dims, c, box, 1) == 166, "tile oob 166 (the example trace)");
  }
  {
    // Triton example 5 geometry (tensor-semantics §5.3a): N=2, H=W=4, corners -1/-1, start
    // (n=0,h=1,w=2), ppc 16: pixels (0,1,2) (0,2,-1) (0,2,0..2) (1,-1,-1..2) (1,0,-1..2)
    // (1,1,-1..1): OOB are w=-1 or h=-1: 1 + 4 + 1 + 1 = 7 pixels.
    const int64_t dims[4] = {32, 4, 4, 2};
    const int32_t c[4] = {0, 2, 1, 0};
    const uint16_t o[2] = {0, 0};
    const int32_t lo[2] = {-1, -1}, up[2] = {-1, -1};
    Expect(Im2colOobBytes(dims, c, o, lo, up, 32, 16, 4) == 7 * 32 * 4, "im2col oob");
  }
  // A trace from fabricated records.
  Capture cap;
  cap.kernel = "selftest";
  cap.source = "silicon:none";
  cap.grid[0] = 2;
  cap.cluster[0] = 2;
  BufferDesc b;
  b.name = "A";
  b.role = "input";
  b.dtype = "bf16";
  b.initial.assign(64, 1);
  b.final_ = b.initial;
  b.init_json = "{\"fill\":\"const\",\"value\":1}";
  b.bytes = 64;
  cap.buffers.push_back(b);
  TensorDesc t;
  t.name = "A";
  t.mode = "tile";
  t.rank = 2;
  t.dims_in_ptx = 2;
  t.dims[0] = 8;
  t.dims[1] = 4;
  t.box[0] = 8;
  t.box[1] = 8;
  t.esize = 2;
  t.tensor_json = "{\"dtype\":\"bf16\",\"rank\":2}";
  t.encode_json = "{}";
  cap.tensors.push_back(t);
  Rec r{};
  r.kind = kRecLoad;
  r.cta[0] = 1;
  r.rank = 1;
  r.t0 = 50;
  r.bytes = 128;
  r.mask = 3;
  cap.recs.push_back(r);
  Rec w{};
  w.kind = kRecWait;
  w.t0 = 10;
  w.aux2 = 1;
  cap.recs.push_back(w);
  Rec st{};
  st.kind = kRecStore;
  st.t0 = 20;
  st.bytes = 16;
  st.aux = 0;
  cap.recs.push_back(st);
  std::vector<uint8_t> dump(4096, 0xab);
  cap.dump = dump.data();
  cap.dump_slot = 4096;
  cap.dump_slots = 1;
  FILE* f = std::fopen("/tmp/cosim_selftest.jsonl", "w");
  Counts n = WriteTrace(cap, f);
  std::fclose(f);
  Expect(n.by_kind["load_multicast"] == 1 && n.by_kind["wait"] == 1 && n.by_kind["store"] == 1,
         "record counts");
  Expect(n.desc_mismatch == 0, "descriptor compare");
  std::printf("%s\n", fails ? "selftest FAILED" : "selftest ok");
  return fails ? 1 : 0;
}
