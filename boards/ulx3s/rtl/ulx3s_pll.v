// SPDX-License-Identifier: Apache-2.0
//
// ulx3s_pll: the system clock of the ULX3S board top from its 25 MHz oscillator.
// UsePll 1: an ECP5 EHXPLLL with feedback from CLKOP, so clk_o = 25 MHz / CLKI_DIV x CLKFB_DIV
// and the VCO runs at SysMhz x CLKOP_DIV (about 600 MHz, inside 400..800). SysMhz is a multiple
// of 5: a multiple of 25 uses CLKI_DIV 1 (phase detector at 25 MHz), any other CLKI_DIV 5 (5
// MHz, above the 3.125 MHz minimum); the divisors are those `yowasp-ecppll -i 25 -o SysMhz`
// picks for CLKI_DIV / CLKFB_DIV / CLKOP_DIV (20: 5 / 4 / 30, 30: 5 / 6 / 20, 50: 1 / 2 / 12,
// 100: 1 / 4 / 6; tests/board/board_check.sh compares them). CLKOP_CPHASE is
// (CLKOP_DIV - 1) / 2, which is ecppll's for most divisors and one less for some (20 MHz:
// 15); with the feedback taken from CLKOP the output's phase follows the input either way.
// UsePll 0: clk_o is clk_25_i and locked_o is 1 (simulation, where the oscillator stands for
// the system clock).

`default_nettype none

module ulx3s_pll #(
  parameter UsePll = 1,
  parameter SysMhz = 100   // a multiple of 5, 10 .. 200
) (
  input  wire clk_25_i,
  output wire clk_o,
  output wire locked_o
);

  // Parameter check at elaboration (plain Verilog has no $error): an illegal SysMhz
  // instantiates a module that does not exist, whose name says why.
  generate
    if (UsePll != 0 && (SysMhz % 5 != 0 || SysMhz < 10 || SysMhz > 200)) begin : g_bad_sysmhz
      ulx3s_pll_SysMhz_must_be_a_multiple_of_5_from_10_to_200 u_param_check ();
    end
  endgenerate

  localparam ClkiDiv  = (SysMhz % 25 == 0) ? 1 : 5;
  localparam ClkfbDiv = SysMhz * ClkiDiv / 25;
  localparam ClkopDiv = (600 + SysMhz / 2) / SysMhz;
  localparam ClkopCphase = (ClkopDiv - 1) / 2;

  generate
    if (UsePll != 0) begin : g_pll
      wire unused_intfb;
      (* FREQUENCY_PIN_CLKI = "25" *)
      (* ICP_CURRENT = "12" *) (* LPF_RESISTOR = "8" *) (* MFG_ENABLE_FILTEROPAMP = "1" *)
      (* MFG_GMCREF_SEL = "2" *)
      EHXPLLL #(
        .PLLRST_ENA      ("DISABLED"),
        .INTFB_WAKE      ("DISABLED"),
        .STDBY_ENABLE    ("DISABLED"),
        .DPHASE_SOURCE   ("DISABLED"),
        .OUTDIVIDER_MUXA ("DIVA"),
        .OUTDIVIDER_MUXB ("DIVB"),
        .OUTDIVIDER_MUXC ("DIVC"),
        .OUTDIVIDER_MUXD ("DIVD"),
        .CLKI_DIV        (ClkiDiv),
        .CLKOP_ENABLE    ("ENABLED"),
        .CLKOP_DIV       (ClkopDiv),
        .CLKOP_CPHASE    (ClkopCphase),
        .CLKOP_FPHASE    (0),
        .FEEDBK_PATH     ("CLKOP"),
        .CLKFB_DIV       (ClkfbDiv)
      ) u_pll (
        .RST          (1'b0),
        .STDBY        (1'b0),
        .CLKI         (clk_25_i),
        .CLKOP        (clk_o),
        .CLKFB        (clk_o),
        .CLKINTFB     (unused_intfb),
        .PHASESEL0    (1'b0),
        .PHASESEL1    (1'b0),
        .PHASEDIR     (1'b1),
        .PHASESTEP    (1'b1),
        .PHASELOADREG (1'b1),
        .PLLWAKESYNC  (1'b0),
        .ENCLKOP      (1'b0),
        .LOCK         (locked_o)
      );
    end else begin : g_bypass
      assign clk_o    = clk_25_i;
      assign locked_o = 1'b1;
      wire unused_w = &{1'b0, ClkfbDiv[0], ClkopCphase[0]};
    end
  endgenerate

endmodule

`default_nettype wire
