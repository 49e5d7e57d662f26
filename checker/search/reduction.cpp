#include "checker/search/reduction.hpp"

#include <algorithm>
#include <variant>

#include "runtime/engine/rules/op_desc.hpp"

namespace ordo::checker {

namespace {

// Another rank can change this rank's state only by matching one of its calls, or, on a
// stream-ordered backend, by settling its stream (D2). Both need a call of this rank that has not
// ended: its main thread blocked in it or an op still `issued` (on such a backend an op stays
// issued until its stream completes the call, so a non-empty stream implies one of the two).
bool has_call_in_flight(const RankState& r) {
  // A claimed op's call is not in flight: nothing another rank does can change it before it is
  // issued, and the issue is this rank's own transition.
  return r.main_blocked || std::any_of(r.phase.begin(), r.phase.end(), [](OpPhase p) {
           return p == OpPhase::issued || p == OpPhase::returnable;
         });
}

}  // namespace

bool issues_collective(const System& model, const State& state, const dag::Transition& transition) {
  const dag::Program& program = model.program(transition.rank);
  switch (transition.kind) {
    case dag::Transition::Kind::main: {
      const std::uint32_t pc = state.rank(transition.rank).pc;
      return pc < program.main.size() &&
             std::holds_alternative<dag::CollectiveAction>(program.main[pc]);
    }
    case dag::Transition::Kind::claim:  // issues only where claim and issue are one transition (S3)
      return dag::is_collective(program.ops.at(transition.op).kind) &&
             !engine::body_is_own_transition(program.ops.at(transition.op).kind);
    case dag::Transition::Kind::complete:
      return false;
    case dag::Transition::Kind::issue:
    case dag::Transition::Kind::match:  // a recv takes a message: only ever in flight (S9)
      return true;
  }
  return true;
}

bool reduce_to_ample(const System& model, const State& state,
                     std::vector<dag::Transition>& enabled) {
  // enabled_transitions lists transitions rank by rank, so each rank's transitions form one run.
  std::size_t begin = 0;
  while (begin < enabled.size()) {
    const dag::Rank rank = enabled[begin].rank;
    std::size_t end = begin;
    bool local = !has_call_in_flight(state.rank(rank));
    while (end < enabled.size() && enabled[end].rank == rank) {
      if (local && issues_collective(model, state, enabled[end])) local = false;
      ++end;
    }
    if (local) {
      if (end - begin == enabled.size()) return false;
      if (begin > 0) {
        std::move(enabled.begin() + static_cast<std::ptrdiff_t>(begin),
                  enabled.begin() + static_cast<std::ptrdiff_t>(end), enabled.begin());
      }
      enabled.resize(end - begin);
      return true;
    }
    begin = end;
  }
  return false;
}

std::vector<dag::Transition> ample_transitions(const System& model, const State& state,
                                               const std::vector<dag::Transition>& enabled) {
  std::vector<dag::Transition> ample = enabled;
  reduce_to_ample(model, state, ample);
  return ample;
}

}  // namespace ordo::checker
