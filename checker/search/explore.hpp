// Stateful depth-first exploration of every interleaving of a job's ranks, main threads and
// engine pools, with a visited set of canonical state encodings. Every bound is explicit and
// reaching one ends the search with `unknown`, never with `safe`.
#pragma once

#include <cstdint>

#include "checker/search/verdict.hpp"
#include "checker/system/system.hpp"

namespace ordo::checker {

struct ExploreLimits {
  std::uint64_t states_max = 1'000'000;  // distinct states kept in the visited set
  double seconds_max = 60.0;             // wall-clock time of the search
  // Growth of the process's resident memory during the search (visited set and state stack).
  std::uint64_t bytes_max = std::uint64_t{4} << 30;
};

// The reductions are on by default; turning one off gives the same verdicts on more states (the
// tests compare both ways).
struct Reductions {
  bool partial_order = true;  // reduction.hpp
  bool symmetry = true;       // when model.ranks_interchangeable()
};

// Explores `model` until a violation (unsafe, with the witness), the end of the reachable states
// (safe) or a limit (unknown). The search depth needs no bound of its own: every transition
// advances a main pc or an op's phase, which only grow, so every path is at most a few transitions
// per action and op long.
Result explore(const System& model, const ExploreLimits& limits, const Reductions& reductions = {});

}  // namespace ordo::checker
