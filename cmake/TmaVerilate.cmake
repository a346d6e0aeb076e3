# SPDX-License-Identifier: Apache-2.0
# tma_verilate(<target> TOP <module> [SYSTEMC] [PREFIX <Vname>] [FILELIST <file.f>]
#              [ARGS <extra verilator args>...] [EXTRA_SOURCES <absolute paths>...])
#   Verilates <module> from the RTL file list (default rtl/tma.f) into <target> with the house
#   flags: -Wall --assert, x-randomisation, the lint waivers; FST tracing with TMA_WAVES and
#   coverage with TMA_COVERAGE. With SYSTEMC, builds a SystemC model and links SystemC.
#   EXTRA_SOURCES come after the file list and its checkers (a board top and its binds).
find_package(verilator REQUIRED HINTS $ENV{VERILATOR_ROOT} /usr/share/verilator)

# Debian ships SystemC without a CMake package: tell Verilator's helper where it is.
if(NOT DEFINED ENV{SYSTEMC_INCLUDE})
  set(ENV{SYSTEMC_INCLUDE} /usr/include)
endif()
if(NOT DEFINED ENV{SYSTEMC_LIBDIR})
  set(ENV{SYSTEMC_LIBDIR} /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE})
endif()

set(TMA_RTL_DIR ${CMAKE_SOURCE_DIR}/rtl)

# tma_read_filelist(<out-var> <file.f>): the RTL sources of a file list, absolute paths,
# in order. Lines: a path relative to rtl/, blank, or a # comment.
function(tma_read_filelist out flist)
  file(STRINGS ${flist} lines)
  set(srcs)
  foreach(l IN LISTS lines)
    string(STRIP "${l}" l)
    if(l STREQUAL "" OR l MATCHES "^#")
      continue()
    endif()
    list(APPEND srcs ${TMA_RTL_DIR}/${l})
  endforeach()
  set(${out} ${srcs} PARENT_SCOPE)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${flist})
endfunction()

# tma_verilate_refresh(<target> <prefix> <sources>...): Verilator's CMake helper reads the list
# of the files it generates at configure time and only re-verilates then when its command line
# changed. An RTL edit that changes that list (Verilator splits large models into numbered
# DepSet files) made the next build link against stale or missing files. So every RTL source
# (and include) is a configure dependency, and when their contents changed since the last
# configure, the target's Verilator output is deleted: the helper then re-verilates at
# configure time and reads the new list.
function(tma_verilate_refresh target prefix)
  set(vdir ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${target}.dir/${prefix}.dir)
  file(GLOB incs ${TMA_RTL_DIR}/include/*.svh)
  set(sums)
  foreach(f IN LISTS ARGN incs)
    file(SHA256 ${f} h)
    list(APPEND sums ${h})
  endforeach()
  string(SHA256 sum "${sums}")
  set(stamp ${vdir}/tma_sources.sha256)
  if(EXISTS ${stamp})
    file(READ ${stamp} old)
    if(NOT old STREQUAL sum)
      message(STATUS "RTL of ${target} changed: verilating ${prefix} again")
      file(REMOVE_RECURSE ${vdir})
    endif()
  endif()
  file(MAKE_DIRECTORY ${vdir})
  file(WRITE ${stamp} ${sum})
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${ARGN} ${incs})
endfunction()

function(tma_verilate target)
  cmake_parse_arguments(ARG "SYSTEMC" "TOP;PREFIX;FILELIST" "ARGS;EXTRA_SOURCES" ${ARGN})
  if(NOT ARG_FILELIST)
    set(ARG_FILELIST ${TMA_RTL_DIR}/tma.f)
  endif()
  if(NOT ARG_PREFIX)
    set(ARG_PREFIX V${ARG_TOP})
  endif()
  tma_read_filelist(srcs ${ARG_FILELIST})
  # The engine's RTL list comes with the protocol checkers bound into it (simulation only).
  if(ARG_FILELIST STREQUAL "${TMA_RTL_DIR}/tma.f")
    tma_read_filelist(sva_srcs ${TMA_RTL_DIR}/sva/tma_sva.f)
    list(APPEND srcs ${sva_srcs})
  endif()
  list(APPEND srcs ${ARG_EXTRA_SOURCES})
  # -fno-reloop: Verilator 5.006 re-loops the __Vsampled copies of a $past() of an unpacked
  # array into _eval without declaring the loop variable (__Vilp), which does not compile.
  set(vargs -Wall --assert --x-assign unique --x-initial unique -O3 -fno-reloop
      ${TMA_RTL_DIR}/lint/tma.vlt ${ARG_ARGS})
  if(TMA_BROKEN_DUT)
    list(APPEND vargs -DTMA_BROKEN_DUT)
  endif()
  tma_verilate_refresh(${target} ${ARG_PREFIX} ${srcs} ${TMA_RTL_DIR}/lint/tma.vlt)
  set(opts)
  if(TMA_WAVES)
    list(APPEND opts TRACE_FST)
  endif()
  if(TMA_COVERAGE AND TMA_COVERAGE_LINE)
    list(APPEND vargs --coverage-line)
  elseif(TMA_COVERAGE)
    list(APPEND opts COVERAGE)
  endif()
  if(ARG_SYSTEMC)
    list(APPEND opts SYSTEMC)
  endif()
  verilate(${target} ${opts}
    PREFIX ${ARG_PREFIX}
    TOP_MODULE ${ARG_TOP}
    SOURCES ${srcs}
    INCLUDE_DIRS ${TMA_RTL_DIR}/include
    VERILATOR_ARGS ${vargs})
  if(ARG_SYSTEMC)
    verilator_link_systemc(${target})
  endif()
endfunction()

# tma_systemc(<target>): link a plain (non-Verilated) target against SystemC.
function(tma_link_systemc target)
  target_include_directories(${target} PRIVATE $ENV{SYSTEMC_INCLUDE})
  target_link_libraries(${target} PRIVATE $ENV{SYSTEMC_LIBDIR}/libsystemc.so)
endfunction()
