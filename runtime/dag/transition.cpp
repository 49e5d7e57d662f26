#include "runtime/dag/transition.hpp"

#include <array>

namespace ordo::dag {

namespace {

constexpr std::array<std::string_view, 5> kind_names = {"main", "claim", "issue", "complete",
                                                        "match"};
static_assert(static_cast<std::size_t>(Transition::Kind::match) + 1 == kind_names.size());

}  // namespace

std::string_view to_string(Transition::Kind kind) {
  const auto i = static_cast<std::size_t>(kind);
  return i < kind_names.size() ? kind_names[i] : "?";
}

std::span<const std::string_view> transition_kind_names() { return kind_names; }

}  // namespace ordo::dag
