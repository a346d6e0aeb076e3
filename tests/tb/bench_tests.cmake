# SPDX-License-Identifier: Apache-2.0
# Bench runs under ctest (label tb, prefix tb/): fixed seeds, each well under 60 s on one core.
# tb/model/*  the model-as-DUT stand-in, tma-tb-model (checks the bench itself; always built)
# tb/rtl/*    the Verilated tma_sim_top (when the build has it)
# tb/catch/*  a planted bug must make the bench fail (WILL_FAIL)
function(tma_tb_run name)
  if(name MATCHES "^rtl/")
    add_test(NAME tb/${name} COMMAND tma-tb ${ARGN})
  else()
    add_test(NAME tb/${name} COMMAND tma-tb-model ${ARGN})
  endif()
  set_tests_properties(tb/${name} PROPERTIES LABELS tb TIMEOUT 120)
endfunction()

tma_tb_run(model/smoke --dut=model --test=smoke --seed=1)
tma_tb_run(model/directed --dut=model --test=directed --seed=2)
tma_tb_run(model/random --dut=model --test=random --seed=3 --count=150)
tma_tb_run(model/stress --dut=model --test=stress --seed=4 --count=100)
tma_tb_run(model/errors --dut=model --test=errors --seed=5 --count=60)
tma_tb_run(catch/stub_bug_swizzle --dut=model --test=directed --seed=6 --stub-bug)
set_tests_properties(tb/catch/stub_bug_swizzle PROPERTIES WILL_FAIL TRUE)

if(TMA_TB_HAVE_RTL)
  tma_tb_run(rtl/smoke --dut=rtl --test=smoke --seed=1)
  tma_tb_run(rtl/directed --dut=rtl --test=directed --seed=2)
  tma_tb_run(rtl/random --dut=rtl --test=random --seed=3 --count=150)
  tma_tb_run(rtl/stress --dut=rtl --test=stress --seed=4 --count=100)
  tma_tb_run(rtl/errors --dut=rtl --test=errors --seed=5 --count=60)
  # Every load mode, stores, reductions and prefetches (RandomMixSeq), at sm_90 on 4 CTAs and
  # at sm_100a on 16 CTAs.
  tma_tb_run(rtl/mixed --dut=rtl --test=mixed --seed=7 --count=60)
  tma_tb_run(rtl/mixed_sm100 --dut=rtl --test=mixed --seed=8 --count=60 --arch=sm_100a --ctas=16)
  # A load that ends in bus_error after fill-only beats: one bus_error completion, no hang, no
  # write outside the command's destination (the bench's bus_error rule, docs/verification.md).
  tma_tb_run(rtl/buserr_fill --dut=rtl --test=directed --directed=rtl_buserr_fill)
endif()

# Golden cases through the RTL (tma-rtl, the Verilated tma_sim_top without SystemC): the hand
# vectors and the load files of the silicon set, in full (all of them take ~3 s on one core).
# The hand vectors run with 0 skips at DataBytes 16 (--fail-on-skip: the PTX-readings cases
# on the PTX-readings top, the maps with no 128-byte encoding decided by the host encoder,
# docs/differences.md section 3).
if(TMA_TB_HAVE_RTL)
  file(GLOB _hand ${CMAKE_SOURCE_DIR}/tests/vectors/hand/*.jsonl)
  set(_no_skip)
  if("16" IN_LIST TMA_SIM_TOP_PTX_WIDTHS)
    set(_no_skip --fail-on-skip)
  endif()
  add_test(NAME tb/golden/hand COMMAND tma-rtl run ${_hand} ${_no_skip})
  set_tests_properties(tb/golden/hand PROPERTIES LABELS tb TIMEOUT 120)
  # The same hand vectors on the widest bus, DataBytes 128 (one beat is a whole 128-byte
  # swizzle span, eight 16-byte groups of realignment, 16 ALU slots; the top has the
  # unpacker), and a sample of the silicon tile loads (every 20th case).
  if("128" IN_LIST TMA_SIM_TOP_WIDTHS)
    set(_no_skip128)
    if("128" IN_LIST TMA_SIM_TOP_PTX_WIDTHS)
      set(_no_skip128 --fail-on-skip)
    endif()
    add_test(NAME tb/golden/hand_db128
             COMMAND tma-rtl run ${_hand} --data-bytes 128 ${_no_skip128})
    set_tests_properties(tb/golden/hand_db128 PROPERTIES LABELS tb TIMEOUT 300)
    add_test(NAME tb/golden/silicon_tile_db128
             COMMAND tma-rtl run ${CMAKE_SOURCE_DIR}/tests/vectors/silicon/tile.jsonl.gz
                     --data-bytes 128 --sample 20)
    set_tests_properties(tb/golden/silicon_tile_db128 PROPERTIES LABELS tb TIMEOUT 300)
  endif()
  foreach(f tile multicast im2col faults prefetch)
    add_test(NAME tb/golden/silicon_${f}
             COMMAND tma-rtl run ${CMAKE_SOURCE_DIR}/tests/vectors/silicon/${f}.jsonl.gz)
    set_tests_properties(tb/golden/silicon_${f} PROPERTIES LABELS tb TIMEOUT 300)
  endforeach()
  # Every load and prefetch form of the seeds on sm_90, sm_100a and sm_103a
  # (tests/vectors/forms/gen_forms.py): a form legal on its arch that the RTL answers
  # `unsupported` is a SKIP, and --fail-on-skip fails the test.
  add_test(NAME tb/golden/seed_forms
           COMMAND tma-rtl run ${CMAKE_SOURCE_DIR}/tests/vectors/forms/seed_forms.jsonl
                   --fail-on-skip)
  set_tests_properties(tb/golden/seed_forms PROPERTIES LABELS tb TIMEOUT 300)
  # The same forms replayed through the model (the form file's expectations, PTX-derived).
  add_test(NAME cmodel/seed_forms
           COMMAND tma run ${CMAKE_SOURCE_DIR}/tests/vectors/forms/seed_forms.jsonl)
  set_tests_properties(cmodel/seed_forms PROPERTIES LABELS unit TIMEOUT 300)
endif()
