#include "runtime/json/node.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "runtime/errors/input_error.hpp"
#include "runtime/json/pointer.hpp"
#include "runtime/json/quote.hpp"
#include "runtime/json/spelling.hpp"

namespace ordo::json {
namespace {

using Json = nlohmann::json;

std::string join(std::span<const std::string_view> words) {
  std::string out;
  for (const std::string_view word : words) {
    out += out.empty() ? "" : ", ";
    out += word;
  }
  return out;
}

// What a value is, for "found ..." messages.
std::string describe(const Json& value) {
  switch (value.type()) {
    case Json::value_t::object:
      return "an object";
    case Json::value_t::array:
      return "an array";
    case Json::value_t::string:
      return "the string " + quote(value.get_ref<const std::string&>());
    case Json::value_t::boolean:
      return value.get<bool>() ? "true" : "false";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
      return "the number " + value.dump();
    case Json::value_t::null:
    case Json::value_t::binary:
    case Json::value_t::discarded:
      break;
  }
  return "null";
}

bool is_known(std::string_view key, const ObjectSpec& spec) {
  const auto has = [key](std::span<const std::string_view> fields) {
    return std::find(fields.begin(), fields.end(), key) != fields.end();
  };
  return has(spec.required) || has(spec.optional);
}

// Integer fields meet floats in two ways: a fraction or exponent written where an integer
// belongs (1.0, 1e3), or an integer literal too large for 64 bits, which the parser stores as a
// double. The second is a range problem and is reported as one.
[[noreturn]] void fail_not_integer(const Node& node, const std::string& expected) {
  const Json& value = node.value();
  if (!value.is_number_float()) {
    node.fail_found(expected);
  }
  const double number = value.get<double>();
  // The parser keeps integers from -2^63 to 2^64 - 1 exactly and past them falls back to double,
  // where -2^63 - 1 rounds to -2^63: so that value, as a double, came from beyond the range.
  const double two_pow_64 = 18446744073709551616.0;
  const double minus_two_pow_63 = -9223372036854775808.0;
  const bool beyond_64_bits = number >= two_pow_64 || number <= minus_two_pow_63;
  if (std::trunc(number) == number && beyond_64_bits) {
    node.fail("number " + value.dump() + " is out of range", expected);
  }
  node.fail("number " + value.dump() + " is not an integer", expected);
}

}  // namespace

Node::Node(const Json& value, std::string pointer) : value_(&value), pointer_(std::move(pointer)) {}

Node Node::element(std::size_t index) const {
  assert(value_->is_array() && index < value_->size());
  return Node((*value_)[index], pointer_child(pointer_, index));
}

void Node::fail(std::string problem, std::string expected) const {
  throw errors::InputError(pointer_display(pointer_), std::move(problem), std::move(expected));
}

void Node::fail_found(std::string expected) const {
  fail("found " + describe(*value_), std::move(expected));
}

ObjectNode::ObjectNode(const Node& node, const ObjectSpec& spec) : node_(node), spec_(&spec) {
  if (!node.value().is_object()) {
    node.fail_found(std::string(spec.what) + " object");
  }
}

void ObjectNode::reject_unknown_fields() const {
  for (const auto& [key, value] : node_.value().items()) {
    if (is_known(key, *spec_)) {
      continue;
    }
    std::vector<std::string_view> fields(spec_->required.begin(), spec_->required.end());
    fields.insert(fields.end(), spec_->optional.begin(), spec_->optional.end());
    const Node unknown(value, pointer_child(node_.pointer(), key));
    unknown.fail("unknown field " + quote(key) + " in " + std::string(spec_->what),
                 "one of: " + join(fields) + did_you_mean(key, fields));
  }
}

Node ObjectNode::required(std::string_view key) const {
  assert(std::find(spec_->required.begin(), spec_->required.end(), key) != spec_->required.end());
  const auto found = node_.value().find(key);
  if (found == node_.value().end()) {
    node_.fail("missing field " + quote(key) + " in " + std::string(spec_->what),
               "the required fields " + join(spec_->required));
  }
  return Node(*found, pointer_child(node_.pointer(), key));
}

std::optional<Node> ObjectNode::optional(std::string_view key) const {
  assert(std::find(spec_->optional.begin(), spec_->optional.end(), key) != spec_->optional.end());
  const auto found = node_.value().find(key);
  if (found == node_.value().end()) {
    return std::nullopt;
  }
  return Node(*found, pointer_child(node_.pointer(), key));
}

std::size_t read_array(const Node& node, std::size_t size_max, std::string_view what) {
  if (!node.value().is_array()) {
    node.fail_found("an array of " + std::string(what));
  }
  const std::size_t size = node.value().size();
  if (size > size_max) {
    node.fail("array of " + std::to_string(size) + " " + std::string(what) + " is over the limit",
              "at most " + std::to_string(size_max) + " elements");
  }
  return size;
}

const std::string& read_string(const Node& node, std::string_view what) {
  if (!node.value().is_string()) {
    node.fail_found(std::string(what));
  }
  return node.value().get_ref<const std::string&>();
}

std::uint64_t read_unsigned(const Node& node, std::uint64_t max) {
  const Json& value = node.value();
  const std::string expected = "an integer from 0 to " + std::to_string(max);
  if (value.is_number_unsigned() || value.is_number_integer()) {
    const bool negative = !value.is_number_unsigned() && value.get<std::int64_t>() < 0;
    if (negative || value.get<std::uint64_t>() > max) {
      node.fail("integer " + value.dump() + " is out of range", expected);
    }
    return value.get<std::uint64_t>();
  }
  fail_not_integer(node, expected);
}

std::int64_t read_signed(const Node& node, std::int64_t min, std::int64_t max) {
  assert(min <= max);
  const Json& value = node.value();
  const std::string expected =
      "an integer from " + std::to_string(min) + " to " + std::to_string(max);
  if (value.is_number_unsigned()) {
    const auto number = value.get<std::uint64_t>();
    if (std::cmp_less(number, min) || std::cmp_greater(number, max)) {
      node.fail("integer " + value.dump() + " is out of range", expected);
    }
    return static_cast<std::int64_t>(number);
  }
  if (value.is_number_integer()) {
    const auto number = value.get<std::int64_t>();
    if (number < min || number > max) {
      node.fail("integer " + value.dump() + " is out of range", expected);
    }
    return number;
  }
  fail_not_integer(node, expected);
}

double read_number(const Node& node, double min) {
  const Json& value = node.value();
  const std::string expected = "a finite number of at least " + Json(min).dump();
  if (!value.is_number()) {
    node.fail_found(expected);
  }
  const double number = value.get<double>();
  if (!std::isfinite(number) || number < min) {
    node.fail("number " + value.dump() + " is out of range", expected);
  }
  return number;
}

std::size_t read_choice(const Node& node, std::span<const std::string_view> choices,
                        std::string_view what) {
  const std::string expected = std::string(what) + ", one of: " + join(choices);
  const std::string& text = read_string(node, expected);
  const auto found = std::find(choices.begin(), choices.end(), text);
  if (found == choices.end()) {
    node.fail("unknown " + std::string(what) + " " + quote(text),
              expected + did_you_mean(text, choices));
  }
  return static_cast<std::size_t>(found - choices.begin());
}

std::uint64_t check_format(const ObjectNode& object, std::string_view format, std::uint64_t oldest,
                           std::uint64_t newest) {
  assert(oldest <= newest);
  const std::string expected_format = "the string \"" + std::string(format) + "\"";
  const Node format_node = object.required("format");
  const std::string& name = read_string(format_node, expected_format);
  if (name != format) format_node.fail("unknown format " + quote(name), expected_format);
  const Node version_node = object.required("version");
  const std::uint64_t number =
      read_unsigned(version_node, std::numeric_limits<std::uint64_t>::max());
  if (number < oldest || number > newest) {
    std::string expected = "version " + std::to_string(newest);
    if (oldest + 1 == newest) {
      expected = "version " + std::to_string(oldest) + " or " + std::to_string(newest);
    } else if (oldest < newest) {
      expected = "a version from " + std::to_string(oldest) + " to " + std::to_string(newest);
    }
    version_node.fail("unsupported version " + std::to_string(number), expected);
  }
  return number;
}

}  // namespace ordo::json
