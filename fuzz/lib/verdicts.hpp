// The checker's answer on a generated instance, and the tag each property files it under, so
// that every run's distribution says how many instances were safe, unsafe (by property) or
// unknown (by bound): an unknown establishes nothing and must be visible as such.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "checker/search/verdict.hpp"
#include "fuzz/lib/instance.hpp"

namespace ordo::fuzz {

struct Decision {
  std::unique_ptr<const checker::System> model;  // the result's states point into it
  checker::Result result;
  // Set when the checker refused the job as invalid at its rank count (no model then, and the
  // result is `unknown`): the runtime must refuse it too.
  std::optional<std::string> rejected;
};

// Explores the instance within explore_limits().
Decision decide(const Instance& instance);

// "safe", "unsafe: P2 thread rule", "unknown: states_max".
std::string verdict_tag(const checker::Result& result);
// As verdict_tag, or "rejected" for a job the checker refused.
std::string verdict_tag(const Decision& decision);

}  // namespace ordo::fuzz
