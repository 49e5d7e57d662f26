# Installs the build in ORDO_BUILD_DIR into WORK_DIR/prefix, checks what the install holds and
# leaves out, builds examples/embed against it and runs its programs. Fails at the first step
# that goes wrong, saying which.
function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

function(expect_exit code what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL code)
    message(FATAL_ERROR "${what}: exit ${rc}, expected ${code}:\n${out}\n${err}")
  endif()
  message(STATUS "${what}: exit ${rc} as expected")
endfunction()

set(prefix ${WORK_DIR}/prefix)
set(consumer ${WORK_DIR}/consumer)
file(REMOVE_RECURSE ${WORK_DIR})
run("cmake --install" ${CMAKE_COMMAND} --install ${ORDO_BUILD_DIR} --prefix ${prefix})

foreach(present bin/ordo include/ordo/checker/verify/verify.hpp include/ordo/runtime/engine/engine.hpp
        include/ordo/runtime/kvstore/kvstore.hpp include/ordo/runtime/dag/program.hpp)
  if(NOT EXISTS ${prefix}/${present})
    message(FATAL_ERROR "the install has no ${present}")
  endif()
endforeach()
file(GLOB_RECURSE configs ${prefix}/*/ordoConfig.cmake)
if(NOT configs)
  message(FATAL_ERROR "the install has no ordoConfig.cmake")
endif()
# What is private stays out: the command line's sources, tests, the checker's search internals.
foreach(absent include/ordo/tools include/ordo/tests include/ordo/fuzz include/ordo/bench
        include/ordo/checker/search/visited_set.hpp include/ordo/checker/promela)
  if(EXISTS ${prefix}/${absent})
    message(FATAL_ERROR "the install holds ${absent}, which is not part of the API")
  endif()
endforeach()

run("configuring examples/embed" ${CMAKE_COMMAND} -S ${ORDO_SOURCE_DIR}/examples/embed
    -B ${consumer} -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_PREFIX_PATH=${prefix})
run("building examples/embed" ${CMAKE_COMMAND} --build ${consumer})
expect_exit(0 "record_and_verify" ${consumer}/record_and_verify)
expect_exit(0 "verify_dump on a safe dump" ${consumer}/verify_dump
            ${ORDO_SOURCE_DIR}/specs/examples/funnel.json)
expect_exit(1 "verify_dump on an unsafe dump" ${consumer}/verify_dump
            ${ORDO_SOURCE_DIR}/specs/examples/naive_allreduce.json)
expect_exit(2 "verify_dump on a file that is not a dump" ${consumer}/verify_dump
            ${ORDO_SOURCE_DIR}/examples/embed/CMakeLists.txt)
expect_exit(0 "the installed ordo" ${prefix}/bin/ordo verify
            ${ORDO_SOURCE_DIR}/specs/examples/funnel.json)
