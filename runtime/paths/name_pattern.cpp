#include "runtime/paths/name_pattern.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace ordo::paths {

NamePattern NamePattern::exact(std::string name) { return {std::move(name), {}, false}; }

NamePattern NamePattern::numbered(std::string prefix, std::string suffix) {
  return {std::move(prefix), std::move(suffix), true};
}

NamePattern NamePattern::numbered_as(const std::function<std::string(std::uint64_t)>& name_of) {
  const std::string zero = name_of(0);
  const std::string one = name_of(1);
  std::size_t front = 0;
  while (front < zero.size() && front < one.size() && zero[front] == one[front]) ++front;
  std::size_t back = 0;
  while (back < zero.size() - front && back < one.size() - front &&
         zero[zero.size() - 1 - back] == one[one.size() - 1 - back]) {
    ++back;
  }
  if (zero.substr(front, zero.size() - front - back) != "0" ||
      one.substr(front, one.size() - front - back) != "1") {
    throw std::logic_error("the names '" + zero + "' and '" + one +
                           "' do not differ in a number alone");
  }
  return numbered(zero.substr(0, front), zero.substr(zero.size() - back));
}

bool NamePattern::matches(std::string_view name) const {
  if (!numbered_) return name == prefix_;
  if (name.size() <= prefix_.size() + suffix_.size()) return false;
  if (!name.starts_with(prefix_) || !name.ends_with(suffix_)) return false;
  const std::string_view number =
      name.substr(prefix_.size(), name.size() - prefix_.size() - suffix_.size());
  return std::all_of(number.begin(), number.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string NamePattern::words() const { return numbered_ ? prefix_ + "K" + suffix_ : prefix_; }

std::string NamePattern::example(std::uint64_t number) const {
  return numbered_ ? prefix_ + std::to_string(number) + suffix_ : prefix_;
}

bool overlap(const NamePattern& a, const NamePattern& b) {
  if (!a.is_numbered()) return b.matches(a.example(0));
  if (!b.is_numbered()) return a.matches(b.example(0));
  constexpr std::array<std::uint64_t, 6> numbers{0, 1, 7, 10, 99, 123};
  return std::any_of(numbers.begin(), numbers.end(), [&](std::uint64_t n) {
    return b.matches(a.example(n)) || a.matches(b.example(n));
  });
}

}  // namespace ordo::paths
