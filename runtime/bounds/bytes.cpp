#include "runtime/bounds/bytes.hpp"

#include <array>
#include <cctype>
#include <utility>

namespace ordo::bounds {

namespace {

std::string lower(std::string_view text) {
  std::string out;
  for (const char c : text) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The power of 1024 a unit stands for, or -1 for no unit ordo knows.
int unit_power(std::string_view unit) {
  if (unit.empty() || unit == "b") return 0;
  static constexpr std::array<char, 5> prefixes{'k', 'm', 'g', 't', 'p'};
  for (std::size_t i = 0; i < prefixes.size(); ++i) {
    const char p = prefixes[i];
    if (unit == std::string(1, p) || unit == std::string{p, 'b'} ||
        unit == std::string{p, 'i', 'b'}) {
      return static_cast<int>(i) + 1;
    }
  }
  return -1;
}

BytesRead refused(std::string_view text, const std::string& why) {
  BytesRead read;
  read.problem = "'" + std::string(text) + "' is not a size: " + why;
  return read;
}

}  // namespace

BytesRead read_bytes(std::string_view text) {
  const std::string expected =
      "expected a whole number of bytes with an optional unit (512M, 4G, 25MiB; units are "
      "powers of 1024)";
  std::size_t i = 0;
  std::uint64_t count = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0) {
    const auto digit = static_cast<std::uint64_t>(text[i] - '0');
    if (__builtin_mul_overflow(count, std::uint64_t{10}, &count) ||
        __builtin_add_overflow(count, digit, &count)) {
      return refused(text, "more than 2^64 - 1 bytes");
    }
    ++i;
  }
  if (i == 0) return refused(text, expected);
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  const int power = unit_power(lower(text.substr(i)));
  if (power < 0) return refused(text, expected);
  for (int p = 0; p < power; ++p) {
    if (__builtin_mul_overflow(count, std::uint64_t{1024}, &count)) {
      return refused(text, "more than 2^64 - 1 bytes");
    }
  }
  BytesRead read;
  read.bytes = count;
  return read;
}

}  // namespace ordo::bounds
