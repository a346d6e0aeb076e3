// SPDX-License-Identifier: Apache-2.0
//
// BoardCaseEngine: golden-case replay on the ULX3S board top (`tma run --engine board --link
// uart:PATH[@BAUD]`) through any fw::Link to it: the UARTBone link to the physical board or to
// the Verilated board top's pty (boards/ulx3s/sim/). The same firmware as `--engine soc`
// (fw::SocDriver over fw::Link) and the same cases and expected results. Per case:
//   * the board's global-memory window (board registers GMEM_BASE / GMEM_LIMIT) is set so that
//     RAM page 0 holds the tensor map and the rings and the case's buffer follows at RAM byte
//     4096 + (buffer address mod 4096), answering the engine at the case's own addresses;
//     beats past the buffer's end are bus errors, as the replay's flat buffer has them (bytes
//     between the page start and the buffer, and the system page, are readable: a difference
//     no golden case touches);
//   * the buffer's words that differ from what the board holds are written (the host keeps a
//     copy of the RAM and of each CTA's shared memory), the shared-memory windows likewise;
//   * soft reset, CTRL.arch / CTRL.cluster, mbarrier slot 0 of every destination CTA armed,
//     the command through the command ring (even case index) or the register window (odd),
//     completions polled (the UART has no interrupt line) from the completion ring or FIFO;
//   * the barriers checked against the completions, the windows read back; for a store or a
//     reduction the buffer is read back too (a load's buffer is not: the engine has no write
//     for it);
//   * the board's STATUS: a host access answered SLVERR / DECERR or a lost UART byte fails the
//     case.
// A non-tensor bulk case sends sim::RtlBulkCommand (no map); a shared::cta -> shared::cluster
// copy or reduction ends with one complete-tx on its destination CTA. A tensor case whose map
// has no 128-byte encoding and which the host's encoder refuses gets the host's verdict
// (sim::RtlHostEncoderRefusal). A case the RTL does not claim is skipped (sim::RtlSkipReason),
// and one that does not fit the board's memories is skipped for size and listed.
#ifndef TMA_BOARDS_ULX3S_HOST_BOARD_CASE_ENGINE_H_
#define TMA_BOARDS_ULX3S_HOST_BOARD_CASE_ENGINE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sim/rtl_support.h"
#include "tma/fw/link.h"
#include "tma/golden_replay.h"

namespace tma::board {

// The board build the runner assumes (boards/ulx3s/rtl/opentma_board_top.v defaults); the
// runner reads GMEM_BYTES and DATA_BYTES from the board: it takes the board's RAM size and
// refuses another data width.
struct BoardBuild {
  uint32_t gmem_bytes = 262144;  // replaced by the board's GMEM_BYTES in Probe()
  int num_ctas = 4;
  uint32_t smem_bytes = 16384;
  // The engine built with Arch 90 and StorePath 0 (build_bitstream.py's default bitstream):
  // the claims of sim::RtlBuild::Load90, so stores, reductions and Blackwell modes are skipped
  // as outside the build (tma-board run --build load90).
  bool load90 = false;
};

// Link addresses of the board's AXI4-Lite map (board_axil_xbar in the board top).
inline constexpr uint64_t kSocBase = 0x00000000;
inline constexpr uint64_t kGmemBase = 0x10000000;
inline constexpr uint64_t kCsrBase = 0x20000000;

class BoardCaseEngine : public tma::model::CaseEngine {
 public:
  explicit BoardCaseEngine(tma::fw::Link* link, BoardBuild build = {});
  std::string Name() const override { return "board"; }
  // Reads the board's ID, GMEM_BYTES and DATA_BYTES; false and *error when they do not match.
  bool Probe(std::string* error);
  tma::model::CaseOutcome Run(const tma::model::GoldenCase& c, tma::model::GlobalMemoryIf& global,
                              tma::model::SharedMemoryIf& smem) override;
  const std::string& last_note() const { return note_; }
  const std::vector<std::string>& size_skips() const { return size_skips_; }
  void set_max_polls(uint64_t n) { max_polls_ = n; }

 private:
  // Writes the words of `want` that differ from `shadow` at link address `at` (runs of
  // consecutive words in one block); false on a link failure.
  bool Upload(uint64_t at, const std::vector<uint32_t>& want, size_t first,
              std::vector<uint32_t>* shadow, std::vector<bool>* known);
  bool Csr(uint32_t off, uint32_t v);

  tma::fw::Link* l_;
  BoardBuild b_;
  tma::sim::RtlBuild rtl_;
  std::string note_;
  uint64_t runs_ = 0;
  uint64_t max_polls_ = 20000;
  std::vector<uint32_t> ram_;  // the host's copy of the board's RAM, per word
  std::vector<bool> ram_known_;
  std::vector<std::vector<uint32_t>> smem_;
  std::vector<std::vector<bool>> smem_known_;
  std::vector<std::string> size_skips_;
};

}  // namespace tma::board

#endif  // TMA_BOARDS_ULX3S_HOST_BOARD_CASE_ENGINE_H_
