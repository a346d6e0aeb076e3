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

// Immediate check at every clock edge outside reset: prop (a boolean) must never hold. Checked
// in a clocked block, on the values before the edge as a concurrent assertion would sample
// them, but without the per-evaluation copies of every referenced signal that a simulator
// keeps for concurrent assertions (docs/performance.md).
`define TMA_ASSERT_NEVER(__name, __prop, __clk = clk_i, __rst = !rst_ni) \
  always_ff @(posedge __clk) begin : __name \
    if (!(__rst)) assert (!(__prop)) else $error("[%m] assertion %s failed", `"__name`"); \
  end

// Elaboration-time check of parameters: fails the simulation at time 0 with a message.
`define TMA_ASSERT_INIT(__name, __prop) \
  initial begin : __name \
    if (!(__prop)) $fatal(1, "[%m] parameter check %s failed", `"__name`"); \
  end

// Stream contract: once valid is high it stays high, with a stable payload, until ready.
// Written out rather than as `(valid && !ready) |=> (valid && $stable(data))`, the same check:
// the payload is registered only in a cycle that holds (valid and not ready) and compared in
// the next one, so a simulator copies it only while the stream stalls.
`define TMA_ASSERT_STABLE(__name, __valid, __ready, __data, __clk = clk_i, __rst = !rst_ni) \
  if (1) begin : __name \
    logic                     hold_q; \
    logic [$bits(__data)-1:0] data_q; \
    always_ff @(posedge __clk) begin : proc_check \
      hold_q <= (__valid) && !(__ready); \
      if ((__valid) && !(__ready)) data_q <= (__data); \
      if (!(__rst) && hold_q) assert ((__valid) && (__data) == data_q) \
        else $error("[%m] stream contract %s broken: valid dropped or payload changed", \
                    `"__name`"); \
    end \
  end

// Kept register copy: a copy held apart for timing (tma_dup_reg, a sliced spill register, a flag
// registered a cycle ahead) must equal the value it stands for, written from its definition.
// Checked at every clock edge outside reset, as TMA_ASSERT_NEVER.
`define TMA_ASSERT_COPY(__name, __copy, __definition, __clk = clk_i, __rst = !rst_ni) \
  always_ff @(posedge __clk) begin : __name \
    if (!(__rst)) assert ((__copy) == (__definition)) \
      else $error("[%m] kept copy %s differs from its definition", `"__name`"); \
  end

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
