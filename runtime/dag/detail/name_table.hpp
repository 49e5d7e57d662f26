// Names of one table of a dump (a program's vars, pools or ops; the job's comms), mapped to the
// indices that stand for them in memory. The views point into the parsed document, which
// outlives the table.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "runtime/dag/json_fields.hpp"
#include "runtime/json/node.hpp"

namespace ordo::dag::detail {

class NameTable {
 public:
  // `entity` names one entry ("var"); `table_pointer` is where the table is ("/programs/0/vars").
  NameTable(std::string_view entity, std::string table_pointer);

  void reserve(std::size_t entries);

  // Registers the name at `name_node` as the next index, failing on an invalid or repeated name.
  // Returns the name.
  const std::string& add(const json::Node& name_node);

  // The index of the entry that the string at `reference` names.
  std::uint32_t resolve(const json::Node& reference) const;

  std::size_t size() const { return names_.size(); }

 private:
  std::string entity_;
  std::string table_pointer_;
  std::vector<std::string_view> names_;  // by index
  std::unordered_map<std::string_view, std::uint32_t> ids_;
};

}  // namespace ordo::dag::detail
