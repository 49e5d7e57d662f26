// Rules for a program's main thread: every op submitted exactly once, waits that wait for
// something, and the collectives the main thread calls itself.
#include <cassert>
#include <variant>

#include "runtime/dag/detail/check_parts.hpp"
#include "runtime/dag/limits.hpp"
#include "runtime/json/pointer.hpp"
#include "runtime/json/quote.hpp"

namespace ordo::dag::detail {
namespace {

// What the main thread has done so far, walking its actions in order.
struct MainState {
  std::vector<std::optional<std::size_t>> submitted_at;  // per op: the action that submitted it
  std::vector<bool> written;                             // per var: a submitted op writes it
};

void check_submit(const ProgramScope& scope, const SubmitAction& submit, std::size_t index,
                const std::string& where, MainState& state, Findings& findings) {
  const Program& program = scope.program();
  if (!check_index(submit.op, program.ops.size(), Location(where, "op"), "op", findings)) {
    return;
  }
  std::optional<std::size_t>& submitted_at = state.submitted_at[submit.op];
  if (submitted_at.has_value()) {
    const std::string first =
        json::pointer_child(json::pointer_child(scope.pointer(), "main"), *submitted_at);
    findings.push_back({json::pointer_child(where, "op"),
                        "op " + json::quote(program.ops[submit.op].name) +
                            " is submitted twice (first at " + first + ")",
                        "each op submitted once"});
    return;
  }
  submitted_at = index;
  for (const VarId var : program.ops[submit.op].writes) {
    if (var < state.written.size()) {
      state.written[var] = true;
    }
  }
}

// MXNet returns at once from a wait on a var that no submitted op writes; in a dump that is almost
// always a wait placed before the submission it was meant to follow.
void check_wait(const ProgramScope& scope, const WaitToReadAction& wait, const std::string& where,
                const MainState& state, Findings& findings) {
  const Program& program = scope.program();
  if (check_index(wait.var, program.vars.size(), Location(where, "var"), "var", findings) &&
      !state.written[wait.var]) {
    findings.push_back(
        {json::pointer_child(where, "var"),
         "no op submitted before this wait writes var " + json::quote(program.vars[wait.var].name),
         "a wait on a var that an earlier submission writes"});
  }
}

void check_call(ProgramScope& scope, const CollectiveAction& call, const std::string& where,
                Findings& findings) {
  const Program& program = scope.program();
  const Var* buffer = nullptr;
  if (call.buffer.has_value()) {
    if (check_index(*call.buffer, program.vars.size(), Location(where, "buffer"), "var",
                    findings)) {
      buffer = &program.vars[*call.buffer];
    }
    if (call.collective.kind == CollectiveKind::barrier) {
      findings.push_back(
          {json::pointer_child(where, "buffer"), "barrier has a buffer", "no buffer on a barrier"});
      buffer = nullptr;
    }
  }
  if (!call.buffer.has_value() && call.collective.kind != CollectiveKind::barrier &&
      call.collective.count > 0) {
    findings.push_back({where,
                        "the main thread's " + std::string(to_string(call.collective.kind)) +
                            " moves " + std::to_string(call.collective.count) +
                            " elements but has no buffer",
                        "a 'buffer' var holding the data"});
  }
  check_collective(call.collective, json::pointer_child(where, "collective"), buffer, scope,
                   findings);
}

}  // namespace

void check_main(ProgramScope& scope, Findings& findings) {
  const Program& program = scope.program();
  const std::string where = json::pointer_child(scope.pointer(), "main");
  check_table_size(program.main.size(), limits::actions_max, where, "actions", findings);
  MainState state{std::vector<std::optional<std::size_t>>(program.ops.size()),
                  std::vector<bool>(program.vars.size(), false)};
  for (std::size_t i = 0; i < program.main.size(); ++i) {
    const Action& action = program.main[i];
    const std::string action_where = json::pointer_child(where, i);
    if (const auto* submit = std::get_if<SubmitAction>(&action)) {
      check_submit(scope, *submit, i, action_where, state, findings);
    } else if (const auto* wait = std::get_if<WaitToReadAction>(&action)) {
      check_wait(scope, *wait, action_where, state, findings);
    } else if (const auto* call = std::get_if<CollectiveAction>(&action)) {
      check_call(scope, *call, action_where, findings);
    } else {
      assert(std::holds_alternative<WaitForAllAction>(action));
    }
  }
  for (std::size_t op = 0; op < program.ops.size(); ++op) {
    if (!state.submitted_at[op].has_value()) {
      findings.push_back(
          {json::pointer_child(json::pointer_child(scope.pointer(), "ops"), op),
           "op " + json::quote(program.ops[op].name) + " is never submitted by the main program",
           "a submit action for every op"});
    }
  }
}

}  // namespace ordo::dag::detail
