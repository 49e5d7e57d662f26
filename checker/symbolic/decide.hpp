// The symbolic checker's entry point: decides a job from its ranks' happens-before graphs with
// Z3, proving `safe` by the theorems of docs/symbolic.md (at every rank count for a job whose
// ranks all run one program, else at the model's rank count), or `unsafe` only with a witness
// that a guided run reached on the explicit transition system. Anything else is `undecided`,
// with the reason, and the caller falls back to explicit search (checker::explore).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "checker/search/verdict.hpp"
#include "checker/system/system.hpp"

namespace ordo::checker::symbolic {

struct SymbolicLimits {
  double seconds_max = 60.0;  // wall-clock time of the whole decision
  // Ranks times events of the stuck-cut query (d), which needs a fixed rank count: one boolean
  // each. Jobs over it skip the query.
  std::uint64_t deadlock_events_max = 20'000;
};

struct SymbolicResult {
  enum class Outcome : std::uint8_t { safe, unsafe, undecided };
  Outcome outcome = Outcome::undecided;
  // safe: the proof holds at every rank count (the job has no fixed rank count, all its ranks
  // run one program); otherwise only at result.ranks.
  bool every_rank_count = false;
  // What was proven or found, one sentence each, in the order of the decision.
  std::vector<std::string> facts;
  // safe: verdict safe and the rank count. unsafe: verdict, property, violation and witness, as
  // explore() gives them, so the witness replays on exec::ControlledRun. undecided: verdict
  // unknown (bound seconds_max when the time ran out).
  Result result;
  std::string undecided_reason;
  std::uint32_t queries = 0;      // Z3 checks
  // Queries answered from the happens-before graph alone: chains whose every link is a path,
  // pools whose widths rule exhaustion out (docs/symbolic.md).
  std::uint32_t graph_proofs = 0;
  std::uint32_t guided_runs = 0;  // concrete runs tried on candidates
  double seconds = 0.0;
};

// Throws std::invalid_argument for a model whose programs the graphs cannot take (a program
// that did not pass validation). Never throws for a limit reached: that is `undecided`.
SymbolicResult decide(const System& model, const SymbolicLimits& limits = {});

std::string_view to_string(SymbolicResult::Outcome outcome);
// The outcome and its scope, the facts, then report(model, result) for unsafe or the reason for
// undecided.
// "" or " from 4 (the job is not valid below)": where "every rank count" begins.
std::string from_words(const System& model);
std::string report(const System& model, const SymbolicResult& result);

}  // namespace ordo::checker::symbolic
