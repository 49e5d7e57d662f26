// One generated verification problem: a job and the rank count it runs at, with the family it
// came from. The properties print it as the job's dump (fuzz/props/families.hpp), so a failing
// property shows a program that `ordo validate` (and the checker) read as they are.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/comm/rules/backend.hpp"
#include "runtime/dag/program.hpp"

namespace ordo::fuzz {

struct Instance {
  // The family and its knobs, e.g. "concom(comm_threads=2, ...) on 2 layer(s), 3 key(s), ...".
  std::string origin;
  dag::Job job;
  std::uint32_t ranks = 2;
  comm::Backend backend =
      comm::Backend::mpi;  // the semantics the checker and the runtime run it under
};

}  // namespace ordo::fuzz
