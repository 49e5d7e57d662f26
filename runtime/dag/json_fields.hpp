// The IR's own vocabulary read from JSON (a dump, a trace, a network description, a hang dump):
// names under the IR's name rules and enums by their spellings, each failing at the value's
// JSON pointer as every json::Node accessor does.
#pragma once

#include <string>
#include <string_view>

#include "runtime/dag/names.hpp"
#include "runtime/json/node.hpp"

namespace ordo::dag {

// A string that satisfies name_problem().
const std::string& read_name(const json::Node& node);

template <typename Enum>
Enum read_enum(const json::Node& node, std::string_view what) {
  // spellings<Enum>() lists the enumerators in declaration order, so index == value.
  return static_cast<Enum>(json::read_choice(node, spellings<Enum>(), what));
}

}  // namespace ordo::dag
