#include "fuzz/lib/verdicts.hpp"

#include "checker/search/explore.hpp"
#include "fuzz/lib/budget.hpp"
#include "runtime/errors/input_error.hpp"

namespace ordo::fuzz {

Decision decide(const Instance& instance) {
  std::unique_ptr<const checker::System> model;
  try {
    model = std::make_unique<const checker::System>(instance.job, instance.ranks, instance.backend);
  } catch (const errors::InputError& e) {
    return {nullptr, checker::Result{}, std::string(e.what())};
  }
  checker::Result result = checker::explore(*model, explore_limits());
  return {std::move(model), std::move(result), std::nullopt};
}

std::string verdict_tag(const Decision& decision) {
  return decision.rejected ? "rejected" : verdict_tag(decision.result);
}

std::string verdict_tag(const checker::Result& result) {
  switch (result.verdict) {
    case checker::Verdict::safe:
      return "safe";
    case checker::Verdict::unsafe:
      return "unsafe: " +
             std::string(result.property ? checker::to_string(*result.property) : "no property");
    case checker::Verdict::unknown:
      return "unknown: " +
             std::string(result.bound ? checker::to_string(*result.bound) : "no bound");
  }
  return "?";
}

}  // namespace ordo::fuzz
