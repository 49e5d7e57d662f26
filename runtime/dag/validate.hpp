// Semantic validation of a job: everything the dump reader cannot see one field at a time, and
// everything a job built in memory may get wrong (indices out of range included). A job that
// passes is well formed in the sense of docs/semantics.md §2-§3 and round-trips through its dump
// exactly; whether its collectives are safe is the checker's question, not this one.
#pragma once

#include <string>
#include <vector>

#include "runtime/dag/program.hpp"

namespace ordo::dag {

struct Diagnostic {
  std::string where;    // JSON pointer into the job's dump, e.g. "/programs/0/ops/3/pool"
  std::string message;  // "PROBLEM; expected EXPECTED"
};

// Every problem found, in document order within each check; empty means valid. Never indexes
// outside the job's tables, whatever the job holds.
std::vector<Diagnostic> validate(const Job& job);

// Throws DumpError carrying the first problem (and how many others there are) unless valid.
void validate_or_throw(const Job& job);

}  // namespace ordo::dag
