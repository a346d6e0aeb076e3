// SPDX-License-Identifier: Apache-2.0
//
// tma_assert.svh: assertion macros for OpenTMA RTL. Default clock clk_i, default disable
// !rst_ni. Under SYNTHESIS every macro expands to nothing. Only the SVA subset accepted by
// both Yosys 0.23 and Verilator 5.006 is used (no ##N, no sequence blocks).
// (No comment line may start with the word Verilator: it is read as a meta-comment.)

`ifndef TMA_ASSERT_SVH
`define TMA_ASSERT_SVH

`ifndef SYNTHESIS

// Concurrent assertion: prop must hold on every clock edge outside reset.
`define TMA_ASSERT(__name, __prop, __clk = clk_i, __rst = !rst_ni) \
  __name: assert property (@(posedge __clk) disable iff (__rst) (__prop)) \
    else $error("[%m] assertion %s failed", `"__name`");

// Concurrent assertion: prop must never hold.
`define TMA_ASSERT_NEVER(__name, __prop, __clk = clk_i, __rst = !rst_ni) \
  __name: assert property (@(posedge __clk) disable iff (__rst) !(__prop)) \
    else $error("[%m] assertion %s failed", `"__name`");

// Elaboration-time check of parameters: fails the simulation at time 0 with a message.
`define TMA_ASSERT_INIT(__name, __prop) \
  initial begin : __name \
    if (!(__prop)) $fatal(1, "[%m] parameter check %s failed", `"__name`"); \
  end

// Stream contract: once valid is high it stays high, with a stable payload, until ready.
`define TMA_ASSERT_STABLE(__name, __valid, __ready, __data, __clk = clk_i, __rst = !rst_ni) \
  __name: assert property (@(posedge __clk) disable iff (__rst) \
    ((__valid) && !(__ready)) |=> ((__valid) && $stable(__data))) \
    else $error("[%m] stream contract %s broken: valid dropped or payload changed", `"__name`");

// Kept register copy: a copy held apart for timing (tma_dup_reg, a sliced spill register, a flag
// registered a cycle ahead) must equal the value it stands for, written from its definition.
`define TMA_ASSERT_COPY(__name, __copy, __definition, __clk = clk_i, __rst = !rst_ni) \
  __name: assert property (@(posedge __clk) disable iff (__rst) ((__copy) == (__definition))) \
    else $error("[%m] kept copy %s differs from its definition", `"__name`");

// Functional cover point.
`define TMA_COVER(__name, __prop, __clk = clk_i, __rst = !rst_ni) \
  __name: cover property (@(posedge __clk) disable iff (__rst) (__prop));

`else  // SYNTHESIS

`define TMA_ASSERT(__name, __prop, __clk = clk_i, __rst = !rst_ni)
`define TMA_ASSERT_NEVER(__name, __prop, __clk = clk_i, __rst = !rst_ni)
`define TMA_ASSERT_INIT(__name, __prop)
`define TMA_ASSERT_STABLE(__name, __valid, __ready, __data, __clk = clk_i, __rst = !rst_ni)
`define TMA_ASSERT_COPY(__name, __copy, __definition, __clk = clk_i, __rst = !rst_ni)
`define TMA_COVER(__name, __prop, __clk = clk_i, __rst = !rst_ni)

`endif  // SYNTHESIS

`endif  // TMA_ASSERT_SVH
