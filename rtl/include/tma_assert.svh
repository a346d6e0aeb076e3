// SPDX-License-Identifier: Apache-2.0
//
// tma_assert.svh: assertion macros for OpenTMA RTL. Default clock clk_i, default disable
// !rst_ni. Under SYNTHESIS every macro expands to nothing.
//
// Every check is an immediate assertion in a clocked block: at each rising edge outside reset
// it tests the values the signals had before the edge (the values a concurrent assertion
// samples), and a check over two cycles registers what it needs from the first. Concurrent
// assertions (assert property) are not used: a simulator keeps a sampled copy of every signal
// they reference and refreshes all of them at every evaluation, which cost the Verilated engine
// more than a third of its time (docs/performance.md); the immediate forms check the same.
// (No comment line may start with the word Verilator: it is read as a meta-comment.)

`ifndef TMA_ASSERT_SVH
`define TMA_ASSERT_SVH

`ifndef SYNTHESIS

// prop (a boolean of the cycle's values) holds at every clock edge outside reset.
`define TMA_ASSERT(__name, __prop, __clk = clk_i, __rst = !rst_ni) \
  always_ff @(posedge __clk) begin : __name \
    if (!(__rst)) assert (__prop) else $error("[%m] assertion %s failed", `"__name`"); \
  end

// Whenever cond holds, prop holds (cond |-> prop, both of the same cycle).
`define TMA_ASSERT_IMPLY(__name, __cond, __prop, __clk = clk_i, __rst = !rst_ni) \
  always_ff @(posedge __clk) begin : __name \
    if (!(__rst) && (__cond)) assert (__prop) \
      else $error("[%m] assertion %s failed", `"__name`"); \
  end

// prop (a boolean) never holds at a clock edge outside reset.
`define TMA_ASSERT_NEVER(__name, __prop, __clk = clk_i, __rst = !rst_ni) \
  always_ff @(posedge __clk) begin : __name \
    if (!(__rst)) assert (!(__prop)) else $error("[%m] assertion %s failed", `"__name`"); \
  end

// Elaboration-time check of parameters: fails the simulation at time 0 with a message.
`define TMA_ASSERT_INIT(__name, __prop) \
  initial begin : __name \
    if (!(__prop)) $fatal(1, "[%m] parameter check %s failed", `"__name`"); \
  end

// Stream contract: once valid is high it stays high, with a stable payload, until ready:
// (valid && !ready) |=> (valid && $stable(data)), an attempt that starts in reset disabled.
// hold_q: the previous cycle held (valid and not ready, outside reset); data_q: its payload,
// registered only in a cycle that holds (the stream's payload is not copied while it flows).
// The registers and the check are separate blocks, so a simulator need not shadow them.
`define TMA_ASSERT_STABLE(__name, __valid, __ready, __data, __clk = clk_i, __rst = !rst_ni) \
  `TMA_STABLE_CHECK(__name, __valid, __ready, __data, 1'b0, __clk, __rst)

// The same with a flush that may withdraw the item:
// (valid && !ready && !flush) |=> (flush || (valid && $stable(data))).
`define TMA_ASSERT_STABLE_FLUSH(__name, __valid, __ready, __data, __flush) \
  `TMA_STABLE_CHECK(__name, __valid, __ready, __data, __flush, clk_i, !rst_ni)

// (The body of the two above.)
`define TMA_STABLE_CHECK(__name, __valid, __ready, __data, __flush, __clk, __rst) \
  if (1) begin : __name \
    logic                     hold_q; \
    logic [$bits(__data)-1:0] data_q; \
    always_ff @(posedge __clk) begin : proc_last \
      hold_q <= !(__rst) && (__valid) && !(__ready) && !(__flush); \
      if ((__valid) && !(__ready) && !(__flush)) data_q <= (__data); \
    end \
    always_ff @(posedge __clk) begin : proc_check \
      if (!(__rst) && hold_q) assert ((__flush) || ((__valid) && (__data) == data_q)) \
        else $error("[%m] stream contract %s broken: valid dropped or payload changed", \
                    `"__name`"); \
    end \
  end

// Kept register copy: a copy held apart for timing (tma_dup_reg, a sliced spill register, a flag
// registered a cycle ahead) must equal the value it stands for, written from its definition.
`define TMA_ASSERT_COPY(__name, __copy, __definition, __clk = clk_i, __rst = !rst_ni) \
  always_ff @(posedge __clk) begin : __name \
    if (!(__rst)) assert ((__copy) == (__definition)) \
      else $error("[%m] kept copy %s differs from its definition", `"__name`"); \
  end

// Functional cover point: counts the clock edges outside reset at which prop holds.
`define TMA_COVER(__name, __prop, __clk = clk_i, __rst = !rst_ni) \
  always_ff @(posedge __clk) begin : __name \
    if (!(__rst)) cover (__prop); \
  end

`else  // SYNTHESIS

`define TMA_ASSERT(__name, __prop, __clk = clk_i, __rst = !rst_ni)
`define TMA_ASSERT_IMPLY(__name, __cond, __prop, __clk = clk_i, __rst = !rst_ni)
`define TMA_ASSERT_NEVER(__name, __prop, __clk = clk_i, __rst = !rst_ni)
`define TMA_ASSERT_INIT(__name, __prop)
`define TMA_ASSERT_STABLE(__name, __valid, __ready, __data, __clk = clk_i, __rst = !rst_ni)
`define TMA_ASSERT_STABLE_FLUSH(__name, __valid, __ready, __data, __flush)
`define TMA_ASSERT_COPY(__name, __copy, __definition, __clk = clk_i, __rst = !rst_ni)
`define TMA_COVER(__name, __prop, __clk = clk_i, __rst = !rst_ni)

`endif  // SYNTHESIS

`endif  // TMA_ASSERT_SVH
