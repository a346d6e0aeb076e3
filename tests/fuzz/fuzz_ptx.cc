// SPDX-License-Identifier: Apache-2.0
//
// libFuzzer harness: the PTX parser (tests/fuzz/README.md). The input's first 8 bytes seed the
// register values, the rest is PTX text. A parsed instruction is printed and parsed again (the
// two must be equal), checked for both targets, and converted to the model's instruction with
// every register bound to a value drawn from the seed (extremes included).
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "tma/ptx.h"

using namespace tma::model;

namespace {

uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

int64_t Draw(uint64_t h) {
  static const int64_t kEdges[] = {0,     1,     -1,         16,        128,       1024,
                                   65535, 65536, 0x7fffffff, INT64_MAX, INT64_MIN, 0x100000000ll};
  return (h & 3) == 0 ? kEdges[(h >> 2) % (sizeof(kEdges) / sizeof(kEdges[0]))]
                      : static_cast<int64_t>((h >> 2) & 0xfffff);
}

void Bind(const PtxOperand& o, uint64_t seed, PtxBindings* b) {
  if (!o.name.empty() && !b->values.count(o.name)) {
    uint64_t h = seed;
    for (char ch : o.name) {
      h = Mix(h ^ static_cast<uint8_t>(ch));
    }
    b->values[o.name] = Draw(h);
  }
  for (const PtxOperand& e : o.elems) {
    Bind(e, seed, b);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  uint64_t seed = 0;
  const size_t k = size < 8 ? size : 8;
  std::memcpy(&seed, data, k);
  const std::string text(reinterpret_cast<const char*>(data) + k, size - k);
  PtxParseResult p = Parse(text);
  if (!p.ok()) {
    return 0;
  }
  const std::string printed = Print(p.instr);
  PtxParseResult again = Parse(printed);
  if (!again.ok() || Print(again.instr) != printed) {
    std::abort();  // Print must produce text that parses back to the same instruction
  }
  PtxBindings b;
  for (const PtxOperand& o : p.instr.operands) {
    Bind(o, seed, &b);
  }
  b.issuer_cta = static_cast<int>(Mix(seed) % 16);
  b.cluster_window_bytes = (seed & 1) ? 0 : 65536;
  for (Target t : {Target::kSm90a, Target::kSm100a}) {
    (void)Check(p.instr, t);
    (void)ToTensorInstr(p.instr, b, t);
    (void)ToBulkCopyInstr(p.instr, b, t);
    (void)ToBulkReduceInstr(p.instr, b, t);
    (void)ToBulkPrefetchInstr(p.instr, b, t);
  }
  return 0;
}
