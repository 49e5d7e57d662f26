#include "runtime/dag/detail/findings.hpp"

#include <cassert>
#include <unordered_map>

#include "runtime/dag/name_rules.hpp"
#include "runtime/json/pointer.hpp"
#include "runtime/json/quote.hpp"

namespace ordo::dag::detail {

std::string Location::str() const {
  switch (step_) {
    case 1:
      return json::pointer_child(*base_, key_);
    case 2:
      return json::pointer_child(*base_, index_);
    case 3:
      return json::pointer_child(json::pointer_child(*base_, index_), key_);
    default:
      break;
  }
  return *base_;
}

void check_table_size(std::size_t size, std::size_t size_max, const Location& where,
                      std::string_view entries, Findings& findings) {
  if (size > size_max) {
    findings.push_back({where.str(),
                        std::to_string(size) + " " + std::string(entries) + " is over the limit",
                        "at most " + std::to_string(size_max)});
  }
}

void report_bad_index(std::uint64_t index, std::size_t size, const Location& where,
                      std::string_view entity, Findings& findings) {
  assert(index >= size);
  const std::string entities = std::string(entity) + (size == 1 ? "" : "s");
  findings.push_back(
      {where.str(), std::string(entity) + " index " + std::to_string(index) + " is out of range",
       size == 0 ? "no reference: there are no " + entities
                 : "an index from 0 to " + std::to_string(size - 1) + " (there are " +
                       std::to_string(size) + " " + entities + ")"});
}

void check_names(const std::vector<std::string_view>& names, const std::string& table_pointer,
                 std::string_view entity, Findings& findings) {
  std::unordered_map<std::string_view, std::size_t> first_use;
  first_use.reserve(names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto where = [&] {
      return json::pointer_child(json::pointer_child(table_pointer, i), "name");
    };
    if (const std::optional<std::string> problem = name_problem(names[i])) {
      findings.push_back({where(), *problem, name_expectation()});
      continue;
    }
    const auto [first, inserted] = first_use.emplace(names[i], i);
    if (!inserted) {
      findings.push_back(
          {where(),
           "duplicate " + std::string(entity) + " name " + json::quote(names[i]) +
               " (first used at " +
               json::pointer_child(json::pointer_child(table_pointer, first->second), "name") + ")",
           "names unique within " + table_pointer});
    }
  }
}

void report_unknown_enum(unsigned value, std::span<const std::string_view> choices,
                         const Location& where, std::string_view what, Findings& findings) {
  assert(value >= choices.size());
  std::string list;
  for (const std::string_view choice : choices) {
    list += list.empty() ? "" : ", ";
    list += choice;
  }
  findings.push_back({where.str(),
                      std::string(what) + " value " + std::to_string(value) + " has no spelling",
                      std::string(what) + ", one of: " + list});
}

}  // namespace ordo::dag::detail
