// SPDX-License-Identifier: Apache-2.0
//
// The example instructions of the seed PTX pages (tests/cmodel/data/seed_examples.txt, written
// by tools/extract_seed_examples.py): one "file:line<TAB>statement" per line.
#ifndef TMA_TESTS_CMODEL_SEED_EXAMPLES_H_
#define TMA_TESTS_CMODEL_SEED_EXAMPLES_H_

#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace tma::model {

struct SeedExample {
  std::string where;  // "001_cd298048cf4fd0ee.txt:242"
  std::string text;
};

inline std::vector<SeedExample> LoadSeedExamples() {
  std::string path = __FILE__;
  path = path.substr(0, path.find_last_of('/')) + "/data/seed_examples.txt";
  std::ifstream f(path);
  EXPECT_TRUE(f.good()) << "cannot open " << path;
  std::vector<SeedExample> out;
  std::string line;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#') {
      continue;
    }
    const size_t tab = line.find('\t');
    out.push_back({line.substr(0, tab), line.substr(tab + 1)});
  }
  return out;
}

}  // namespace tma::model

#endif  // TMA_TESTS_CMODEL_SEED_EXAMPLES_H_
