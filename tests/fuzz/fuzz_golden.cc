// SPDX-License-Identifier: Apache-2.0
//
// libFuzzer harness: the golden-case reader (tests/fuzz/README.md). The input is a case file
// (JSON lines, or gzip): it goes through ForEachGoldenCase with small limits (16 KiB per case,
// 64 KiB per line). Each case read is written back and read again (it must parse), and replayed
// on the model unless its box is large (more than 64 rows or 64 units).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <unistd.h>

#include "tma/encoder.h"
#include "tma/golden.h"
#include "tma/golden_replay.h"
#include "tma/traversal.h"

using namespace tma::model;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path =
      "/tmp/tma_fuzz_golden_" + std::to_string(static_cast<long>(getpid())) + ".jsonl";
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) {
    std::abort();
  }
  if (size > 0 && std::fwrite(data, 1, size, f) != size) {
    std::abort();
  }
  std::fclose(f);
  GoldenLimits limits;
  limits.max_case_bytes = 16 << 10;
  limits.max_line_bytes = 64 << 10;
  std::string err;
  ForEachGoldenCase(
      path, limits,
      [](GoldenCase&& c) {
        GoldenCase back;
        std::string e;
        if (!ParseGoldenCase(GoldenCaseToJson(c), &back, &e)) {
          std::abort();  // what the writer writes, the reader must read
        }
        // The replay validates the map before any traversal; the plan here (of a valid map
        // only, as the model does) just keeps each input fast.
        TensorMap m;
        const std::optional<Arch> arch = ParseArch(c.arch);
        bool small = true;
        if (arch && CaseMap(c, &m).ok() && ValidateTensorMap(m, *arch).ok()) {
          const TraversalPlan plan = PlanTraversal(m, CaseInstr(c));
          small = !plan.ok || (plan.num_rows <= 64 && plan.units <= 64);
        }
        if (small) {
          ModelEngine engine;
          (void)ReplayCase(c, engine);
        }
        return true;
      },
      &err);
  return 0;
}
