// "Did you mean" hints: the closest known word to a misspelt one.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace ordo::json {

// Hints are cheap by construction: only words up to this long are compared, only this many
// candidates are looked at, and only matches this close are offered.
inline constexpr std::size_t spelling_word_bytes_max = 64;
inline constexpr std::size_t spelling_candidates_max = 4096;
inline constexpr std::size_t spelling_distance_max = 2;

// The first candidate at the smallest edit distance (insertions, deletions, substitutions and
// swaps of neighbours) from `word`, if within spelling_distance_max.
std::optional<std::string_view> closest_spelling(std::string_view word,
                                                 std::span<const std::string_view> candidates);

// " (did you mean 'x'?)", or "" when nothing is close.
std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates);

}  // namespace ordo::json
