// SPDX-License-Identifier: Apache-2.0
//
// ulx3s_pll: the system clock of the ULX3S board top from its 25 MHz oscillator.
// UsePll 1: an ECP5 EHXPLLL with feedback from CLKOP, so clk_o = 25 MHz x CLKFB_DIV and the VCO
// runs at SysMhz x CLKOP_DIV (inside 400..800 MHz for SysMhz 50, 75, 100, 125, 150, 200; the
// divisors are those `yowasp-ecppll -i 25 -o SysMhz` picks). UsePll 0: clk_o is clk_25_i and
// locked_o is 1 (simulation, where the oscillator stands for the system clock).

`default_nettype none

module ulx3s_pll #(
  parameter UsePll = 1,
  parameter SysMhz = 100   // a multiple of 25
) (
  input  wire clk_25_i,
  output wire clk_o,
  output wire locked_o
);

  localparam ClkfbDiv = SysMhz / 25;
  localparam ClkopDiv = (600 + SysMhz / 2) / SysMhz;
  localparam ClkopCphase = ClkopDiv / 2 - 1;

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
        .CLKI_DIV        (1),
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
