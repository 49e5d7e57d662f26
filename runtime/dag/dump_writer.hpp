// Writing a job as a dump (docs/dag-format.md): canonical, deterministic text, so equal jobs give
// byte-identical dumps that diff line by line (one table entry per line).
#pragma once

#include <string>

#include "runtime/dag/program.hpp"

namespace ordo::dag {

// Lossless for every job that validate() accepts: read_dump(write_dump(job)) == job. Every field
// is written, defaults included; a program running on all ranks is written "ranks": "all".
// Jobs with other problems are written as they are, for inspection, except that a reference
// index with no entry to name throws std::invalid_argument (saying where it is).
std::string write_dump(const Job& job);

}  // namespace ordo::dag
