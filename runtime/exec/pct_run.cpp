#include "runtime/exec/pct_run.hpp"

#include <algorithm>
#include <map>
#include <random>
#include <utility>
#include <vector>

namespace ordo::exec {

namespace {

// A main thread is entity (rank, none); an op is (rank, op id).
using Entity = std::pair<dag::Rank, std::uint64_t>;
constexpr std::uint64_t main_thread = ~std::uint64_t{0};

Entity entity_of(const dag::Transition& transition) {
  return {transition.rank,
          transition.kind == dag::Transition::Kind::main ? main_thread : transition.op};
}

}  // namespace

RunOutcome run_pct(ControlledRun& run, const PctOptions& options) {
  std::mt19937_64 rng(options.seed);
  const auto depth = static_cast<double>(std::max<std::uint32_t>(options.depth, 1));
  // Initial priorities lie in [d, d + 1); the i-th change point sets priority d - 1 - i, below
  // every initial one and below the change points before it, as in the paper.
  std::uniform_real_distribution<double> initial(depth, depth + 1.0);
  std::vector<std::uint64_t> change_points;
  std::uniform_int_distribution<std::uint64_t> point(
      1, std::max<std::uint64_t>(options.run_transitions, 1));
  for (std::uint32_t i = 1; i < options.depth; ++i) change_points.push_back(point(rng));
  std::map<Entity, double> priority;

  for (std::uint64_t taken = 0; taken < options.transitions_max; ++taken) {
    if (auto end = run.outcome()) return *end;
    const std::vector<dag::Transition> transitions = run.legal_transitions();
    const dag::Transition* best = nullptr;
    double best_priority = 0.0;
    for (const dag::Transition& s : transitions) {
      auto [it, fresh] = priority.try_emplace(entity_of(s), 0.0);
      if (fresh) it->second = initial(rng);
      if (best == nullptr || it->second > best_priority) {
        best = &s;
        best_priority = it->second;
      }
    }
    if (best == nullptr) {
      // outcome() reports every run without a legal transition as ended; this would be a runtime
      // fault.
      return RunOutcome{RunEnd::transition_limit, taken,
                        "no legal transition, yet the run reports no end"};
    }
    const dag::Transition chosen = *best;
    run.take(chosen);
    for (std::size_t i = 0; i < change_points.size(); ++i) {
      if (change_points[i] == taken + 1) {
        priority[entity_of(chosen)] = depth - 1.0 - static_cast<double>(i);
      }
    }
  }
  if (auto end = run.outcome()) return *end;
  return RunOutcome{RunEnd::transition_limit, options.transitions_max,
                    "no end after " + std::to_string(options.transitions_max) + " transitions"};
}

std::uint64_t finished_run_transitions(const dag::Job& job, std::uint32_t ranks) {
  std::uint64_t transitions = 0;
  for (const dag::Program* program : dag::programs_by_rank(job, ranks)) {
    if (program == nullptr) continue;
    transitions += program->main.size() + 2 * program->ops.size();
    for (const dag::Op& op : program->ops) transitions += op.collective ? 1u : 0u;
  }
  return transitions;
}

}  // namespace ordo::exec
