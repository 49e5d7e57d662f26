// Time to verdict of `ordo verify` (checker::verify: the symbolic stage, explicit search where it
// does not decide, witness shortening) on the ResNet-50 training step of every KVStore design at
// 2 to 1024 ranks; the goal is at most 1 s each. A timing program rather than a Google Benchmark:
// each verification is one measurement, and the table says what was decided and how.
// Run: build/release/bench/ordo_verify_resnet_bench
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "checker/system/system.hpp"
#include "checker/verify/verify.hpp"
#include "runtime/designs/step_builder.hpp"
#include "runtime/networks/network.hpp"

namespace ordo::checker {
namespace {

designs::DesignConfig design(designs::DesignKind kind) {
  designs::DesignConfig config;
  config.kind = kind;
  return config;
}

std::string verdict(const Verification& v) {
  std::string s(to_string(v.result.verdict));
  if (v.result.verdict == Verdict::safe && v.every_rank_count) s += " (every N)";
  if (v.result.property) s += " (" + std::string(to_string(*v.result.property)) + ")";
  return s;
}

int run() {
  const networks::Network network = networks::resnet50(100'000.0);
  const std::vector<std::uint32_t> rank_counts{2, 8, 64, 256, 1024};
  // The four designs as configured by default, then concom's two other configurations: one
  // communicator for two outstanding keys (unsafe), and one comm thread for two communicators
  // (safe only through FIFO dispatch, which the symbolic stage does not model).
  designs::DesignConfig one_comm = design(designs::DesignKind::concom);
  one_comm.ncomm = 1;
  designs::DesignConfig one_thread = design(designs::DesignKind::concom);
  one_thread.comm_threads = 1;
  const std::vector<designs::DesignConfig> configs{design(designs::DesignKind::naive),
                                                   design(designs::DesignKind::funnel),
                                                   design(designs::DesignKind::concom),
                                                   design(designs::DesignKind::depcha),
                                                   one_comm,
                                                   one_thread};
  VerifyOptions options;
  options.limits.seconds_max = 30.0;
  std::printf("%-50s %6s %-30s %-9s %8s %8s\n", "design", "ranks", "verdict", "method", "seconds",
              "witness");
  for (const designs::DesignConfig& config : configs) {
    const dag::Job job = designs::build_step_job(network, config, {});
    for (std::uint32_t ranks : rank_counts) {
      const System model(job, ranks);
      const Verification v = verify(model, options);
      std::printf("%-50s %6u %-30s %-9s %8.3f %8zu\n", designs::describe(config).c_str(), ranks,
                  verdict(v).c_str(), std::string(to_string(v.decided_by)).c_str(), v.seconds,
                  v.result.witness.size());
      std::fflush(stdout);
    }
  }
  return 0;
}

}  // namespace
}  // namespace ordo::checker

int main() { return ordo::checker::run(); }
