// SPDX-License-Identifier: Apache-2.0
//
// tma_assert_eqv: each assertion macro of rtl/include/tma_assert.svh beside the concurrent SVA
// it stands for (Ref_*), on the same inputs. assert_macros_test drives random inputs with
// violations and resets and checks that each pair fails at the same clock edges.

`default_nettype none

`include "tma_assert.svh"

module tma_assert_eqv (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       valid_i,
  input  logic       ready_i,
  input  logic       flush_i,
  input  logic       a_i,
  input  logic [3:0] b_i,
  input  logic [7:0] data_i
);

  `TMA_ASSERT(Bool_A, a_i == b_i[0])
  Ref_Bool_A: assert property (@(posedge clk_i) disable iff (!rst_ni) a_i == b_i[0])
    else $error("[%m] failed");

  `TMA_ASSERT_IMPLY(Imply_A, a_i, b_i[1])
  Ref_Imply_A: assert property (@(posedge clk_i) disable iff (!rst_ni) a_i |-> b_i[1])
    else $error("[%m] failed");

  `TMA_ASSERT_NEVER(Never_A, a_i && b_i[2])
  Ref_Never_A: assert property (@(posedge clk_i) disable iff (!rst_ni) !(a_i && b_i[2]))
    else $error("[%m] failed");

  `TMA_ASSERT_COPY(Copy_A, b_i[3], a_i)
  Ref_Copy_A: assert property (@(posedge clk_i) disable iff (!rst_ni) b_i[3] == a_i)
    else $error("[%m] failed");

  `TMA_ASSERT_STABLE(Stable_A, valid_i, ready_i, data_i)
  Ref_Stable_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
                                 (valid_i && !ready_i) |=> (valid_i && $stable(data_i)))
    else $error("[%m] failed");

  `TMA_ASSERT_STABLE_FLUSH(Flush_A, valid_i, ready_i, data_i, flush_i)
  Ref_Flush_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
                                (valid_i && !ready_i && !flush_i) |=>
                                (flush_i || (valid_i && $stable(data_i))))
    else $error("[%m] failed");

endmodule

`default_nettype wire
