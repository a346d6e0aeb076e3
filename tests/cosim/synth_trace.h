// SPDX-License-Identifier: Apache-2.0
//
// Pieces of the SYNTHETIC otma-trace v1 files the host tests write themselves (host_test.cc,
// accel_sim_contract_test.cc): two buffers, IN (1024 bytes of SplitMix64 from seed 5, as its
// header init says) and OUT (512 zero bytes), the header, and records of one cluster.
#ifndef TESTS_COSIM_SYNTH_TRACE_H_
#define TESTS_COSIM_SYNTH_TRACE_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tma/golden.h"

namespace cosim_test {

constexpr uint64_t kSynthIn = 0x7f0000100000ull, kSynthOut = 0x7f0000200000ull;

inline std::vector<uint8_t> SynthIn() {
  std::vector<uint8_t> v(1024);
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = static_cast<uint8_t>(tma::model::SplitMix64(5 + i));
  return v;
}

// The header: a cluster of `ctas` CTAs (grid = one cluster) of `threads` threads, IN and OUT.
inline nlohmann::json SynthHeader(const std::string& kernel, const std::string& source, int ctas,
                                  int threads) {
  using nlohmann::json;
  json h = {{"rec", "header"},
            {"format", "otma-trace"},
            {"version", 1},
            {"kernel", kernel},
            {"source", "synthetic:" + source},
            {"grid", {ctas, 1, 1}},
            {"block", {threads, 1, 1}},
            {"cluster", {ctas, 1, 1}},
            {"capture", {{"stage_hash", true}, {"store_sources", true}}}};
  h["buffers"] = json::array({{{"name", "IN"},
                               {"role", "input"},
                               {"bytes", 1024},
                               {"va", kSynthIn},
                               {"dtype", "u8"},
                               {"init", {{"fill", "splitmix64"}, {"seed", 5}}}},
                              {{"name", "OUT"},
                               {"role", "output"},
                               {"bytes", 512},
                               {"va", kSynthOut},
                               {"dtype", "u8"},
                               {"init", {{"fill", "const"}, {"value", 0}}}}});
  return h;
}

// Records of cluster 0 in order: seq 0, 1, ... and t 1010, 1020, ...
struct SynthRecords {
  int64_t seq = 0;
  uint64_t t = 1000;
  nlohmann::json Base(const char* rec, int rank, int warp) {
    return nlohmann::json{{"rec", rec},
                          {"seq", seq++},
                          {"t", t += 10},
                          {"cta", {rank, 0, 0}},
                          {"cluster_id", {0, 0, 0}},
                          {"rank", rank},
                          {"warp", warp}};
  }
  // A 2-D u8 tile load or store of box {b0, b1} at `coords` of a {d0, d1} tensor with pitch
  // `pitch`, described by the 128 bytes `map`, to / from shared `smem` (`bytes` box bytes).
  nlohmann::json Tile(const char* op, int rank, int warp, const std::vector<uint8_t>& map,
                      uint64_t d0, uint64_t d1, uint64_t pitch, uint32_t b0, uint32_t b1,
                      const std::vector<int>& coords, uint32_t smem, uint32_t bytes) {
    nlohmann::json r = Base("tma", rank, warp);
    r.update({{"op", op},
              {"mode", "tile"},
              {"tensor",
               {{"dtype", "u8"},
                {"rank", 2},
                {"dims", {d0, d1}},
                {"strides", {pitch}},
                {"box", {b0, b1}}}},
              {"desc", tma::model::ToHex(map.data(), 128)},
              {"coords", coords},
              {"smem_addr", smem},
              {"bytes", bytes},
              {"oob_bytes", 0}});
    return r;
  }
};

// The final record of a buffer.
inline nlohmann::json SynthFinal(const char* name, const std::vector<uint8_t>& bytes) {
  return nlohmann::json{{"rec", "final"},
                        {"buffer", name},
                        {"bytes", bytes.size()},
                        {"sha256", tma::model::Sha256Hex(bytes.data(), bytes.size())}};
}

}  // namespace cosim_test

#endif  // TESTS_COSIM_SYNTH_TRACE_H_
