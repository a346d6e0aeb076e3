// SPDX-License-Identifier: Apache-2.0
//
// tma-board-sim: the Verilated ULX3S board top on a pseudo-terminal (board_sim.h).
//   tma-board-sim            (-bit, -fast alike) prints "tma-board-sim: pty /dev/pts/N" and runs
//                            until SIGINT / SIGTERM, then prints the cycles, the bytes moved and
//                            the RTL assertion failures (the AXI protocol checkers bound to the
//                            board's buses among them).
// Exit: 0, or 1 when an assertion failed, 2 when the pty could not be opened.
#include <atomic>
#include <csignal>
#include <cstdio>
#include <string>

#include "boards/ulx3s/sim/board_sim.h"

#ifndef TMA_BOARD_CLKS_PER_BIT
#error "TMA_BOARD_CLKS_PER_BIT: the Verilated ClksPerBit (0: board_core with a byte link)"
#endif

namespace {
std::atomic<bool> g_stop{false};
void OnSignal(int) {
  g_stop = true;
}
}  // namespace

int main() {
  tma::board::BoardSim sim(TMA_BOARD_CLKS_PER_BIT);
  std::string err;
  const std::string pty = sim.OpenPty(&err);
  if (pty.empty()) {
    std::fprintf(stderr, "tma-board-sim: %s\n", err.c_str());
    return 2;
  }
  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
#if TMA_BOARD_CLKS_PER_BIT == 0
  std::printf("tma-board-sim: pty %s (byte link: board_core without the UART PHY)\n", pty.c_str());
#else
  std::printf("tma-board-sim: pty %s (UART %d clocks per bit)\n", pty.c_str(),
              TMA_BOARD_CLKS_PER_BIT);
#endif
  std::fflush(stdout);
  const uint64_t asserts = sim.Run(&g_stop);
  std::printf(
      "tma-board-sim: %llu cycles, %llu bytes in, %llu bytes out, %llu assertion "
      "failure(s)\n",
      static_cast<unsigned long long>(sim.cycles()),
      static_cast<unsigned long long>(sim.bytes_in()),
      static_cast<unsigned long long>(sim.bytes_out()), static_cast<unsigned long long>(asserts));
  return asserts == 0 ? 0 : 1;
}
