// One generated verification problem: a job and the rank count it runs at, with the family it
// came from. Its printed form is the job's dump, so a failing property shows a program that
// `ordo validate` (and the checker) read as they are.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "runtime/comm/rules/backend.hpp"
#include "runtime/dag/program.hpp"

namespace ordo::fuzz {

struct Instance {
  std::string origin;  // the family and its knobs, e.g. "design concom(comm_threads=2, ...)"
  dag::Job job;
  std::uint32_t ranks = 2;
  comm::Backend backend = comm::Backend::mpi;  // the semantics the checker and the runtime run it under
};

// rapidcheck prints counterexamples through this: the origin, the rank count, then the dump.
void showValue(const Instance& instance, std::ostream& os);

}  // namespace ordo::fuzz
