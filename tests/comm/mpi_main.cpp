// The MPI test program of the comm tests: 2 to exact_ranks_max ranks, the counts whose reference
// values are exact (values.hpp).
#include "tests/comm/mpi_test_run.hpp"
#include "tests/comm/values.hpp"

int main(int argc, char** argv) {
  return ordo::comm::test::run_mpi_tests(
      argc, argv, {.what = "the MPI tests", .ranks_min = 2,
                   .ranks_max = ordo::comm::test::exact_ranks_max, .before = nullptr});
}
