#include "runtime/json/spelling.hpp"

#include <algorithm>
#include <array>
#include <cassert>

#include "runtime/json/quote.hpp"

namespace ordo::json {
namespace {

// Optimal string alignment distance over three rolling rows of fixed size; both words are at
// most spelling_word_bytes_max long.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  assert(a.size() <= spelling_word_bytes_max && b.size() <= spelling_word_bytes_max);
  using Row = std::array<std::size_t, spelling_word_bytes_max + 1>;
  Row before_previous{};
  Row previous{};
  Row current{};
  for (std::size_t j = 0; j <= b.size(); ++j) {
    previous[j] = j;
  }
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = a[i - 1] == b[j - 1] ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        current[j] = std::min(current[j], before_previous[j - 2] + 1);
      }
    }
    before_previous = previous;
    previous = current;
  }
  return previous[b.size()];
}

}  // namespace

std::optional<std::string_view> closest_spelling(std::string_view word,
                                                 std::span<const std::string_view> candidates) {
  if (word.size() > spelling_word_bytes_max) {
    return std::nullopt;
  }
  std::optional<std::string_view> best;
  std::size_t best_distance = spelling_distance_max + 1;
  const std::size_t examined = std::min(candidates.size(), spelling_candidates_max);
  for (const std::string_view candidate : candidates.first(examined)) {
    const std::size_t length_gap = candidate.size() > word.size() ? candidate.size() - word.size()
                                                                  : word.size() - candidate.size();
    if (candidate.size() > spelling_word_bytes_max || length_gap >= best_distance) {
      continue;
    }
    const std::size_t distance = edit_distance(word, candidate);
    if (distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  assert(!best.has_value() || best_distance <= spelling_distance_max);
  return best;
}

std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates) {
  const std::optional<std::string_view> hint = closest_spelling(word, candidates);
  return hint.has_value() ? " (did you mean " + quote(*hint) + "?)" : std::string();
}

}  // namespace ordo::json
