// Random training-step jobs: the one generator of them, which `ordo fuzz --generate N` draws
// from a seed (a team that has no one job to check but a space of them: the designs it may pick,
// the knobs it may turn, the cluster sizes it runs at) and the properties' DesignJobs and
// HeterogeneousJobs families from a RapidCheck tape (fuzz/props/families.hpp). Each job is a
// training step that the step-DAG builder makes for a random layered network, as `ordo verify
// --design` would. The networks have chains, branches reading the input, joins and skip
// connections, keys of random sizes and gradient dtypes; the design's knobs are drawn on both
// sides of the thresholds where a design turns unsafe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/lib/draws.hpp"
#include "fuzz/lib/fuzz_case.hpp"
#include "fuzz/lib/instance.hpp"
#include "runtime/designs/design_config.hpp"

namespace ordo::fuzz {

enum class GuardChoice : std::uint8_t { on, off, both };

// The space drawn from. The defaults are `ordo fuzz --generate`'s; the properties draw from a
// wider one (fuzz/props/families.cpp): every design, the paper's Fig. 4 init, copied buffers and
// overlapped steps, which the switches at the end turn on.
struct GeneratorSettings {
  // Empty: every design but naive, which is unsafe by construction.
  std::vector<designs::DesignKind> designs;
  std::uint32_t layers_max = 3;  // layers of a network, 1 to this
  std::uint32_t keys_max = 3;    // keys of a network (parameters), 1 to this
  std::uint64_t count_max = 16;  // elements of a key, 1 to this (at most count_max_limit)
  // A job's rank count, one of these, uniformly (a count listed twice is drawn twice as often).
  std::vector<std::uint32_t> ranks = {2};
  // At more than two ranks a network has at most this many keys (0: keys_max): a rank multiplies
  // the checker's states far more than a key does.
  std::uint32_t keys_max_past_two_ranks = 0;
  std::uint32_t threads_max = 3;      // compute, comm (and copy) pool threads, 1 to this
  std::uint32_t ncomm_max = 3;        // concom's communicators, 1 to this
  std::uint32_t outstanding_max = 3;  // concom's keys between barriers, 1 to this
  // fused, nonblocking, sharded, hierarchical, priority: the order guard kept, left out, or
  // either, one time in two (docs/kvstore.md); a design without one always keeps it.
  GuardChoice order_guard = GuardChoice::on;
  bool init = false;          // also draw the init broadcasts before the step, one time in two
  bool fig4_init = false;     // with init: the paper's Fig. 4 broadcasts one time in two
  bool copy_buffers = false;  // the paper's copied buffers one time in two, on 1 to threads_max
                              // copy threads (designs::BufferMode::copy)
  bool overlap = false;       // two steps with no wait for all between them, one time in five
};

// Ordering faults show on keys of a few elements; the bound keeps a draw's buffers, which the
// runtime's schedules really allocate and reduce, small.
inline constexpr std::uint64_t count_max_limit = std::uint64_t{1} << 16;

// Throws std::invalid_argument, naming the setting, for a bound of 0, an empty rank list or a
// rank count of 0.
void check_settings(const GeneratorSettings& settings);

// "2 designs, up to 3 layers and 3 keys, ranks 2,3": the settings in words for the report.
std::string describe(const GeneratorSettings& settings);

// One SPMD training step: a rank count, a network, a design configuration and the step's
// options, drawn in that order. Its origin says what was drawn: "fused(comm_threads=2, ...) with
// init on 2 layer(s), 3 key(s), at 2 rank(s)".
Instance draw_design_job(Draws& draws, const GeneratorSettings& settings);

// One program per rank from the same network and base design, each rank possibly departing from
// it (one time in three not): another design, other comm or compute pool sizes, the init
// broadcasts when the others have none (or none when they have), a first key one element larger.
Instance draw_heterogeneous_job(Draws& draws, const GeneratorSettings& settings);

// Draws one job at a time from a seed, so that a long run holds one job, not all of them: the
// i-th job drawn is named "gen-00i", with its design, network and rank count in words as its
// change.
class JobDrawer {
 public:
  // Throws std::invalid_argument for bad settings (check_settings).
  JobDrawer(GeneratorSettings settings, std::uint64_t seed);
  FuzzCase next();

 private:
  GeneratorSettings settings_;
  SeededDraws draws_;
  std::uint32_t drawn_ = 0;
};

// The first `count` jobs a JobDrawer draws from `seed`.
std::vector<FuzzCase> generated_jobs(const GeneratorSettings& settings, std::uint64_t seed,
                                     std::uint32_t count);

}  // namespace ordo::fuzz
