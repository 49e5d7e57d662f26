#include "checker/verify/verify.hpp"

#include <algorithm>
#include <chrono>

#include "checker/search/confirm_witness.hpp"
#include "checker/search/critical.hpp"
#include "checker/search/shorten.hpp"
#include "checker/system/deadlock.hpp"
#include "checker/system/transitions.hpp"
#include "checker/verify/verify_symbolic.hpp"

namespace ordo::checker {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::uint32_t critical_ranks_max = 16;

double since(Clock::time_point begin) {
  return std::chrono::duration<double>(Clock::now() - begin).count();
}

// What is left of the budget after `spent` seconds, never below a sliver so that a search can
// at least start and report `unknown` honestly.
ExploreLimits remaining(const ExploreLimits& limits, double spent) {
  ExploreLimits left = limits;
  left.seconds_max = std::max(limits.seconds_max - spent, 0.001);
  return left;
}

// Why a stream-ordered job's symbolic answer is MPI's (D4), first among the facts.
void add_equivalence_fact(const System& model, SymbolicStage& stage) {
  std::string fact =
      "every collective is on one communicator and issued by ops alone or by main "
      "threads alone, so the ";
  fact += comm::to_string(model.backend());
  fact += " semantics matches and completes its calls as MPI does (docs/semantics.md, D4)";
  const auto put_first = [&fact](std::vector<std::string>& facts) {
    facts.push_back(fact);
    std::rotate(facts.begin(), facts.end() - 1, facts.end());
  };
  if (stage.decided) put_first(stage.decided->facts);
  put_first(stage.facts);
}

// A witness of the D4 twin is a schedule of `model` too, ending where it ends; only the words of
// the violation differ (no call blocks under a stream-ordered backend, and a stuck state also
// shows its streams). The violation is restated as `model` reports it, so that the answer, and the
// check of its witness, are `model`'s own.
void restate_violation(const System& model, Result& result) {
  if (result.verdict != Verdict::unsafe || !result.violation) return;
  State state = initial_state(model);
  std::optional<comm::Violation> seen;
  for (const dag::Transition& t : result.witness) {
    if (seen) return;  // confirm_witness reports a violation before the last transition
    seen = apply(model, state, t);
  }
  if (seen) {
    result.violation = std::move(*seen);
  } else if (std::holds_alternative<comm::Deadlock>(*result.violation) && stuck(model, state)) {
    result.violation = describe_deadlock(model, state);
  }
}

}  // namespace

std::string_view to_string(Method method) {
  switch (method) {
    case Method::automatic:
      return "auto";
    case Method::explicit_search:
      return "explicit";
    case Method::symbolic:
      return "symbolic";
  }
  return "?";
}

Verification verify(const System& model, const VerifyOptions& options) {
  const Clock::time_point begin = Clock::now();
  Verification v;
  bool decided = false;
  // The symbolic stage's theorems are about MPI's completion at the match. A stream-ordered
  // backend runs some jobs exactly as MPI runs them (D4); those the stage decides on MPI's model
  // of the same launched job. For the others only the explicit search decides.
  const bool stream_ordered = comm::stream_ordered(model.backend());
  // Its theorems are about collectives matched by call order, too: a job with sends and recvs
  // (docs/semantics.md, §3b) is the explicit search's.
  const bool messages = dag::has_point_to_point(model.job());
  const bool symbolic_applies =
      !messages && (!stream_ordered || comm::streams_add_nothing(model.job()));
  if (options.method != Method::explicit_search && messages) {
    v.symbolic_note =
        "the symbolic stage's theorems are about collectives, and this job sends and receives "
        "messages (docs/semantics.md, §3b); the explicit search decides";
  } else if (options.method != Method::explicit_search && !symbolic_applies) {
    std::string note =
        "the symbolic stage's theorems are about MPI's semantics, and this job has main-thread "
        "calls or more than one communicator, so under ";
    note += comm::to_string(model.backend());
    note +=
        " the streams may order its calls differently (docs/semantics.md, D4); the explicit "
        "search decides";
    v.symbolic_note = std::move(note);
  }
  std::optional<System> twin;
  if (options.method != Method::explicit_search && symbolic_applies && stream_ordered) {
    twin.emplace(model.job(), model.ranks(), comm::Backend::mpi);
  }
  if (options.method != Method::explicit_search && symbolic_applies) {
    SymbolicStage stage = symbolic_stage(twin ? *twin : model, options.limits.seconds_max);
    if (twin) add_equivalence_fact(model, stage);
    if (stage.decided) {
      if (twin) restate_violation(model, stage.decided->result);
      v = std::move(*stage.decided);
      v.decided_by = Method::symbolic;
      decided = true;
    } else {
      v.facts = std::move(stage.facts);
      v.symbolic_note = std::move(stage.note);
    }
  }
  if (!decided && options.method != Method::symbolic) {
    v.result = explore(model, remaining(options.limits, since(begin)));
    v.decided_by = Method::explicit_search;
    decided = true;
  }
  if (!decided) {  // symbolic only, and it did not decide: no bound was hit, nothing proven
    v.result.verdict = Verdict::unknown;
    v.result.ranks = model.ranks();
    v.decided_by = Method::symbolic;
  }
  const double polish =
      std::min(options.witness_seconds, remaining(options.limits, since(begin)).seconds_max);
  if (v.result.verdict == Verdict::unsafe) {
    v.result = shorten(model, std::move(v.result), polish / 2.0);
  }
  // Searching from a state of many ranks for a way to finish is beyond any small budget.
  if (options.critical_transition && v.result.verdict == Verdict::unsafe &&
      model.ranks() <= critical_ranks_max) {
    // About ten bisection probes share the other half; one that hits its bound leaves the
    // critical transition unknown, which the report says.
    ExploreLimits probe = options.limits;
    probe.seconds_max = polish / 20.0;
    probe.bytes_max = options.limits.bytes_max / 4;
    v.critical_transition = critical_transition(model, v.result.witness, probe);
  }
  confirm_witness(model, v.result);
  v.seconds = since(begin);
  return v;
}

}  // namespace ordo::checker
