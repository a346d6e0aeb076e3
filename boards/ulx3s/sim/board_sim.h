// SPDX-License-Identifier: Apache-2.0
//
// BoardSim: the Verilated ULX3S board top (opentma_board_top with the PLL bypassed, so its
// 25 MHz pin is the system clock) with its UART pins bridged to a pseudo-terminal, the way a
// host reaches the real board through the FT231X (the OpenTitan uartdpi pattern). The host
// opens the pty's slave like /dev/ttyUSB0 (`tma run --engine board --link uart:/dev/pts/N`).
// The bridge works at the bit level: bytes from the pty are sent on ftdi_txd as 8N1 frames of
// clks_per_bit clocks per bit (the Verilated ClksPerBit); ftdi_rxd is sampled in the middle of
// each bit and every received byte goes to the pty. The clock runs while bytes move and for
// kBusyCycles after the last one (the engine works meanwhile); then the simulation waits for
// the host without advancing. Built with TMA_BOARD_CLKS_PER_BIT 0 (tma-board-sim-fast) the model is
// board_core, the same logic without the PLL and the UART PHY, and bytes move on its byte port
// (board_sim.cc).
#ifndef TMA_BOARDS_ULX3S_SIM_BOARD_SIM_H_
#define TMA_BOARDS_ULX3S_SIM_BOARD_SIM_H_

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>

namespace tma::board {

class BoardSim {
 public:
  static constexpr uint64_t kBusyCycles = 200000;

  explicit BoardSim(int clks_per_bit);
  ~BoardSim();
  BoardSim(const BoardSim&) = delete;
  BoardSim& operator=(const BoardSim&) = delete;

  // Opens the pty (raw mode; the simulation keeps the slave open too, so a host may close and
  // reopen it); returns the slave's path, or "" and *error.
  std::string OpenPty(std::string* error);
  // Runs until *stop is set; returns the number of RTL assertion failures seen.
  uint64_t Run(const std::atomic<bool>* stop);
  uint64_t cycles() const { return cycle_; }
  uint64_t bytes_in() const { return bytes_in_; }
  uint64_t bytes_out() const { return bytes_out_; }

 private:
  struct Model;
  void Cycle();     // one clock with the UART pins (or the byte port) driven and sampled
  void Tick();      // one rising and falling edge; counts an RTL assertion failure
  void Exchange();  // pty <-> byte queues (non-blocking)
  bool Idle() const;

  std::unique_ptr<Model> m_;
  int cpb_;
  int master_ = -1, slave_ = -1;
  uint64_t cycle_ = 0, asserts_ = 0, bytes_in_ = 0, bytes_out_ = 0;
  std::deque<uint8_t> to_board_;
  std::string from_board_;
  // Transmitter (host -> board): bit 0 start, 1..8 data, 9 stop; -1 idle.
  int tx_bit_ = -1, tx_wait_ = 0;
  uint8_t tx_byte_ = 0;
  // Receiver (board -> host)
  int rx_bit_ = -1, rx_wait_ = 0;
  uint8_t rx_byte_ = 0;
};

}  // namespace tma::board

#endif  // TMA_BOARDS_ULX3S_SIM_BOARD_SIM_H_
