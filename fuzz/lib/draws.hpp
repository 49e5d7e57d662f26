// Where a generator's random choices come from. Every job generator of the fuzz library is a
// plain function of a Draws, so that one generator serves both of its callers: `ordo fuzz
// --generate` draws from a seed (SeededDraws: random::SplitMix64, so a seed names the same jobs on
// every machine), and the RapidCheck properties from a tape of choices that RapidCheck records and
// shrinks (TapeDraws, through fuzz/props/families.hpp). A shrunk choice is a smaller number, so
// every generator makes its simplest choice at 0: the first of a list, the lower bound of a range,
// the common side of a rare event.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <vector>

#include "runtime/random/split_mix64.hpp"

namespace ordo::fuzz {

class Draws {
 public:
  virtual ~Draws() = default;

  // Uniform in [0, bound). Throws std::invalid_argument for a bound of 0.
  virtual std::uint64_t below(std::uint64_t bound) = 0;

  // Uniform in [min, max].
  std::uint64_t between(std::uint64_t min, std::uint64_t max) { return min + below(max - min + 1); }
  // True one time in n (false at 0).
  bool one_in(std::uint64_t n) { return below(n) == n - 1; }
  // An index into `weights`, each index as often as its share of their sum (0 at 0).
  std::size_t weighted(std::initializer_list<std::uint64_t> weights);
  // One element of `from` (an array or a vector), uniformly (the first at 0).
  template <class Container>
  const auto& pick(const Container& from) {
    return from[static_cast<std::size_t>(below(from.size()))];
  }
};

// Draws from a seed.
class SeededDraws final : public Draws {
 public:
  explicit SeededDraws(std::uint64_t seed) : rng_(seed) {}
  std::uint64_t below(std::uint64_t bound) override { return rng_.below(bound); }

 private:
  random::SplitMix64 rng_;
};

// Draws read from a tape in order: the i-th draw is tape[i] modulo its bound, and past the end of
// the tape every draw is 0. Given a source of fresh numbers, past the end it draws from the source
// and records each draw on the tape, which then replays exactly what was drawn.
class TapeDraws final : public Draws {
 public:
  explicit TapeDraws(const std::vector<std::uint64_t>& tape) : tape_(&tape) {}
  TapeDraws(std::vector<std::uint64_t>& tape, std::function<std::uint64_t()> fresh)
      : tape_(&tape), record_(&tape), fresh_(std::move(fresh)) {}
  std::uint64_t below(std::uint64_t bound) override;
  // How many draws were made so far, on the tape and past it.
  std::size_t used() const { return next_; }

 private:
  const std::vector<std::uint64_t>* tape_;
  std::vector<std::uint64_t>* record_ = nullptr;
  std::function<std::uint64_t()> fresh_;
  std::size_t next_ = 0;
};

}  // namespace ordo::fuzz
