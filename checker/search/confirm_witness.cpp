#include "checker/search/confirm_witness.hpp"

#include <stdexcept>
#include <string>

#include "checker/system/deadlock.hpp"
#include "checker/system/state.hpp"
#include "checker/system/transitions.hpp"

namespace ordo::checker {

namespace {

[[noreturn]] void broken(const std::string& why) {
  throw std::logic_error("checker invariant broken: an unsafe witness " + why);
}

}  // namespace

void confirm_witness(const System& model, const Result& result) {
  if (result.verdict != Verdict::unsafe) return;
  if (!result.violation || !result.property) broken("has no violation");
  State state = initial_state(model);
  const std::size_t n = result.witness.size();
  for (std::size_t i = 0; i < n; ++i) {
    std::optional<comm::Violation> seen;
    try {
      seen = apply(model, state, result.witness[i]);
    } catch (const std::logic_error& e) {
      broken("takes an illegal transition " + std::to_string(i + 1) + ": " + e.what());
    }
    if (seen && i + 1 < n) broken("hits a violation before its last transition");
    if (i + 1 == n && std::holds_alternative<comm::Deadlock>(*result.violation)) {
      if (seen) broken("ends in a violation, not in the deadlock it claims");
    } else if (i + 1 == n) {
      if (!seen || !comm::same_violation(*seen, *result.violation)) {
        broken("does not end in the violation it claims");
      }
      if (property_of(*seen) != *result.property) broken("claims another property");
      return;
    }
  }
  if (!std::holds_alternative<comm::Deadlock>(*result.violation)) {
    broken("has no transitions but claims a mismatch or a thread-rule break");
  }
  if (!stuck(model, state)) {
    broken("claims a deadlock, but its end state can move or has finished");
  }
  const comm::Violation seen = describe_deadlock(model, state);
  if (!comm::same_violation(seen, *result.violation)) {
    broken("ends in a deadlock other than the one it claims:\n" + comm::describe(seen));
  }
  if (property_of(seen) != *result.property) {
    broken("claims " + std::string(to_string(*result.property)) + " for a deadlock that breaks " +
           std::string(to_string(property_of(seen))));
  }
}

}  // namespace ordo::checker
