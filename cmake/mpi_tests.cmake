# ordo_add_mpi_tests(TARGET target PREFIX name LABELS l1 l2 ...): registers the MPI test program
# `target` as one ctest test per world size (name_np2, name_np4), launched by mpirun with the
# project's flags: shared memory only (ORDO_MPIEXEC_FLAGS), Open MPI allowed to run as root in
# containers, and under ThreadSanitizer the suppressions for Open MPI's own internals.
# Shared memory only (self, vader): no network probing, nothing leaves the machine. Single-copy
# (CMA) is off because containers often forbid the process_vm_readv it relies on; the copy-in /
# copy-out path it falls back to is what such environments use anyway.
set(ORDO_MPIEXEC_FLAGS
  --oversubscribe --bind-to none
  --mca btl self,vader --mca btl_vader_single_copy_mechanism none
  CACHE STRING "Flags mpirun gets for ordo's MPI tests")
# Upper bound on one MPI test job; a rank stuck in a collective its peers abandoned ends here.
set(ORDO_MPI_TEST_TIMEOUT_S 300 CACHE STRING "ctest timeout of each MPI test, in seconds")
set(ORDO_MPI_TSAN_SUPPRESSIONS "${PROJECT_SOURCE_DIR}/tests/comm/tsan.supp")

function(ordo_add_mpi_tests)
  cmake_parse_arguments(ARG "" "TARGET;PREFIX" "LABELS" ${ARGN})
  if(ORDO_SANITIZE STREQUAL "address")
    # LeakSanitizer reports Open MPI's own allocations, so the MPI jobs run in the other presets
    # only (scripts/test.sh); the AddressSanitizer build leaves their programs out too.
    set_target_properties(${ARG_TARGET} PROPERTIES EXCLUDE_FROM_ALL ON)
    return()
  endif()
  set(env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)
  set(env_modification "")
  if(ORDO_SANITIZE STREQUAL "thread")
    # Appended, so options set by the tsan test preset (halt_on_error, ...) stay in force.
    set(env_modification "TSAN_OPTIONS=string_append: suppressions=${ORDO_MPI_TSAN_SUPPRESSIONS}")
  endif()
  foreach(ranks 2 4)
    add_test(NAME ${ARG_PREFIX}_np${ranks}
      COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks} ${ORDO_MPIEXEC_FLAGS}
              ${MPIEXEC_PREFLAGS} $<TARGET_FILE:${ARG_TARGET}> ${MPIEXEC_POSTFLAGS})
    set_tests_properties(${ARG_PREFIX}_np${ranks} PROPERTIES
      LABELS "${ARG_LABELS}"
      TIMEOUT ${ORDO_MPI_TEST_TIMEOUT_S}
      PROCESSORS ${ranks}
      ENVIRONMENT "${env}"
      ENVIRONMENT_MODIFICATION "${env_modification}")
  endforeach()
endfunction()
