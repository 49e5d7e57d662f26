#include "checker/symbolic/stretch_chains.hpp"

#include <algorithm>
#include <iterator>
#include <variant>

namespace ordo::checker::symbolic {

namespace {

// The calls of one stretch so far: the vars all of them write, sorted.
struct Stretch {
  bool has_calls = false;
  std::vector<dag::VarId> shared;
};

// Adds the stretch's var to `out`; false when its calls share none.
bool close(const dag::Program& program, Stretch& s, std::vector<std::string>& out) {
  if (!s.has_calls) return true;
  if (s.shared.empty()) return false;
  const auto token = std::find_if(s.shared.begin(), s.shared.end(), [&](dag::VarId v) {
    return program.vars[v].kind == dag::VarKind::token;
  });
  out.push_back(program.vars[token != s.shared.end() ? *token : s.shared.front()].name);
  s = Stretch{};
  return true;
}

}  // namespace

std::optional<std::vector<std::string>> stretch_chains(const dag::Program& program) {
  std::vector<std::string> chains;
  Stretch s;
  for (const dag::Action& action : program.main) {
    if (std::holds_alternative<dag::CollectiveAction>(action)) return std::nullopt;
    if (std::holds_alternative<dag::WaitForAllAction>(action)) {
      if (!close(program, s, chains)) return std::nullopt;
      continue;
    }
    const auto* submit = std::get_if<dag::SubmitAction>(&action);
    if (submit == nullptr) continue;
    const dag::Op& op = program.ops[submit->op];
    if (!dag::is_collective(op.kind)) continue;
    std::vector<dag::VarId> writes = op.writes;
    std::sort(writes.begin(), writes.end());
    if (!s.has_calls) {
      s.has_calls = true;
      s.shared = std::move(writes);
      continue;
    }
    std::vector<dag::VarId> both;
    std::set_intersection(s.shared.begin(), s.shared.end(), writes.begin(), writes.end(),
                          std::back_inserter(both));
    s.shared = std::move(both);
  }
  if (!close(program, s, chains) || chains.empty()) return std::nullopt;
  return chains;
}

}  // namespace ordo::checker::symbolic
