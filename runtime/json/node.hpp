// Typed, located access to a parsed dump. Every accessor either returns a value of the asked-for
// shape or throws a errors::InputError at the value's JSON pointer, so the readers built on it
// state only what the format is, never how to report that it is not.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace ordo::json {

class Node {
 public:
  Node(const nlohmann::json& value, std::string pointer);

  const nlohmann::json& value() const { return *value_; }
  const std::string& pointer() const { return pointer_; }

  Node element(std::size_t index) const;

  [[noreturn]] void fail(std::string problem, std::string expected) const;
  // Fails with "found <what this value is>".
  [[noreturn]] void fail_found(std::string expected) const;

 private:
  const nlohmann::json* value_;
  std::string pointer_;
};

// The fields an object of the format may have.
struct ObjectSpec {
  std::string_view what;  // "op", "collective", ...: how messages name the object
  std::span<const std::string_view> required;
  std::span<const std::string_view> optional;
};

// A node checked to be an object of the given spec.
class ObjectNode {
 public:
  // Fails unless `node` is an object; fields are checked by reject_unknown_fields().
  ObjectNode(const Node& node, const ObjectSpec& spec);

  // Fails on the first field (in key order) that the spec does not name.
  void reject_unknown_fields() const;
  Node required(std::string_view key) const;
  std::optional<Node> optional(std::string_view key) const;
  const Node& node() const { return node_; }

 private:
  Node node_;
  const ObjectSpec* spec_;
};

// The number of elements of an array node, after checking it is an array of at most size_max.
std::size_t read_array(const Node& node, std::size_t size_max, std::string_view what);

const std::string& read_string(const Node& node, std::string_view what);

// JSON integers only: 1.0 or 1e3 are numbers but not integers, and are rejected.
std::uint64_t read_unsigned(const Node& node, std::uint64_t max);
std::int64_t read_signed(const Node& node, std::int64_t min, std::int64_t max);
// Any finite JSON number at least `min`.
double read_number(const Node& node, double min);

// The "format" and "version" fields every ordo JSON file starts with, checked first so that
// another kind of JSON file, or a newer one, is reported as such and not as unknown fields.
// Accepts the versions from `oldest` to `newest` a reader still knows, and returns the one found.
std::uint64_t check_format(const ObjectNode& object, std::string_view format, std::uint64_t oldest,
                           std::uint64_t newest);
inline void check_format(const ObjectNode& object, std::string_view format, std::uint64_t version) {
  check_format(object, format, version, version);
}

// The index of the node's string in `choices`.
std::size_t read_choice(const Node& node, std::span<const std::string_view> choices,
                        std::string_view what);

}  // namespace ordo::json
