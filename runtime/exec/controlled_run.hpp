// Every rank of a job on one thread, one transition at a time: each rank has its own engine under a
// ControlledScheduler and its own executor, all on one simulated world. A transition is a rank's
// main thread taking its next action, or one engine decision (claim an op, issue a claimed
// collective op's call, complete an op; docs/semantics.md, S1-S4), named by the program's op ids so
// that a checker counterexample replays as written. The same transitions give the same execution,
// violations included.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "runtime/comm/sim/sim_world.hpp"
#include "runtime/dag/program.hpp"
#include "runtime/dag/transition.hpp"
#include "runtime/engine/controlled_scheduler.hpp"
#include "runtime/engine/engine.hpp"
#include "runtime/exec/executor.hpp"

namespace ordo::exec {

enum class RunEnd : std::uint8_t { finished, violation, deadlock, rank_failed, transition_limit };

struct RunOutcome {
  RunEnd end = RunEnd::finished;
  std::uint64_t transitions = 0;
  std::string report;  // the violation, deadlock or failure, in words; empty when finished
};

class ControlledRun {
 public:
  // `ranks` must match job.ranks when the job fixes it. Throws std::invalid_argument otherwise.
  // The run keeps its own copy of the job.
  // Runs the job as `backend` runs it (comm::launch_view), on a simulated world of that backend.
  ControlledRun(const dag::Job& job, std::uint32_t ranks, BodyOptions options = {},
                comm::Backend backend = comm::Backend::mpi);
  ~ControlledRun();

  // Per rank, the transitions the synchronising reading allows, then the early returns (calls
  // whose needs are met and that may return before their match, docs/semantics.md C4): the main
  // thread's return from its call, or an op's completion.
  std::vector<dag::Transition> legal_transitions() const;
  // Whether `transition`, legal now, is an early return.
  bool returns_early(const dag::Transition& transition) const;
  // Takes one transition or throws engine::ScheduleError saying why it is illegal.
  void take(const dag::Transition& transition);
  const std::vector<dag::Transition>& trace() const { return trace_; }
  std::string describe(const dag::Transition& transition) const;

  // Every rank is done and no call is unmatched (one returned from early may be).
  bool finished() const;
  // The world's violation (P1, P2, a deadlock it found), or a buffer race (P5) a transition
  // started: the run ends at either.
  std::optional<comm::Violation> violation() const;
  // When no transition but early returns is legal and the run has not finished: what every rank
  // waits on (deadlocks are judged under the synchronising reading, as the checker judges them).
  std::optional<comm::Deadlock> deadlock() const;
  // A rank whose main thread got an exception (a poisoned wait, a failed collective).
  std::optional<std::string> rank_failure() const;
  // What the run ended with, now (finished, violation, deadlock, rank_failed), if it ended.
  std::optional<RunOutcome> outcome() const;

  std::uint32_t ranks() const { return static_cast<std::uint32_t>(ranks_.size()); }
  Buffers& buffers(dag::Rank rank);
  const dag::Program& program(dag::Rank rank) const;

 private:
  struct RankRun;
  std::string main_line(const RankRun& r) const;
  // The rank's own account of a stuck state, for the deadlock's description.
  comm::RankAccount account(const RankRun& r) const;
  bool main_enabled(const RankRun& r) const;
  void take_main(RankRun& r);
  void sync_transitions(const RankRun& r, std::vector<dag::Transition>& out) const;
  void early_returns(const RankRun& r, std::vector<dag::Transition>& out) const;
  // The messages its recvs from any source may take now: a `main` or a `match` with its source.
  void message_choices(const RankRun& r, std::vector<dag::Transition>& out) const;
  bool any_sync_transition() const;
  // Whether the party of `r` that `s` starts (a compute or copy op's claim, a collective op's
  // issue, the main thread's call) races a touch in flight (B1-B3); records the race.
  bool starts_a_race(RankRun& r, const dag::Transition& s);
  // The party `party` of `r` stopped touching (its op completed, or its main call returned).
  static void touches_end(RankRun& r, std::uint64_t party);

  dag::Job job_;  // a copy: the ranks point into its programs
  std::unique_ptr<comm::sim::SimWorld> world_;
  std::vector<std::unique_ptr<RankRun>> ranks_;
  std::vector<dag::Transition> trace_;
  std::optional<comm::BufferRace> race_;
};

// Takes uniformly random legal transitions from `seed` until the run ends or `transitions_max`
// transitions.
RunOutcome run_random_schedule(ControlledRun& run, std::uint64_t seed,
                               std::uint64_t transitions_max);

}  // namespace ordo::exec
