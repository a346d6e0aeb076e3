# SPDX-License-Identifier: Apache-2.0
# The bench proper (included from tb/CMakeLists.txt): drives the Verilated tma_sim_top
# (sim/tops.h) or, with -DTMA_TB_RTL=OFF, only the model-as-DUT stand-in (`tma-tb --dut=model`).

add_library(tma_tb_core STATIC
  agents/pattern_memory.cc
  agents/agents.cc
  env/tma_env.cc
  seq/tma_seqs.cc
  stub/tma_behavioral_dut.cc
)
target_include_directories(tma_tb_core PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_compile_options(tma_tb_core PRIVATE -Wall -Wextra)
target_link_libraries(tma_tb_core PUBLIC tma_uvm tma_sim tma_cmodel)

# The tests are registered through static objects: link them whole into each executable.
add_library(tma_tb_tests OBJECT tests/tma_tests.cc)
target_compile_options(tma_tb_tests PRIVATE -Wall -Wextra)
target_link_libraries(tma_tb_tests PUBLIC tma_tb_core)

add_executable(tma-tb tests/tb_main.cc $<TARGET_OBJECTS:tma_tb_tests>)
set_source_files_properties(tests/tb_main.cc PROPERTIES COMPILE_OPTIONS "-Wall;-Wextra")
target_link_libraries(tma-tb PRIVATE tma_tb_core)
set_target_properties(tma-tb PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)

# tma-tb-model: the same bench without Verilator, so the model-as-DUT runs even while the RTL
# is absent or does not build.
add_executable(tma-tb-model tests/tb_main.cc $<TARGET_OBJECTS:tma_tb_tests>)
target_link_libraries(tma-tb-model PRIVATE tma_tb_core)
set_target_properties(tma-tb-model PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)

option(TMA_TB_RTL "Bench: build against the Verilated tma_sim_top" ON)
set(TMA_TB_HAVE_RTL ${TMA_TB_RTL} CACHE INTERNAL "bench built with the Verilated RTL" FORCE)
if(TMA_TB_HAVE_RTL)
  message(STATUS "tb: bench drives the Verilated tma_sim_top (sim/, DataBytes 16, 32, 64)")
  target_link_libraries(tma-tb PRIVATE tma_sim_tops)
  target_compile_definitions(tma-tb PRIVATE TMA_TB_HAVE_RTL)
else()
  message(STATUS "tb: TMA_TB_RTL=OFF; the bench uses the model-as-DUT")
endif()

# tma-rtl: golden-case replay through the Verilated RTL (plain C++ model, no SystemC kernel):
# `tma-rtl run FILE... [--data-bytes 16|32|64|128]`, the report and exit code of `tma run`
# (docs/verification.md). The tops come from sim/ (tma_sim_tops).
if(TMA_TB_HAVE_RTL)
  add_executable(tma-rtl golden/tma_rtl_main.cc golden/rtl_engine.cc)
  target_include_directories(tma-rtl PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_compile_options(tma-rtl PRIVATE -Wall -Wextra)
  target_link_libraries(tma-rtl PRIVATE tma_sim_tops tma_golden)
  set_target_properties(tma-rtl PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
  # Every hand and silicon reduction case (tensor and bulk files) on the atomic top
  # (AtomicReduce = 1, DataBytes 16): no fail, no skip, and the write slave executed
  # AtomicStores (the run fails when the atomic path went unused).
  if("16" IN_LIST TMA_SIM_TOP_ATOP_WIDTHS)
    set(_v ${CMAKE_SOURCE_DIR}/tests/vectors)
    add_test(NAME golden/rtl_atomic_reduce COMMAND tma-rtl run
      ${_v}/hand/reduce.jsonl ${_v}/hand/bulk.jsonl ${_v}/silicon/reduce.jsonl.gz
      ${_v}/silicon/bulk.jsonl.gz --atomic --min-atomics 1 --fail-on-skip)
    set_tests_properties(golden/rtl_atomic_reduce PROPERTIES LABELS rtl TIMEOUT 600)
  endif()
  # The load90 top (Arch = sm_90, StorePath = 0, DataBytes 16): (1) every hand and silicon file
  # of sm_90 loads and prefetches replays against its expectations with no skip; (2) every
  # other hand and silicon file (stores, reductions, bulk operations, faults, the Blackwell
  # modes and types) under --arch sm_90, no skip: a store, reduction or bulk copy / reduction to
  # global memory must get the verdict of a top without the write direction (the model's
  # descriptor verdicts, else `unsupported`: sim::RtlBuildRefusal), every other case the model's
  # sm_90 verdict.
  if("16" IN_LIST TMA_SIM_TOP_LOAD90_WIDTHS)
    set(_v ${CMAKE_SOURCE_DIR}/tests/vectors)
    add_test(NAME golden/rtl_load90_loads COMMAND tma-rtl run --config load90 --fail-on-skip
      ${_v}/hand/tile.jsonl ${_v}/hand/im2col.jsonl ${_v}/hand/interleave.jsonl
      ${_v}/hand/multicast.jsonl ${_v}/hand/packed.jsonl ${_v}/hand/prefetch.jsonl
      ${_v}/hand/swizzle.jsonl ${_v}/silicon/tile.jsonl.gz ${_v}/silicon/im2col.jsonl.gz
      ${_v}/silicon/multicast.jsonl.gz ${_v}/silicon/prefetch.jsonl.gz)
    set_tests_properties(golden/rtl_load90_loads PROPERTIES LABELS rtl TIMEOUT 600)
    # (bulk-hand-err-size-ptx, a bulk load read with the PTX text's size check, needs
    # BulkSizeStrict = 1, which the load90 top is not built with)
    add_test(NAME golden/rtl_load90_refusals COMMAND tma-rtl run --config load90 --arch sm_90
      --fail-on-skip --filter "^(?!bulk-hand-err-size-ptx$)"
      ${_v}/hand/store.jsonl ${_v}/hand/reduce.jsonl ${_v}/hand/bulk.jsonl
      ${_v}/hand/scatter4.jsonl ${_v}/hand/faults.jsonl ${_v}/hand/gather4.jsonl
      ${_v}/hand/im2col_w.jsonl ${_v}/hand/im2col_w128.jsonl ${_v}/hand/sm100.jsonl
      ${_v}/hand/subbyte.jsonl ${_v}/hand/subbyte_im2col.jsonl ${_v}/hand/swizzle96.jsonl
      ${_v}/hand/cta_group2.jsonl ${_v}/silicon/store.jsonl.gz ${_v}/silicon/reduce.jsonl.gz
      ${_v}/silicon/bulk.jsonl.gz ${_v}/silicon/faults.jsonl.gz)
    set_tests_properties(golden/rtl_load90_refusals PROPERTIES LABELS rtl TIMEOUT 600)
  endif()
endif()
