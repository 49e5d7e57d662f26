// Jobs built in code for the tests and for dag_dump_examples: small, valid, and together using
// every construct of the IR.
#pragma once

#include "runtime/dag/program.hpp"

namespace ordo::dag::testing {

// Three ranks, two programs with explicit ranks, every enum value, every action kind, and each
// optional field both present and absent somewhere.
Job every_construct_job();

// One SPMD program and no rank count: the form that means the same at every world size.
Job spmd_job();

// Two ranks, one SPMD program with a copy, an allreduce op, a wait and a main-thread barrier:
// the base that validation tests break one rule at a time.
Job small_valid_job();

}  // namespace ordo::dag::testing
