// SPDX-License-Identifier: Apache-2.0
//
// VerilatedDut: owns a VerilatedContext and a Verilated C++ model with clk_i/rst_ni, and drives
// the clock. Assertion failures ($error from the SVA) are recorded, not fatal, so a test can
// check GotError() at its end (every test does) or provoke one on purpose.

#ifndef TMA_TESTS_RTL_VERILATED_DUT_H_
#define TMA_TESTS_RTL_VERILATED_DUT_H_

#include <cstdint>
#include <memory>

#include <verilated.h>

namespace tma::tb {

template <class Model>
class VerilatedDut {
 public:
  explicit VerilatedDut(uint32_t seed) : ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->fatalOnError(false);  // an SVA $error sets gotError() instead of aborting
    ctx_->randReset(2);         // randomise every flop at start (shakes out reset bugs)
    ctx_->randSeed(static_cast<int>(seed % 0x7fffffffu) + 1);
    model_ = std::make_unique<Model>(ctx_.get(), "dut");
    model_->clk_i = 0;
    model_->rst_ni = 1;
    model_->eval();
  }
  ~VerilatedDut() { model_->final(); }
  VerilatedDut(const VerilatedDut&) = delete;
  VerilatedDut& operator=(const VerilatedDut&) = delete;

  Model* operator->() { return model_.get(); }

  // Asynchronous reset, held for two clock edges, released with the clock low.
  void Reset() {
    model_->rst_ni = 0;
    model_->eval();
    Cycle();
    Cycle();
    model_->rst_ni = 1;
    model_->eval();
  }

  // Re-evaluate combinational outputs after the test changed inputs (clock low).
  void Settle() { model_->eval(); }

  // One clock period: the inputs set before the call are sampled at the rising edge.
  void Cycle() {
    model_->clk_i = 1;
    model_->eval();
    ctx_->timeInc(5);
    model_->clk_i = 0;
    model_->eval();
    ctx_->timeInc(5);
  }

  bool GotError() const { return ctx_->gotError(); }

 private:
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> model_;
};

}  // namespace tma::tb

#endif  // TMA_TESTS_RTL_VERILATED_DUT_H_
