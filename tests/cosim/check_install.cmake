# SPDX-License-Identifier: Apache-2.0
# Installs the cosim component into ${WORK}/prefix, then builds and runs the consumer twice:
# through find_package(OpenTMA) (OpenTMA::cosim) and through pkg-config (opentma-cosim); with
# WITH_RTL, the installed shared library's RTL mode runs one load (consumer_rtl).
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(prefix ${WORK}/prefix)
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed: ${ARGN}\n${o}\n${e}")
  endif()
endfunction()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --component cosim --prefix ${prefix})
if(NOT EXISTS ${prefix}/include/opentma/cosim.h)
  message(FATAL_ERROR "header not installed")
endif()
# 1. CMake package
run(${CMAKE_COMMAND} -S ${CONSUMER} -B ${WORK}/cm -DCMAKE_PREFIX_PATH=${prefix}
    -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build ${WORK}/cm)
run(${WORK}/cm/consumer)
run(${WORK}/cm/consumer_static)
execute_process(COMMAND ${WORK}/cm/consumer_rtl RESULT_VARIABLE rc OUTPUT_VARIABLE o
  ERROR_VARIABLE e)
if(WITH_RTL AND NOT rc EQUAL 0)
  message(FATAL_ERROR "the installed library's RTL mode failed (exit ${rc}):\n${o}\n${e}")
elseif(NOT WITH_RTL AND NOT rc EQUAL 77)
  message(FATAL_ERROR "a library built without the RTL mode ran consumer_rtl (exit ${rc})")
endif()
message(STATUS "${o}")
# 2. pkg-config
file(GLOB pcdir ${prefix}/lib*/pkgconfig)
set(ENV{PKG_CONFIG_PATH} ${pcdir})
execute_process(COMMAND pkg-config --cflags --libs opentma-cosim OUTPUT_VARIABLE flags
  RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pkg-config does not find opentma-cosim")
endif()
separate_arguments(flags UNIX_COMMAND "${flags}")
file(GLOB libdir ${prefix}/lib*)
run(cc -std=c99 -Wall -Wextra -Werror -pedantic ${CONSUMER}/consumer.c ${flags}
    -Wl,-rpath,${libdir} -o ${WORK}/consumer_pc)
run(${WORK}/consumer_pc)
message(STATUS "installed package OK (CMake package and pkg-config)")
