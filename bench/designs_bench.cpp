// The KVStore designs against raw MPI on the ranks this program is launched with (mpirun -np 2,
// -np 4): first one key's push and pull per design against MPI_Allreduce of the same bytes, then
// whole training steps whose compute and communication take comparable time, against the lower
// bound max(compute, communication). Rank 0 prints markdown tables. Results and the commands
// that produced them: docs/benchmarks.md.
#include <mpi.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/designs/one_key.hpp"
#include "bench/designs/overlap.hpp"
#include "bench/designs/small_keys.hpp"
#include "runtime/comm/mpi/runtime.hpp"

namespace {

constexpr std::uint32_t overlap_rounds = 12;  // one warm-up round, then the median of eleven
constexpr std::uint32_t small_keys_rounds = 22;

const std::vector<std::uint64_t> one_key_sizes = {4u << 10, 64u << 10, 1u << 20, 16u << 20,
                                                  64u << 20};

// What to run: every part by default, or only "one-key", "steps" or "small-keys" (the first
// argument), so
// that repeated runs of one part fit into the quiet spells of a shared machine. Options after it
// apply to one-key: --sizes=1M,16M (K or M suffixes) restricts the sizes, --wait-spin-us=N and
// --help-waits=0|1 set the engines' ThreadPoolOptions (docs/engine.md). To steps:
// --workload=NAME runs only that workload, and --timeline=FILE writes a Chrome trace of one
// design's steps of the first workload run (--timeline-design=NAME, default depcha; in place):
// docs/diagnostics.md, "Timeline". --compute-share=X makes forward and backward take X times
// the communication (default 1; below 1 the link is the bottleneck).
struct Parts {
  bool one_key = true;
  bool steps = true;
  bool small_keys = true;
  std::vector<std::uint64_t> sizes = one_key_sizes;
  ordo::engine::ThreadPoolOptions pool_options;
  std::string workload;  // empty: every workload
  std::optional<ordo::bench::OverlapTimeline> timeline;
  double compute_share = 1.0;
};

std::uint64_t parse_size(const std::string& text) {
  std::size_t end = 0;
  const std::uint64_t n = std::stoull(text, &end);
  const std::string unit = text.substr(end);
  if (unit == "K") return n << 10;
  if (unit == "M") return n << 20;
  throw std::invalid_argument("size '" + text + "' needs a K or M suffix");
}

Parts parse_parts(int argc, char** argv) {
  Parts parts;
  if (argc < 2) return parts;
  const std::string part = argv[1];
  parts.one_key = part == "one-key";
  parts.steps = part == "steps";
  parts.small_keys = part == "small-keys";
  if (!parts.one_key && !parts.steps && !parts.small_keys) {
    throw std::invalid_argument("unknown part '" + part +
                                "'; expected one-key, steps or small-keys");
  }
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    const std::size_t eq = arg.find('=');
    const std::string key = arg.substr(0, eq);
    const std::string value = eq == std::string::npos ? std::string() : arg.substr(eq + 1);
    if (key == "--sizes") {
      parts.sizes.clear();
      for (std::size_t from = 0; from <= value.size();) {
        const std::size_t comma = std::min(value.find(',', from), value.size());
        parts.sizes.push_back(parse_size(value.substr(from, comma - from)));
        from = comma + 1;
      }
    } else if (key == "--wait-spin-us") {
      parts.pool_options.wait_spin_us = static_cast<std::uint32_t>(std::stoul(value));
    } else if (key == "--help-waits") {
      parts.pool_options.help_waits = value != "0";
    } else if (key == "--workload") {
      parts.workload = value;
    } else if (key == "--timeline") {
      if (value.empty()) throw std::invalid_argument("--timeline needs =FILE");
      if (!parts.timeline) parts.timeline.emplace();
      parts.timeline->path = value;
    } else if (key == "--compute-share") {
      parts.compute_share = std::stod(value);
      if (!(parts.compute_share > 0.0 && parts.compute_share <= 100.0)) {
        throw std::invalid_argument("--compute-share must be in (0, 100], not " + value);
      }
    } else if (key == "--timeline-design") {
      if (!parts.timeline) parts.timeline.emplace();
      parts.timeline->kind = ordo::designs::parse_design(value);
    } else {
      throw std::invalid_argument("unknown option '" + arg + "'");
    }
  }
  return parts;
}

void run_one_key(const ordo::comm::MpiRuntime& runtime, const Parts& parts) {
  const bool printer = runtime.world_rank() == 0;
  if (printer) {
    std::printf("## One key: push + pull (wait for all) vs MPI_Allreduce(MPI_IN_PLACE)\n\n");
    std::printf(
        "Median over timed iterations of the slowest rank, after a barrier; in brackets "
        "the ratio raw time / variant time.\n\n");
    std::fflush(stdout);
  }
  const std::vector<ordo::bench::OneKeyRow> rows =
      ordo::bench::run_one_key(runtime, parts.sizes, parts.pool_options);
  if (printer) {
    ordo::bench::print_one_key(stdout, rows);
    std::printf("\n");
    std::fflush(stdout);
  }
}

void run_small_keys(const ordo::comm::MpiRuntime& runtime) {
  const bool printer = runtime.world_rank() == 0;
  if (printer) {
    std::printf(
        "## Small keys: one step of communication alone (%u rounds of every variant in turn; "
        "median of the rounds after the first, slowest rank)\n\n",
        small_keys_rounds);
    std::fflush(stdout);
  }
  for (const std::uint64_t key_bytes_max : {std::uint64_t{64} << 10, std::uint64_t{0}}) {
    const ordo::bench::SmallKeysResult r =
        ordo::bench::run_small_keys(runtime, key_bytes_max, small_keys_rounds);
    if (printer) {
      ordo::bench::print_small_keys(stdout, r);
      std::printf("\n");
      std::fflush(stdout);
    }
  }
}

void run_steps(const ordo::comm::MpiRuntime& runtime, const Parts& parts) {
  const bool printer = runtime.world_rank() == 0;
  if (printer) {
    std::printf(
        "## Steps: compute and communication overlapped (%u rounds of every variant in "
        "turn; median of the rounds after the first, slowest rank)\n\n",
        overlap_rounds);
    std::fflush(stdout);
  }
  const ordo::bench::OverlapTimeline* timeline =
      parts.timeline && !parts.timeline->path.empty() ? &*parts.timeline : nullptr;
  const std::vector<ordo::bench::Workload> workloads = ordo::bench::overlap_workloads();
  if (!parts.workload.empty() &&
      std::none_of(workloads.begin(), workloads.end(),
                   [&](const ordo::bench::Workload& w) { return w.name == parts.workload; })) {
    throw std::invalid_argument("unknown workload '" + parts.workload + "'");
  }
  for (const ordo::bench::Workload& w : workloads) {
    if (!parts.workload.empty() && w.name != parts.workload) continue;
    const ordo::bench::OverlapResult result =
        ordo::bench::run_overlap(runtime, w, overlap_rounds, timeline, parts.compute_share);
    if (timeline != nullptr && printer) {
      std::printf("timeline of %s: %s\n\n",
                  std::string(ordo::designs::to_string(timeline->kind)).c_str(),
                  timeline->path.c_str());
    }
    timeline = nullptr;  // the first workload's only
    if (printer) {
      ordo::bench::print_overlap(stdout, result);
      std::printf("\n");
      std::fflush(stdout);
    }
  }
}

void run(const ordo::comm::MpiRuntime& runtime, const Parts& parts) {
  if (runtime.world_rank() == 0) {
    std::printf("# KVStore designs vs raw MPI_Allreduce, %u ranks\n\n", runtime.world_size());
  }
  if (parts.one_key) run_one_key(runtime, parts);
  if (parts.steps) run_steps(runtime, parts);
  if (parts.small_keys) run_small_keys(runtime);
}

}  // namespace

int main(int argc, char** argv) {
#ifdef __linux__
  // Simulated compute sleeps its cost; with the default 50 us of timer slack every op overslept
  // by about that much, which on ResNet-50's 320 compute ops doubled the step's compute. Threads
  // inherit the slack, so this precedes the engines' workers.
  prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
#endif
  std::unique_ptr<ordo::comm::MpiRuntime> runtime;
  try {
    runtime = std::make_unique<ordo::comm::MpiRuntime>(&argc, &argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "cannot start MPI: %s\n", error.what());
    return 1;
  }
  try {
    run(*runtime, parse_parts(argc, argv));
  } catch (const std::exception& error) {
    // The other ranks are left in a collective this rank abandoned; end the whole job.
    std::fprintf(stderr, "[rank %u] %s\n", runtime->world_rank(), error.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return 0;
}
