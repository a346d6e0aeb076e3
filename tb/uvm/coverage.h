// SPDX-License-Identifier: Apache-2.0
//
// Functional coverage of the OpenTMA UVM-style layer: coverpoints with named bins, crosses
// of two coverpoints (with bins excluded by a predicate), hit counts, and a text table with
// the percentage of bins hit. A bin may be marked "ignore" (not counted in the percentage,
// e.g. features the DUT configuration does not implement).
#ifndef TMA_TB_UVM_COVERAGE_H_
#define TMA_TB_UVM_COVERAGE_H_

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace tma::tb::uvm {

class Coverpoint {
 public:
  Coverpoint(std::string name, std::vector<std::string> bins)
      : name_(std::move(name)),
        bins_(std::move(bins)),
        hits_(bins_.size(), 0),
        ignored_(bins_.size(), false) {}
  // Counts a hit of bin `b` (out of range: ignored).
  void Sample(int b) {
    if (b >= 0 && b < static_cast<int>(hits_.size())) {
      ++hits_[b];
    }
  }
  void Ignore(int b) { ignored_.at(b) = true; }
  const std::string& name() const { return name_; }
  int size() const { return static_cast<int>(bins_.size()); }
  const std::string& bin(int b) const { return bins_.at(b); }
  uint64_t hits(int b) const { return hits_.at(b); }
  bool ignored(int b) const { return ignored_.at(b); }
  int Covered() const;  // bins hit, not ignored
  int Goal() const;     // bins not ignored
  double Percent() const { return Goal() ? 100.0 * Covered() / Goal() : 100.0; }

 private:
  std::string name_;
  std::vector<std::string> bins_;
  std::vector<uint64_t> hits_;
  std::vector<bool> ignored_;
};

class Cross {
 public:
  Cross(std::string name, int a_size, int b_size)
      : name_(std::move(name)),
        a_(a_size),
        b_(b_size),
        hits_(a_size * b_size, 0),
        ignored_(a_size * b_size, false) {}
  void Sample(int a, int b) {
    if (a >= 0 && a < a_ && b >= 0 && b < b_) {
      ++hits_[a * b_ + b];
    }
  }
  void Ignore(const std::function<bool(int, int)>& pred);
  const std::string& name() const { return name_; }
  int size() const { return a_ * b_; }  // bins, bin (a, b) at a * b_size + b
  uint64_t hits(int i) const { return hits_.at(i); }
  bool ignored(int i) const { return ignored_.at(i); }
  int Covered() const;
  int Goal() const;
  double Percent() const { return Goal() ? 100.0 * Covered() / Goal() : 100.0; }

 private:
  std::string name_;
  int a_;
  int b_;
  std::vector<uint64_t> hits_;
  std::vector<bool> ignored_;
};

class CoverGroup {
 public:
  explicit CoverGroup(std::string name) : name_(std::move(name)) {}
  int AddPoint(const std::string& name, std::vector<std::string> bins);  // returns its index
  int AddCross(const std::string& name, int point_a, int point_b);
  Coverpoint& point(int i) { return points_.at(i); }
  const Coverpoint& point(int i) const { return points_.at(i); }
  Cross& cross(int i) { return crosses_.at(i).cross; }
  // Mean of the coverpoint and cross percentages.
  double Percent() const;
  // One line per coverpoint and cross ("name  hit/goal  pct  missing: a b c"); with
  // `detail`, one line per bin with its hit count.
  void Print(std::ostream& os, bool detail = false) const;
  // Every bin as a line "point|cross<TAB>item<TAB>bin index<TAB>hits<TAB>ignored (0/1)<TAB>bin
  // name" (a cross bin's name is "a/b"), for merging runs (tools/regress: a bin is covered
  // when any run hit it).
  void WriteBins(std::ostream& os) const;

 private:
  struct CrossEntry {
    Cross cross;
    int a;
    int b;
  };
  std::string name_;
  std::vector<Coverpoint> points_;
  std::vector<CrossEntry> crosses_;
};

}  // namespace tma::tb::uvm

#endif  // TMA_TB_UVM_COVERAGE_H_
