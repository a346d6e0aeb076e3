// SPDX-License-Identifier: Apache-2.0
//
// tma_soc_ctrl: the SoC top's control (docs/soc.md): the soft reset sequence, the counters,
// the first-error capture, the interrupt events and line, the sticky status bits and the
// MBAR_OP hand-over to the mbarrier units.
//   Soft reset: CtrlRun -> CtrlDrain (hold_o: no new AXI4 request, no new completion record;
//   drain_o: every read beat is accepted and hidden from the engine) until the port is
//   drained -> CtrlReset for ResetCycles cycles (core_rst_no low: the engine, the arbiter and
//   the mbarrier units reset; clr_o: the rings, the window and the FIFO clear) -> CtrlRun.
//   Events (evt_o, INTR_STATE bit order): cpl, err, cmdr_low, cplr_high, mbar, mbar_stuck,
//   grp;
//   level conditions (the ring thresholds, a stuck barrier) keep setting their state bit
//   while they hold.
//   idle_o: the engine and both command sources held no work for IdleCycles cycles (the
//   mbarrier units' stuck qualifier).
//   Sticky status bits (STATUS.win_drop, ring_bus_err, mbar_miss): set by their event,
//   cleared by the soft reset.
//   MBAR_OP: a write (its swmod pulse) is held until the mbarrier units take it (a cycle
//   without complete-tx); the held operation restarts with the engine (core_rst_no). The
//   operation's code is the register's value from the cycle after the write (swmod pulses in
//   the write's cycle, before the register holds the new value).
//   irq_o: the register block's interrupt (|(INTR_STATE & INTR_ENABLE)), registered.

`default_nettype none

`include "tma_assert.svh"

module tma_soc_ctrl #(
  parameter int unsigned ResetCycles = 4,
  parameter int unsigned IdleCycles  = 256
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  // Register pulses
  input  logic          soft_reset_i,
  input  logic          cnt_clear_i,
  input  logic          err_clear_i,
  input  logic [6:0]    intr_test_i,
  // Soft reset sequence
  input  logic          drained_i,
  output logic          hold_o,
  output logic          drain_o,
  output logic          clr_o,
  output logic          core_rst_no,
  output logic          reset_busy_o,
  // Engine activity
  input  logic          cmd_fire_i,
  input  logic          busy_i,
  input  logic          work_i,        // a command source holds work
  input  logic          cpl_fire_i,    // a completion left the engine
  input  tma_pkg::cpl_t cpl_i,
  input  logic          cpl_written_i, // a completion reached the FIFO or the ring
  input  logic          grp_written_i, // ... a group completion (kind CplGroup)
  // Ring levels and thresholds
  input  logic [16:0]   cmdr_count_i,
  input  logic [16:0]   cmdr_thresh_i,
  input  logic [16:0]   cplr_count_i,
  input  logic [16:0]   cplr_thresh_i,
  input  logic          cpl_ring_en_i,
  // mbarrier events
  input  logic          mbar_done_i,
  input  logic          mbar_stuck_i,
  output logic          idle_o,
  // Counters and error status
  output logic [31:0]   cnt_cmds_o,
  output logic [31:0]   cnt_errs_o,
  output logic [63:0]   cnt_bytes_o,
  output logic [63:0]   cnt_busy_o,
  output logic          err_valid_o,
  output logic [3:0]    err_class_o,
  output logic [7:0]    err_tag_o,
  output logic [3:0]    err_cta_o,
  // Interrupt events and line
  output logic [6:0]    evt_o,
  input  logic          intr_i,
  output logic          irq_o,
  // Sticky status events and bits
  input  logic          win_drop_i,
  input  logic          bus_err_i,
  input  logic          mbar_miss_i,
  output logic          win_drop_o,
  output logic          bus_err_o,
  output logic          mbar_miss_o,
  // MBAR_OP
  input  logic          mbar_op_write_i,
  input  logic          mbar_op_ready_i,
  output logic          mbar_op_valid_o
);

  typedef enum logic [1:0] { CtrlRun, CtrlDrain, CtrlReset } ctrl_state_e;

  ctrl_state_e state_q;
  logic [3:0]  rst_cnt_q;
  logic        core_rst_q;
  logic        clear, is_err;
  logic [8:0]  idle_cnt_q;

  // ---- Soft reset sequence ----
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_seq
    if (!rst_ni) begin
      state_q    <= CtrlRun;
      rst_cnt_q  <= '0;
      core_rst_q <= 1'b1;
    end else begin
      unique case (state_q)
        CtrlRun:   if (soft_reset_i) state_q <= CtrlDrain;
        CtrlDrain: begin
          if (drained_i) begin
            state_q    <= CtrlReset;
            rst_cnt_q  <= 4'(ResetCycles - 1);
            core_rst_q <= 1'b0;
          end
        end
        CtrlReset: begin
          if (rst_cnt_q == '0) begin
            state_q    <= CtrlRun;
            core_rst_q <= 1'b1;
          end else begin
            rst_cnt_q <= rst_cnt_q - 4'd1;
          end
        end
        default:   state_q <= CtrlRun;
      endcase
    end
  end
  assign hold_o       = state_q != CtrlRun;
  assign drain_o      = state_q != CtrlRun;
  assign clr_o        = state_q == CtrlReset;
  assign core_rst_no  = rst_ni && core_rst_q;
  assign reset_busy_o = state_q != CtrlRun;

  // ---- Counters and the first error ----
  assign clear  = cnt_clear_i || clr_o;
  assign is_err = cpl_fire_i && cpl_i.kind == tma_pkg::CplError;

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_cnt
    if (!rst_ni) begin
      cnt_cmds_o  <= '0;
      cnt_errs_o  <= '0;
      cnt_bytes_o <= '0;
      cnt_busy_o  <= '0;
    end else if (clear) begin
      cnt_cmds_o  <= '0;
      cnt_errs_o  <= '0;
      cnt_bytes_o <= '0;
      cnt_busy_o  <= '0;
    end else begin
      cnt_cmds_o <= cnt_cmds_o + 32'(cmd_fire_i);
      cnt_errs_o <= cnt_errs_o + 32'(is_err);
      cnt_busy_o <= cnt_busy_o + 64'(busy_i);
      if (cpl_fire_i && cpl_i.kind == tma_pkg::CplTx) begin
        cnt_bytes_o <= cnt_bytes_o + 64'(cpl_i.bytes);
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_err
    if (!rst_ni) begin
      err_valid_o <= 1'b0;
      err_class_o <= '0;
      err_tag_o   <= '0;
      err_cta_o   <= '0;
    end else if (err_clear_i || clr_o) begin
      err_valid_o <= 1'b0;
    end else if (is_err && !err_valid_o) begin
      err_valid_o <= 1'b1;
      err_class_o <= cpl_i.err;
      err_tag_o   <= cpl_i.tag;
      err_cta_o   <= cpl_i.cta;
    end
  end

  // ---- Idle qualifier of a stuck barrier ----
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_idle
    if (!rst_ni) begin
      idle_cnt_q <= '0;
    end else if (busy_i || work_i || hold_o) begin
      idle_cnt_q <= '0;
    end else if (32'(idle_cnt_q) < IdleCycles) begin
      idle_cnt_q <= idle_cnt_q + 9'd1;
    end
  end
  assign idle_o = 32'(idle_cnt_q) >= IdleCycles;

  // ---- Interrupt events ----
  assign evt_o[0] = cpl_written_i || intr_test_i[0];
  assign evt_o[1] = is_err || intr_test_i[1];
  assign evt_o[2] = cmdr_count_i <= cmdr_thresh_i || intr_test_i[2];
  assign evt_o[3] = (cpl_ring_en_i && cplr_thresh_i != '0 && cplr_count_i >= cplr_thresh_i) ||
                    intr_test_i[3];
  assign evt_o[4] = mbar_done_i || intr_test_i[4];
  assign evt_o[5] = mbar_stuck_i || intr_test_i[5];
  assign evt_o[6] = grp_written_i || intr_test_i[6];

  // ---- Sticky status bits (cleared by soft reset) ----
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_sticky
    if (!rst_ni) begin
      win_drop_o  <= 1'b0;
      bus_err_o   <= 1'b0;
      mbar_miss_o <= 1'b0;
    end else if (clr_o) begin
      win_drop_o  <= 1'b0;
      bus_err_o   <= 1'b0;
      mbar_miss_o <= 1'b0;
    end else begin
      win_drop_o  <= win_drop_o || win_drop_i;
      bus_err_o   <= bus_err_o || bus_err_i;
      mbar_miss_o <= mbar_miss_o || mbar_miss_i;
    end
  end

  // ---- MBAR_OP hand-over ----
  always_ff @(posedge clk_i or negedge core_rst_no) begin : proc_mbar_op
    if (!core_rst_no) begin
      mbar_op_valid_o <= 1'b0;
    end else if (mbar_op_write_i) begin
      mbar_op_valid_o <= 1'b1;
    end else if (mbar_op_ready_i) begin
      mbar_op_valid_o <= 1'b0;
    end
  end

  // ---- Interrupt line ----
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_irq
    if (!rst_ni) begin
      irq_o <= 1'b0;
    end else begin
      irq_o <= intr_i;
    end
  end

  logic unused_cpl;
  assign unused_cpl = ^cpl_i.mbar_addr;

  `TMA_ASSERT_INIT(ResetCyclesLegal_A, ResetCycles >= 1 && ResetCycles <= 16)
  `TMA_ASSERT_INIT(IdleCyclesLegal_A, IdleCycles >= 1 && IdleCycles <= 511)

endmodule

`default_nettype wire
