#include "runtime/import/mxnet_attrs.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <stdexcept>
#include <string_view>

#include "runtime/import/refusal.hpp"

namespace ordo::import::mx_detail {
namespace {

constexpr std::uint64_t dim_max = std::uint64_t{1} << 31;

std::uint64_t parse_uint(std::string_view text, const std::string& key) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v > dim_max) {
    bad("attribute " + key + " = '" + std::string(text) + "'; expected a whole number up to 2^31");
  }
  return v;
}

std::string_view trim(std::string_view t) {
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.remove_prefix(1);
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.remove_suffix(1);
  return t;
}

}  // namespace

const std::string* attr(const MxNode& node, const std::string& key) {
  const auto it = node.attrs.find(key);
  return it == node.attrs.end() ? nullptr : &it->second;
}

std::uint64_t attr_uint(const MxNode& node, const std::string& key,
                        std::optional<std::uint64_t> fallback) {
  const std::string* v = attr(node, key);
  if (v == nullptr) {
    if (!fallback) bad("no attribute " + key);
    return *fallback;
  }
  return parse_uint(trim(*v), key);
}

std::vector<std::uint64_t> attr_tuple(const MxNode& node, const std::string& key,
                                      std::vector<std::uint64_t> fallback) {
  const std::string* v = attr(node, key);
  if (v == nullptr) return fallback;
  std::string_view t = trim(*v);
  if (!t.empty() && (t.front() == '(' || t.front() == '[')) {
    if (t.size() < 2 || (t.back() != ')' && t.back() != ']')) {
      bad("attribute " + key + " = '" + *v + "'; expected a tuple such as (3, 3)");
    }
    t = t.substr(1, t.size() - 2);
  }
  std::vector<std::uint64_t> out;
  while (!trim(t).empty()) {
    const std::size_t comma = t.find(',');
    out.push_back(parse_uint(trim(t.substr(0, comma)), key));
    if (out.size() > 8) bad("attribute " + key + " has more than 8 entries");
    if (comma == std::string_view::npos) break;
    t.remove_prefix(comma + 1);
  }
  return out;
}

bool attr_bool(const MxNode& node, const std::string& key, bool fallback) {
  const std::string* v = attr(node, key);
  if (v == nullptr) return fallback;
  std::string t(trim(*v));
  std::transform(t.begin(), t.end(), t.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (t == "true" || t == "1") return true;
  if (t == "false" || t == "0") return false;
  bad("attribute " + key + " = '" + *v + "'; expected True or False");
}

std::string attr_string(const MxNode& node, const std::string& key, const std::string& fallback) {
  const std::string* v = attr(node, key);
  return v == nullptr ? fallback : std::string(trim(*v));
}

std::array<std::uint64_t, 2> window(const MxNode& node, const std::string& key,
                                    std::uint64_t fallback, bool required) {
  if (required && attr(node, key) == nullptr) bad("no attribute " + key);
  const std::vector<std::uint64_t> v = attr_tuple(node, key, {fallback, fallback});
  if (v.size() != 2) {
    bad("attribute " + key + " has " + std::to_string(v.size()) +
        " entries; expected 2 (2-D operators only)");
  }
  return {v[0], v[1]};
}

double attr_double(const MxNode& node, const std::string& key, double fallback) {
  const std::string* v = attr(node, key);
  if (v == nullptr) return fallback;
  try {
    return std::stod(std::string(trim(*v)));
  } catch (const std::exception&) {
    bad("attribute " + key + " = '" + *v + "'; expected a number");
  }
}

}  // namespace ordo::import::mx_detail
