#include "runtime/dag/json_fields.hpp"

#include <optional>

#include "runtime/dag/name_rules.hpp"

namespace ordo::dag {

const std::string& read_name(const json::Node& node) {
  const std::string& name = json::read_string(node, "a name (a string)");
  if (const std::optional<std::string> problem = name_problem(name); problem.has_value()) {
    node.fail(*problem, name_expectation());
  }
  return name;
}

}  // namespace ordo::dag
