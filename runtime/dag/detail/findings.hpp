// The checks behind validate() report into a list of findings, each with a location in the
// dump's coordinates and the two halves of a diagnostic kept apart, so validate_or_throw can
// build a DumpError from them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/dag/names.hpp"

namespace ordo::dag::detail {

struct Finding {
  std::string where;
  std::string problem;
  std::string expected;
};

using Findings = std::vector<Finding>;

// A pointer, or one field or element below one, formatted only when a problem there is reported:
// checking a valid job of millions of entries formats none. It refers to `base` like a
// string_view, so it lives no longer than the call it is passed to.
class Location {
 public:
  // Implicit, so that a pointer already built can be passed where a location is expected.
  Location(const std::string& base) : base_(&base) {}
  Location(const std::string& base, std::string_view key) : base_(&base), key_(key), step_(1) {}
  Location(const std::string& base, std::size_t index) : base_(&base), index_(index), step_(2) {}
  Location(const std::string& base, std::size_t index, std::string_view key)
      : base_(&base), key_(key), index_(index), step_(3) {}

  std::string str() const;

 private:
  const std::string* base_;
  std::string_view key_;
  std::size_t index_ = 0;
  int step_ = 0;  // 0: the base itself, 1: base/key, 2: base/index, 3: base/index/key
};

// Reports a table longer than its limit.
void check_table_size(std::size_t size, std::size_t size_max, const Location& where,
                      std::string_view entries, Findings& findings);

void report_bad_index(std::uint64_t index, std::size_t size, const Location& where,
                      std::string_view entity, Findings& findings);

// True if `index` names an entry of a table of `size`; otherwise reports it.
inline bool check_index(std::uint64_t index, std::size_t size, const Location& where,
                        std::string_view entity, Findings& findings) {
  if (index < size) {
    return true;
  }
  report_bad_index(index, size, where, entity, findings);
  return false;
}

// Reports invalid names and names repeated within one table.
void check_names(const std::vector<std::string_view>& names, const std::string& table_pointer,
                 std::string_view entity, Findings& findings);

template <typename Entry>
void check_entry_names(const std::vector<Entry>& entries, const std::string& table_pointer,
                       std::string_view entity, Findings& findings) {
  std::vector<std::string_view> names;
  names.reserve(entries.size());
  for (const Entry& entry : entries) {
    names.push_back(entry.name);
  }
  check_names(names, table_pointer, entity, findings);
}

void report_unknown_enum(unsigned value, std::span<const std::string_view> choices,
                         const Location& where, std::string_view what, Findings& findings);

// Reports an enum value with no spelling (only a cast can make one). True if it is valid.
template <typename Enum>
bool check_enum(Enum value, const Location& where, std::string_view what, Findings& findings) {
  const auto index = static_cast<unsigned>(value);
  if (index < spellings<Enum>().size()) {
    return true;
  }
  report_unknown_enum(index, spellings<Enum>(), where, what, findings);
  return false;
}

}  // namespace ordo::dag::detail
