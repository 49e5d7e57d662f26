#include "checker/reduction.hpp"

#include <algorithm>
#include <variant>

namespace ordo::checker {

namespace {

// Another rank can change this rank's state only by matching one of its calls.
bool has_call_in_flight(const RankState& r) {
  return r.main_blocked ||
         std::find(r.phase.begin(), r.phase.end(), OpPhase::issued) != r.phase.end();
}

}  // namespace

bool issues_collective(const Model& model, const State& state, const Step& step) {
  const dag::Program& program = model.program(step.rank);
  switch (step.kind) {
    case Step::Kind::main: {
      const std::uint32_t pc = state.ranks.at(step.rank).pc;
      return pc < program.main.size() &&
             std::holds_alternative<dag::CollectiveAction>(program.main[pc]);
    }
    case Step::Kind::start:
      return dag::is_collective(program.ops.at(step.op).kind);
    case Step::Kind::complete:
      return false;
  }
  return true;
}

std::vector<Step> ample_steps(const Model& model, const State& state,
                              const std::vector<Step>& enabled) {
  // enabled_steps lists steps rank by rank, so each rank's steps form one run.
  std::size_t begin = 0;
  while (begin < enabled.size()) {
    const dag::Rank rank = enabled[begin].rank;
    std::size_t end = begin;
    bool local = !has_call_in_flight(state.ranks[rank]);
    while (end < enabled.size() && enabled[end].rank == rank) {
      if (local && issues_collective(model, state, enabled[end])) local = false;
      ++end;
    }
    if (local) {
      if (end - begin == enabled.size()) return enabled;
      return std::vector<Step>(enabled.begin() + static_cast<std::ptrdiff_t>(begin),
                               enabled.begin() + static_cast<std::ptrdiff_t>(end));
    }
    begin = end;
  }
  return enabled;
}

}  // namespace ordo::checker
