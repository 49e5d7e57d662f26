#include "bench/designs/small_keys.hpp"

#include <functional>
#include <memory>
#include <stdexcept>

#include "bench/designs/device_steps.hpp"
#include "bench/designs/raw_allreduces.hpp"
#include "bench/designs/sync_timer.hpp"
#include "runtime/comm/mpi/world.hpp"
#include "runtime/kvstore/step_run.hpp"
#include "runtime/networks/network.hpp"

namespace ordo::bench {

namespace {

// ResNet-50's keys below the size, all parameters of one layer of no cost: its backward op
// writes every gradient at once, and the step is the keys' communication and updates alone, not
// a chain of hundreds of empty compute ops handed from thread to thread.
networks::Network resnet50_keys(std::uint64_t key_bytes_max) {
  const networks::Network full = networks::resnet50(0.0);
  networks::Network net{key_bytes_max == 0 ? "resnet50" : "resnet50-small-keys", {}};
  networks::Layer keys{"keys", {}, 0.0, 0.0, {}};
  for (const networks::Layer& layer : full.layers) {
    for (const networks::Param& p : layer.params) {
      if (key_bytes_max != 0 && p.count * dag::dtype_bytes(p.dtype) >= key_bytes_max) continue;
      keys.params.push_back(p);
    }
  }
  net.layers.push_back(std::move(keys));
  networks::check_network(net);
  return net;
}

std::vector<designs::DesignConfig> small_keys_designs() {
  designs::DesignConfig depcha;
  depcha.kind = designs::DesignKind::depcha;
  designs::DesignConfig nonblocking;
  nonblocking.kind = designs::DesignKind::nonblocking;
  std::vector<designs::DesignConfig> out{depcha, nonblocking};
  for (const std::uint64_t bucket :
       {std::uint64_t{256} << 10, std::uint64_t{1} << 20, std::uint64_t{25} << 20}) {
    designs::DesignConfig fused;
    fused.kind = designs::DesignKind::fused;
    fused.bucket_bytes = bucket;
    out.push_back(fused);
  }
  return out;
}

}  // namespace

SmallKeysResult run_small_keys(const comm::MpiRuntime& runtime, std::uint64_t key_bytes_max,
                               std::uint32_t rounds) {
  const networks::Network net = resnet50_keys(key_bytes_max);
  SmallKeysResult result;
  result.workload = net.name;
  result.keys = networks::param_count(net);
  result.bytes = networks::param_bytes(net);

  RawAllreduces per_key(runtime, net);
  RawAllreduces at_once(runtime, net, /*fused=*/true);
  std::vector<std::string> names = {"MPI_Allreduce per key", "one MPI_Allreduce of all keys"};
  std::vector<std::function<void()>> variants = {[&] { per_key.run(); }, [&] { at_once.run(); }};
  std::vector<std::unique_ptr<comm::MpiWorld>> worlds;
  std::vector<std::unique_ptr<DeviceSteps>> steps;
  for (const designs::DesignConfig& config : small_keys_designs()) {
    worlds.push_back(std::make_unique<comm::MpiWorld>(runtime, designs::step_comms(config)));
    steps.push_back(std::make_unique<DeviceSteps>(net, config, *worlds.back(), nullptr, 0.0));
    names.push_back(designs::describe(config));
    DeviceSteps* d = steps.back().get();
    variants.emplace_back([d] { d->step(); });
  }
  const std::vector<double> medians = medians_in_turn(variants, rounds);
  for (std::size_t v = 0; v < variants.size(); ++v) {
    SmallKeysRow row{names[v], medians[v], 0, 0};
    if (v >= 2) {
      const designs::DesignConfig config = small_keys_designs()[v - 2];
      const kvstore::StepRunResult checked =
          kvstore::run_steps(net, config, *worlds[v - 2], checked_steps());
      row.keys_wrong = sum_over_ranks(MPI_COMM_WORLD, checked.keys_wrong);
      row.keys_checked = sum_over_ranks(MPI_COMM_WORLD, checked.keys_checked);
    }
    result.rows.push_back(row);
  }
  return result;
}

void print_small_keys(std::FILE* out, const SmallKeysResult& r) {
  std::fprintf(out, "%s: %llu keys, %.1f KiB of f32 gradients, no compute\n\n", r.workload.c_str(),
               static_cast<unsigned long long>(r.keys), static_cast<double>(r.bytes) / 1024.0);
  std::fprintf(out,
               "| variant | median step T | effective bandwidth | per-key MPI T / T | "
               "one-allreduce T / T | sums wrong (run_steps) |\n");
  std::fprintf(out, "|---|---:|---:|---:|---:|---:|\n");
  const double per_key = r.rows.at(0).step_s;
  const double at_once = r.rows.at(1).step_s;
  for (const SmallKeysRow& row : r.rows) {
    const double mb_per_s = static_cast<double>(r.bytes) / row.step_s / 1e6;
    std::fprintf(out, "| %s | %.3f ms | %.0f MB/s | %.2f | %.2f | ", row.variant.c_str(),
                 row.step_s * 1e3, mb_per_s, per_key / row.step_s, at_once / row.step_s);
    if (row.keys_checked == 0) {
      std::fprintf(out, "- |\n");
    } else {
      std::fprintf(out, "%llu of %llu |\n", static_cast<unsigned long long>(row.keys_wrong),
                   static_cast<unsigned long long>(row.keys_checked));
    }
  }
}

}  // namespace ordo::bench
