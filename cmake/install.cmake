# `cmake --install`: what another project needs to use ordo (docs/embedding.md). The libraries of
# the API and everything they link, as the CMake package `ordo` (find_package(ordo), then
# ordo::verify, ordo::kvstore, ...); the headers those libraries' public headers reach, under
# include/ordo; and the `ordo` command. Tests, benchmarks, fuzzers and the command line's own
# libraries stay out.

include(CMakePackageConfigHelpers)

# The API: a dump or a recorded program in, a verdict out (verify); the engine, the executor, the
# KVStore and the designs for embedding, on Open MPI or on the simulated world.
set(ordo_api_targets
  ordo_verify ordo_dag ordo_designs ordo_engine ordo_exec ordo_kvstore ordo_comm_mpi ordo_comm_sim)
# The headers a user includes; the install copies them and every project header they include.
set(ordo_api_headers
  checker/verify/verify.hpp
  checker/witness/trace_io.hpp
  runtime/dag/program.hpp
  runtime/dag/dump_reader.hpp
  runtime/dag/dump_writer.hpp
  runtime/dag/dump_error.hpp
  runtime/dag/validate.hpp
  runtime/dag/program_sink.hpp
  runtime/designs/step_builder.hpp
  runtime/engine/engine.hpp
  runtime/engine/thread_pool_scheduler.hpp
  runtime/exec/executor.hpp
  runtime/kvstore/kvstore.hpp
  runtime/comm/mpi/runtime.hpp
  runtime/comm/mpi/world.hpp
  runtime/comm/sim/sim_world.hpp)

# Every ordo library `target` links, itself included: an installed static library needs the
# libraries it was linked against installed beside it. Imported targets (Threads, MPI, Z3,
# nlohmann_json) come from the consumer's own find_package, in the package config.
function(ordo_link_closure out)
  set(seen)
  set(queue ${ARGN})
  while(queue)
    list(POP_FRONT queue t)
    if(NOT TARGET ${t} OR t IN_LIST seen)
      continue()
    endif()
    get_target_property(imported ${t} IMPORTED)
    if(imported)
      continue()
    endif()
    list(APPEND seen ${t})
    get_target_property(type ${t} TYPE)
    set(links)
    if(NOT type STREQUAL "INTERFACE_LIBRARY")
      get_target_property(direct ${t} LINK_LIBRARIES)
      if(direct)
        list(APPEND links ${direct})
      endif()
    endif()
    get_target_property(iface ${t} INTERFACE_LINK_LIBRARIES)
    if(iface)
      list(APPEND links ${iface})
    endif()
    foreach(l IN LISTS links)
      string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" l "${l}")
      if(NOT l MATCHES "^\\$<" AND NOT l MATCHES "::")
        list(APPEND queue ${l})
      endif()
    endforeach()
  endwhile()
  set(${out} ${seen} PARENT_SCOPE)
endfunction()

ordo_link_closure(ordo_installed_targets ${ordo_api_targets})
foreach(t IN LISTS ordo_installed_targets)
  # ordo_verify is ordo::verify to a user.
  string(REGEX REPLACE "^ordo_" "" export_name ${t})
  set_target_properties(${t} PROPERTIES EXPORT_NAME ${export_name})
endforeach()

install(TARGETS ${ordo_installed_targets} EXPORT ordoTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ordo)
install(TARGETS ordo RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET ordo-train)
  # `ordo train` runs the trainer installed beside it.
  install(TARGETS ordo-train RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

set(ordo_package_dir ${CMAKE_INSTALL_LIBDIR}/cmake/ordo)
install(EXPORT ordoTargets NAMESPACE ordo:: DESTINATION ${ordo_package_dir})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/ordoConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/ordoConfig.cmake INSTALL_DESTINATION ${ordo_package_dir})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/ordoConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/ordoConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/ordoConfigVersion.cmake DESTINATION ${ordo_package_dir})

# The headers: the API's, and every project header they include, found by the compiler itself
# at install time (-MM lists the headers a file includes; -MG lets headers of other packages,
# such as mpi.h, stay unresolved), so the set follows the code and nothing private rides along.
install(CODE "
  set(ordo_source_dir \"${PROJECT_SOURCE_DIR}\")
  set(ordo_compiler \"${CMAKE_CXX_COMPILER}\")
  set(ordo_api_headers \"${ordo_api_headers}\")
  set(ordo_include_dir \"${CMAKE_INSTALL_INCLUDEDIR}/ordo\")
  include(\"${CMAKE_CURRENT_LIST_DIR}/install_headers.cmake\")
")
