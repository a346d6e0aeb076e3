// SPDX-License-Identifier: Apache-2.0
//
// The Verilated board top bridged to a pty (board_sim.h). Built with TMA_BOARD_CLKS_PER_BIT 0,
// the model is board_core (the board without its PLL and UART PHY) and bytes move on its byte port
// with its FIFO's back-pressure, one a clock at most: the fast board simulation.
#include "boards/ulx3s/sim/board_sim.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <termios.h>
#include <unistd.h>

#include <verilated.h>

#if TMA_BOARD_CLKS_PER_BIT == 0
#include "Vboard_core.h"
using BoardModel = Vboard_core;
#else
#include "Vopentma_board_top.h"
using BoardModel = Vopentma_board_top;
#endif

namespace tma::board {

struct BoardSim::Model {
  VerilatedContext ctx;
  std::unique_ptr<BoardModel> top;
};

BoardSim::BoardSim(int clks_per_bit) : m_(std::make_unique<Model>()), cpb_(clks_per_bit) {
  m_->ctx.fatalOnError(false);  // an assertion failure is counted, not an abort
  m_->top = std::make_unique<BoardModel>(&m_->ctx, "board");
  BoardModel& t = *m_->top;
#if TMA_BOARD_CLKS_PER_BIT == 0
  // board_core has no power-on reset of its own: hold rst_ni low for a few clocks.
  t.clk_i = 0;
  t.rst_ni = 0;
  t.rx_valid_i = 0;
  t.tx_ready_i = 1;
  for (int i = 0; i < 4; ++i) {
    Tick();
  }
  t.rst_ni = 1;
#else
  t.clk_25mhz = 0;
  t.btn = 1;
  t.ftdi_txd = 1;
#endif
  t.eval();
}

BoardSim::~BoardSim() {
  m_->top->final();
  if (slave_ >= 0) {
    close(slave_);
  }
  if (master_ >= 0) {
    close(master_);
  }
}

std::string BoardSim::OpenPty(std::string* error) {
  master_ = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (master_ < 0 || grantpt(master_) != 0 || unlockpt(master_) != 0) {
    *error = std::string("posix_openpt: ") + std::strerror(errno);
    return "";
  }
  const std::string name = ptsname(master_);
  slave_ = open(name.c_str(), O_RDWR | O_NOCTTY | O_CLOEXEC);
  termios t{};
  if (slave_ < 0 || tcgetattr(slave_, &t) != 0) {
    *error = "open " + name + ": " + std::strerror(errno);
    return "";
  }
  cfmakeraw(&t);
  tcsetattr(slave_, TCSANOW, &t);
  fcntl(master_, F_SETFL, fcntl(master_, F_GETFL) | O_NONBLOCK);
  return name;
}

bool BoardSim::Idle() const {
  return to_board_.empty() && from_board_.empty() && tx_bit_ < 0 && rx_bit_ < 0;
}

void BoardSim::Exchange() {
  uint8_t buf[4096];
  const ssize_t n = read(master_, buf, sizeof(buf));
  if (n > 0) {
    to_board_.insert(to_board_.end(), buf, buf + n);
    bytes_in_ += static_cast<uint64_t>(n);
  }
  if (!from_board_.empty()) {
    const ssize_t w = write(master_, from_board_.data(), from_board_.size());
    if (w > 0) {
      from_board_.erase(0, static_cast<size_t>(w));
      bytes_out_ += static_cast<uint64_t>(w);
    }
  }
}

void BoardSim::Tick() {
  BoardModel& t = *m_->top;
#if TMA_BOARD_CLKS_PER_BIT == 0
  auto& clk = t.clk_i;
#else
  auto& clk = t.clk_25mhz;  // the PLL is bypassed: its 25 MHz pin is the clock
#endif
  clk = 1;
  t.eval();
  clk = 0;
  t.eval();
  if (m_->ctx.gotError()) {
    ++asserts_;
    m_->ctx.gotError(false);
  }
}

#if TMA_BOARD_CLKS_PER_BIT == 0
void BoardSim::Cycle() {
  BoardModel& t = *m_->top;
  // Host -> board: a byte when the bridge's FIFO has room (rx_ready_o settled before the edge).
  t.rx_valid_i = 0;
  if (!to_board_.empty() && t.rx_ready_o) {
    t.rx_valid_i = 1;
    t.rx_data_i = to_board_.front();
    to_board_.pop_front();
  }
  // Board -> host: tx_ready_i is always high, so a byte offered now is taken at this edge.
  if (t.tx_valid_o) {
    from_board_.push_back(static_cast<char>(t.tx_data_o));
  }
  Tick();
  ++cycle_;
}
#else
void BoardSim::Cycle() {
  BoardModel& t = *m_->top;
  // Host -> board: the pin for this clock.
  if (tx_bit_ < 0 && !to_board_.empty()) {
    tx_byte_ = to_board_.front();
    to_board_.pop_front();
    tx_bit_ = 0;
    tx_wait_ = cpb_;
  }
  t.ftdi_txd = tx_bit_ < 0 || tx_bit_ == 9 ? 1 : tx_bit_ == 0 ? 0 : (tx_byte_ >> (tx_bit_ - 1)) & 1;
  if (tx_bit_ >= 0 && --tx_wait_ == 0) {
    tx_wait_ = cpb_;
    if (++tx_bit_ == 10) {
      tx_bit_ = -1;
    }
  }
  Tick();
  ++cycle_;
  // Board -> host: find the start bit, sample each bit in its middle.
  const int pin = t.ftdi_rxd;
  if (rx_bit_ < 0) {
    if (pin == 0) {
      rx_bit_ = 0;
      rx_wait_ = cpb_ + cpb_ / 2;
      rx_byte_ = 0;
    }
  } else if (--rx_wait_ == 0) {
    if (rx_bit_ < 8) {
      rx_byte_ |= static_cast<uint8_t>(pin << rx_bit_);
      ++rx_bit_;
      rx_wait_ = cpb_;
    } else {
      if (pin == 1) {
        from_board_.push_back(static_cast<char>(rx_byte_));
      } else {
        std::fprintf(stderr, "board-sim: framing error on ftdi_rxd at cycle %llu\n",
                     static_cast<unsigned long long>(cycle_));
      }
      rx_bit_ = -1;
    }
  }
}
#endif

uint64_t BoardSim::Run(const std::atomic<bool>* stop) {
  uint64_t quiet = 0;  // cycles since the last byte moved
  while (!stop->load()) {
    if (quiet >= kBusyCycles && Idle()) {
      // Nothing moves and the engine had its time: wait for the host.
      pollfd p{master_, POLLIN, 0};
      if (poll(&p, 1, 50) <= 0) {
        continue;
      }
    }
    const uint64_t before = bytes_in_ + bytes_out_;
    Exchange();
    for (int i = 0; i < 64; ++i) {
      Cycle();
    }
    const bool moving = !Idle() || bytes_in_ + bytes_out_ != before;
    quiet = moving ? 0 : quiet + 64;
  }
  return asserts_;
}

}  // namespace tma::board
