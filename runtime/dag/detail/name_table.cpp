#include "runtime/dag/detail/name_table.hpp"

#include <cassert>
#include <limits>
#include <utility>

#include "runtime/json/pointer.hpp"
#include "runtime/json/quote.hpp"
#include "runtime/json/spelling.hpp"

namespace ordo::dag::detail {

namespace {

// "a var", "an op": entity names are plain lowercase English words.
std::string with_article(std::string_view entity) {
  assert(!entity.empty());
  const bool vowel = std::string_view("aeiou").find(entity.front()) != std::string_view::npos;
  return (vowel ? "an " : "a ") + std::string(entity);
}

}  // namespace

NameTable::NameTable(std::string_view entity, std::string table_pointer)
    : entity_(entity), table_pointer_(std::move(table_pointer)) {}

void NameTable::reserve(std::size_t entries) {
  names_.reserve(entries);
  ids_.reserve(entries);
}

const std::string& NameTable::add(const json::Node& name_node) {
  const std::string& name = read_name(name_node);
  // Callers bound every table by a limit far below this, so indices always fit.
  assert(names_.size() < std::numeric_limits<std::uint32_t>::max());
  const auto id = static_cast<std::uint32_t>(names_.size());
  const auto [existing, inserted] = ids_.emplace(name, id);
  if (!inserted) {
    const std::string first =
        json::pointer_child(json::pointer_child(table_pointer_, existing->second), "name");
    name_node.fail(
        "duplicate " + entity_ + " name " + json::quote(name) + " (first used at " + first + ")",
        "names unique within " + table_pointer_);
  }
  names_.push_back(name);
  return name;
}

std::uint32_t NameTable::resolve(const json::Node& reference) const {
  const std::string& name =
      json::read_string(reference, "the name of " + with_article(entity_) + " (a string)");
  const auto found = ids_.find(name);
  if (found == ids_.end()) {
    reference.fail("no " + entity_ + " named " + json::quote(name) + " in " + table_pointer_,
                   "the name of " + with_article(entity_) + " declared there" +
                       json::did_you_mean(name, names_));
  }
  assert(found->second < names_.size());
  return found->second;
}

}  // namespace ordo::dag::detail
