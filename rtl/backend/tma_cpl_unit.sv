// SPDX-License-Identifier: Apache-2.0
//
// tma_cpl_unit: turns the completion information of a finished command into completions:
// one complete-tx per destination CTA of the mask (lowest CTA first), or one error / done
// completion naming the issuing CTA. Counts the error completions it signals (err_count_o).

`default_nettype none

`include "tma_assert.svh"

module tma_cpl_unit (
  input  logic               clk_i,
  input  logic               rst_ni,
  // Finished commands
  input  logic               info_valid_i,
  output logic               info_ready_o,
  input  tma_pkg::cpl_info_t info_i,
  // Completions
  output logic               cpl_valid_o,
  input  logic               cpl_ready_i,
  output tma_pkg::cpl_t      cpl_o,
  // Status: error completions signalled (wraps)
  output logic [15:0]        err_count_o
);

  logic               active_d, active_q;        // a command's completions are being sent
  tma_pkg::cpl_info_t info_d, info_q;
  logic [15:0]        ctas_left_d, ctas_left_q;  // CTAs still to signal (complete-tx)
  logic [3:0]         lowest_cta;                // lowest CTA in ctas_left_q
  logic               final_cpl;   // the completion on the output is the command's last
  logic               final_d, final_q;  // (registered: info_ready_o reads flops, cpl_ready_i)

  // Whether at most one bit of x is set: an OR tree of (any, two or more) pairs, without the
  // carry chain of x & (x - 1).
  function automatic logic le1(logic [15:0] x);
    logic [15:0] any, many;
    any  = x;
    many = '0;
    for (int w = 1; w < 16; w *= 2) begin
      for (int i = 0; i < 16; i += 2 * w) begin
        many[i] = many[i] || many[i + w] || (any[i] && any[i + w]);
        any[i]  = any[i] || any[i + w];
      end
    end
    le1 = !many[0];
  endfunction

  // Whether at most two bits of x are set (then x with its lowest set bit cleared has at most
  // one): a tree of bit counts saturated at 3, so the test does not wait for x & (x - 1).
  function automatic logic le2(logic [15:0] x);
    logic [1:0] cnt [16];
    for (int i = 0; i < 16; i++) cnt[i] = {1'b0, x[i]};
    for (int w = 1; w < 16; w *= 2) begin
      for (int i = 0; i < 16; i += 2 * w) begin
        cnt[i] = (3'(cnt[i]) + 3'(cnt[i + w]) >= 3'd3) ? 2'd3 : cnt[i] + cnt[i + w];
      end
    end
    le2 = cnt[0] != 2'd3;
  endfunction

  always_comb begin : proc_low
    lowest_cta = '0;
    for (int i = 15; i >= 0; i--) begin
      if (ctas_left_q[i]) lowest_cta = 4'(i);
    end
  end

  always_comb begin : proc_out
    cpl_o           = '0;
    cpl_o.kind      = info_q.kind;
    cpl_o.mbar_addr = info_q.mbar_addr;
    cpl_o.tag       = info_q.tag;
    if (info_q.kind == tma_pkg::CplTx) begin
      // .cta_group::2 with mbar in a named CTA: to the CTA of the destination's pair with that
      // CTA's parity (the model's RouteCompleteTx)
      cpl_o.cta   = info_q.peer ? {lowest_cta[3:1], info_q.mbar_par} : lowest_cta;
      cpl_o.bytes = info_q.bytes;
    end else begin
      cpl_o.cta = info_q.cta;
      cpl_o.err = (info_q.kind == tma_pkg::CplError) ? info_q.err : tma_pkg::ErrNone;
    end
  end

  assign cpl_valid_o = active_q;
  assign final_cpl   = final_q;
  assign info_ready_o = !active_q || (cpl_ready_i && final_cpl);

  always_comb begin : proc_next
    active_d    = active_q;
    info_d      = info_q;
    ctas_left_d = ctas_left_q;
    final_d     = final_q;
    if (active_q && cpl_ready_i) begin
      ctas_left_d = ctas_left_q & (ctas_left_q - 16'd1);   // clear the lowest set bit
      if (final_cpl) active_d = 1'b0;
    end
    if (info_valid_i && info_ready_o) begin
      // A complete-tx with an empty mask signals nothing (the controller rejects it).
      active_d    = (info_i.kind != tma_pkg::CplTx) || (info_i.cta_mask != '0);
      info_d      = info_i;
      ctas_left_d = info_i.cta_mask;
    end
    // The completion of ctas_left_d is the command's last when it has at most one CTA left.
    if (info_valid_i && info_ready_o) begin
      final_d = (info_i.kind != tma_pkg::CplTx) || le1(info_i.cta_mask);
    end else if (active_q && cpl_ready_i) begin
      // (ctas_left_d is ctas_left_q less a bit)
      final_d = (info_q.kind != tma_pkg::CplTx) || le2(ctas_left_q);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_state
    if (!rst_ni) begin
      active_q    <= 1'b0;
      info_q      <= '0;
      ctas_left_q <= '0;
      final_q     <= 1'b1;
    end else begin
      active_q    <= active_d;
      info_q      <= info_d;
      ctas_left_q <= ctas_left_d;
      final_q     <= final_d;
    end
  end

  // ---- Error count ----
  logic [15:0] err_count_d, err_count_q;
  assign err_count_d = err_count_q + 16'((cpl_valid_o && cpl_ready_i &&
                                          cpl_o.kind == tma_pkg::CplError) ? 1 : 0);

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_err_count
    if (!rst_ni) begin
      err_count_q <= '0;
    end else begin
      err_count_q <= err_count_d;
    end
  end
  assign err_count_o = err_count_q;

  // ---- Assertions ----
  `TMA_ASSERT_STABLE(CplHeld_A, cpl_valid_o, cpl_ready_i, cpl_o)
  // The registered flag is the arithmetic one.
  `TMA_ASSERT_IMPLY(FinalFlag_A, active_q,
                    final_q == ((info_q.kind != tma_pkg::CplTx) ||
                                ((ctas_left_q & (ctas_left_q - 16'd1)) == '0)))

endmodule

`default_nettype wire
