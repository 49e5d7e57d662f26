// Jobs a little different from the user's, checked by the same agreement property: what a small
// change to the job (an edit, a refactoring, another cluster size) would do to its safety. Five
// kinds of change, taken in turn so that a few cases cover every kind:
//   - two adjacent submits of a main thread in the other order;
//   - one var dropped from one op's reads or writes (a missing dependency);
//   - a new token var written by two ops (an extra dependency);
//   - a pool with another thread count, 1 to 4;
//   - for a job that fixes no rank count, another rank count, 2 to 4.
// Every mutant is valid (dag::validate, and the checker's model at its rank count accepts it);
// the candidates that are not are skipped and counted.
#pragma once

#include <cstdint>
#include <vector>

#include "fuzz/lib/fuzz_case.hpp"
#include "runtime/comm/rules/backend.hpp"
#include "runtime/dag/program.hpp"

namespace ordo::fuzz {

struct Mutants {
  std::vector<FuzzCase> cases;  // named "mutant-01-<kind>", ...
  std::uint32_t invalid = 0;    // candidates skipped because the result was not a valid job
};

// Up to `count` valid mutants of `job` at `ranks` under `backend`, chosen from `seed`.
Mutants mutants_of(const dag::Job& job, std::uint32_t ranks, comm::Backend backend,
                   std::uint64_t seed, std::uint32_t count);

}  // namespace ordo::fuzz
