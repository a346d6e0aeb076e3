// SPDX-License-Identifier: Apache-2.0
//
// DutCoverage: functional coverage of what the DUT did, sampled by a monitor on the pins of
// tma_sim_top (TopPins), a harness component like the ports (the bench, the golden replay and
// the fault-injection campaigns add it first), never on the stimulus or the model's prediction:
//   * each command the DUT accepted (cmd handshake): op, mode, reduction op, rank (.Nd),
//     multicast size; the map's element type, swizzle and interleave from the descriptor
//     bytes the DUT fetched (R beats of ID AxiIdDesc; a command that fetched nothing used the
//     map it had cached from an earlier fetch of that address: a descriptor-cache hit);
//   * each command's first completion: its kind and error class and the cycles from the
//     command handshake (latency class), crossed with op, mode, type and swizzle;
//   * prefetch reads: a data-read AR while every open command is a prefetch of one mode
//     (tensor tile, im2col, im2col::w, im2col::w::128, gather4, or the non-tensor bulk
//     prefetch): the engine read that prefetch's box (PrefetchReads = 1);
//   * the AXI4 ports: read and write burst lengths, bursts ending on a 4 KiB page boundary,
//     R responses out of AR order (ID reordering), RRESP / BRESP classes and the position of
//     an error beat in its burst, descriptor invalidations;
//   * back-pressure: every handshake the DUT or the harness stalled (valid && !ready) on the
//     command, AR, R, AW, W, B, shared-memory write and read and completion streams;
//   * shared-memory writes: multicast beats, partial strobes, the 16-byte phase in the
//     128-byte swizzle atom.
// The bins and those that are no goal (ignored, with the reason) are listed in
// dut_coverage.cc. WriteBins writes the file format tools/regress merges (one line per bin:
// kind, item, bin, hits, ignored, name), the items named "dut.*".
#ifndef TMA_SIM_DUT_COVERAGE_H_
#define TMA_SIM_DUT_COVERAGE_H_

#include <array>
#include <cstdint>
#include <deque>
#include <iosfwd>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/common.h"
#include "sim/pins.h"

namespace tma::sim {

class DutCoverage : public Clocked {
 public:
  DutCoverage();
  void Tick(TopPins& p, uint64_t now) override;
  // Mean over the items of (bins hit / bins not ignored), in percent.
  double Percent() const;
  void WriteBins(std::ostream& os) const;
  // Writes the bins to the file named by $TMA_DUT_FCOV_OUT, if set; false when it cannot.
  bool WriteEnvFile() const;

 private:
  struct Item {
    std::string name;
    std::vector<std::string> bins;
    std::vector<uint64_t> hits;
    std::vector<bool> ignored;
    std::vector<std::string> why;  // the reason a bin is ignored
  };
  struct Open {  // a command between its handshake and its first completion
    bool valid = false;
    uint8_t op = 0, mode = 0;
    uint64_t desc_addr = 0;
    uint64_t start = 0;
  };
  int Add(const std::string& name, std::vector<std::string> bins);
  int AddCross(const std::string& name, int a, int b);
  void Ignore(int item, int bin, const std::string& why);
  void Hit(int item, int bin);
  void HitCross(int item, int a, int b);
  void Completed(const Open& o, uint8_t kind, uint8_t err, uint64_t now);
  void Reset();

  std::vector<Item> items_;
  std::map<int, std::pair<int, int>> cross_of_;  // cross item -> (item a, item b)
  // item indices
  int op_, mode_, redop_, rank_, mcast_, dtype_, swz_, il_, err_, kind_, lat_, opmode_, operr_,
      moderr_, opdtype_, opswz_, modeil_, swzdtype_, opmcast_, cache_, arlen_, awlen_, page_,
      rresp_, bresp_, errpos_, order_, stall_, smem_, phase_;
  int pfrd_;                                          // dut.prefetch_reads
  std::array<Open, 256> open_{};                      // by tag
  std::unordered_map<uint64_t, uint8_t> desc_bytes_;  // every byte read on the descriptor ID
  std::deque<std::pair<uint64_t, int>> cmd_maps_;     // commands: map address, read (1) or not (-1)
  std::deque<std::pair<uint64_t, int>>
      desc_beats_;  // descriptor bursts: next beat address, beats left
  std::array<std::deque<std::pair<uint8_t, uint16_t>>, 16> rd_bursts_;  // per ID: (len, beat)
  std::deque<uint8_t> ar_order_;                                        // IDs in AR order
  bool in_reset_ = true;
  bool inval_pending_ = false;
};

}  // namespace tma::sim

#endif  // TMA_SIM_DUT_COVERAGE_H_
