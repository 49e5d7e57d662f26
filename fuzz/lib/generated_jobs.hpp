// Random jobs from a user's generator settings, for `ordo fuzz --generate N`: a team that has no
// one job to check but a space of them (the designs it may pick, the knobs it may turn, the
// cluster sizes it runs at) gets random points of that space, each a training step that the
// step-DAG builder makes for a random layered network, as `ordo verify --design` would. The
// networks have chains, branches reading the input, joins and skip connections, keys of random
// sizes and gradient dtypes. Every job is drawn from the seed alone (SplitMix64), so a seed
// names the same jobs on every machine.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/designs/design_config.hpp"
#include "runtime/random/split_mix64.hpp"
#include "fuzz/lib/fuzz_case.hpp"

namespace ordo::fuzz {

enum class GuardChoice : std::uint8_t { on, off, both };

struct GeneratorSettings {
  // Empty: every design but naive, which is unsafe by construction.
  std::vector<designs::DesignKind> designs;
  std::uint32_t layers_max = 3;   // layers of a network, 1 to this
  std::uint32_t keys_max = 3;     // keys of a network (parameters), 1 to this
  std::uint64_t count_max = 16;   // elements of a key, 1 to this (at most count_max_limit)
  std::vector<std::uint32_t> ranks = {2};  // a job's rank count, one of these
  std::uint32_t threads_max = 3;  // compute and comm pool threads, 1 to this
  std::uint32_t ncomm_max = 3;    // concom's communicators, 1 to this
  std::uint32_t outstanding_max = 3;  // concom's keys between barriers, 1 to this
  // fused, nonblocking, sharded, hierarchical, priority: the order guard kept, left out, or
  // either (docs/kvstore.md); a design without one always keeps it.
  GuardChoice order_guard = GuardChoice::on;
  bool init = false;  // also draw the init broadcasts (the safe init) before the step
};

// Ordering faults show on keys of a few elements; the bound keeps a draw's buffers, which the
// runtime's schedules really allocate and reduce, small.
inline constexpr std::uint64_t count_max_limit = std::uint64_t{1} << 16;

// Throws std::invalid_argument, naming the setting, for a bound of 0, an empty rank list or a
// rank count of 0.
void check_settings(const GeneratorSettings& settings);

// Draws one job at a time, so that a long run holds one job, not all of them: the i-th job
// drawn is named "gen-00i", with its design, network and rank count in words as its change.
class JobDrawer {
 public:
  // Throws std::invalid_argument for bad settings (check_settings).
  JobDrawer(GeneratorSettings settings, std::uint64_t seed);
  FuzzCase next();

 private:
  GeneratorSettings settings_;
  random::SplitMix64 rng_;
  std::uint32_t drawn_ = 0;
};

// The first `count` jobs a JobDrawer draws from `seed`.
std::vector<FuzzCase> generated_jobs(const GeneratorSettings& settings, std::uint64_t seed,
                                     std::uint32_t count);

// "2 designs, up to 3 layers and 3 keys, ranks 2,3": the settings in words for the report.
std::string describe(const GeneratorSettings& settings);

}  // namespace ordo::fuzz
