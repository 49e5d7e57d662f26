#include "fuzz/lib/generated_jobs.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <stdexcept>

#include "runtime/designs/step_builder.hpp"
#include "runtime/networks/network.hpp"
#include "runtime/random/split_mix64.hpp"

namespace ordo::fuzz {

namespace {

constexpr std::array<dag::DType, 4> grad_dtypes{dag::DType::f32, dag::DType::f16, dag::DType::f64,
                                                dag::DType::bf16};

constexpr std::array<designs::DesignKind, 8> default_designs{
    designs::DesignKind::funnel,      designs::DesignKind::concom,
    designs::DesignKind::depcha,      designs::DesignKind::fused,
    designs::DesignKind::nonblocking, designs::DesignKind::sharded,
    designs::DesignKind::hierarchical, designs::DesignKind::priority};

// In [1, max].
std::uint64_t one_to(random::SplitMix64& rng, std::uint64_t max) { return 1 + rng.below(max); }

template <typename T>
const T& pick(random::SplitMix64& rng, const std::vector<T>& from) {
  return from[rng.below(from.size())];
}

// Each layer reads the input or one or two earlier layers (a chain, a branch, a join, a skip
// connection); the keys go to random layers, every network keeping at least one.
networks::Network random_network(random::SplitMix64& rng, const GeneratorSettings& s) {
  networks::Network net{"generated", {}};
  const std::uint64_t layers = one_to(rng, s.layers_max);
  for (std::uint64_t i = 0; i < layers; ++i) {
    networks::Layer layer;
    layer.name = "l" + std::to_string(i);
    layer.forward_us = static_cast<double>(rng.below(200));
    layer.backward_us = static_cast<double>(rng.below(200));
    if (i > 0) {
      // Mostly the previous layer; now and then the input, a skip, or a join of two.
      const std::uint64_t shape = rng.below(6);
      if (shape == 0) {
        // the network input: a branch
      } else if (shape == 1) {
        layer.inputs.push_back(static_cast<std::uint32_t>(rng.below(i)));
      } else if (shape == 2 && i >= 2) {
        const auto a = static_cast<std::uint32_t>(rng.below(i));
        const auto b = static_cast<std::uint32_t>(rng.below(i));
        layer.inputs.push_back(std::min(a, b));
        if (a != b) layer.inputs.push_back(std::max(a, b));
      } else {
        layer.inputs.push_back(static_cast<std::uint32_t>(i - 1));
      }
    }
    net.layers.push_back(std::move(layer));
  }
  const std::uint64_t keys = one_to(rng, s.keys_max);
  for (std::uint64_t k = 0; k < keys; ++k) {
    networks::Layer& layer = net.layers[rng.below(net.layers.size())];
    layer.params.push_back({layer.name + ".p" + std::to_string(layer.params.size()),
                            one_to(rng, s.count_max), grad_dtypes[rng.below(grad_dtypes.size())]});
  }
  networks::check_network(net);
  return net;
}

designs::DesignConfig random_config(random::SplitMix64& rng, const GeneratorSettings& s,
                                    std::uint32_t ranks) {
  designs::DesignConfig c;
  c.kind = s.designs.empty() ? default_designs[rng.below(default_designs.size())]
                             : pick(rng, s.designs);
  c.compute_threads = static_cast<std::uint32_t>(one_to(rng, s.threads_max));
  c.comm_threads = static_cast<std::uint32_t>(one_to(rng, s.threads_max));
  c.ncomm = static_cast<std::uint32_t>(one_to(rng, s.ncomm_max));
  c.outstanding = static_cast<std::uint32_t>(one_to(rng, s.outstanding_max));
  // Buckets of one key each up to all of them; slices of one element up to whole keys.
  const std::vector<std::uint64_t> buckets{1, 16, 64, std::uint64_t{1} << 20};
  const std::vector<std::uint64_t> slices{4, 16, std::uint64_t{1} << 20};
  c.bucket_bytes = pick(rng, buckets);
  c.slice_bytes = pick(rng, slices);
  c.credit_bytes = pick(rng, slices);
  if (designs::has_order_guard(c.kind)) {
    c.order_guard = s.order_guard == GuardChoice::on    ? true
                    : s.order_guard == GuardChoice::off ? false
                                                        : rng.below(2) == 0;
  }
  // sharded's and hierarchical's programs are written for their rank count: two nodes when the
  // count is even, else one node of every rank.
  c.shards = ranks;
  c.nodes = ranks % 2 == 0 ? 2 : 1;
  c.node_ranks = ranks / c.nodes;
  return c;
}

std::string three_digits(std::uint32_t n) {
  char text[16];
  std::snprintf(text, sizeof text, "%03u", n);
  return text;
}

}  // namespace

void check_settings(const GeneratorSettings& s) {
  const auto positive = [](std::uint64_t value, const char* option) {
    if (value == 0) {
      throw std::invalid_argument(std::string(option) + " is 0; expected at least 1");
    }
  };
  positive(s.layers_max, "--gen-layers");
  positive(s.keys_max, "--gen-keys");
  positive(s.count_max, "--gen-count");
  positive(s.threads_max, "--gen-threads");
  positive(s.ncomm_max, "--gen-ncomm");
  positive(s.outstanding_max, "--gen-outstanding");
  if (s.count_max > count_max_limit) {
    throw std::invalid_argument("--gen-count " + std::to_string(s.count_max) +
                                " is above the limit; expected at most " +
                                std::to_string(count_max_limit) + " elements");
  }
  if (s.ranks.empty()) throw std::invalid_argument("--gen-ranks is empty; expected rank counts");
  for (const std::uint32_t r : s.ranks) positive(r, "a rank count of --gen-ranks");
}

JobDrawer::JobDrawer(GeneratorSettings settings, std::uint64_t seed)
    : settings_(std::move(settings)), rng_(seed) {
  check_settings(settings_);
}

FuzzCase JobDrawer::next() {
  const std::uint32_t ranks = pick(rng_, settings_.ranks);
  const networks::Network network = random_network(rng_, settings_);
  const designs::DesignConfig config = random_config(rng_, settings_, ranks);
  designs::StepOptions step;
  step.include_init = settings_.init && rng_.below(2) == 0;
  FuzzCase c;
  c.name = "gen-" + three_digits(++drawn_);
  c.change = designs::describe(config) + (step.include_init ? " with init" : "") + " on " +
             std::to_string(network.layers.size()) + " layer(s), " +
             std::to_string(networks::param_count(network)) + " key(s), at " +
             std::to_string(ranks) + " rank(s)";
  c.job = designs::build_step_job(network, config, step);
  c.ranks = ranks;
  return c;
}

std::vector<FuzzCase> generated_jobs(const GeneratorSettings& settings, std::uint64_t seed,
                                     std::uint32_t count) {
  JobDrawer drawer(settings, seed);
  std::vector<FuzzCase> cases;
  for (std::uint32_t i = 0; i < count; ++i) cases.push_back(drawer.next());
  return cases;
}

std::string describe(const GeneratorSettings& s) {
  std::string designs;
  if (s.designs.empty()) {
    designs = "every design but naive";
  } else {
    for (const designs::DesignKind kind : s.designs) {
      designs += (designs.empty() ? "" : ",") + std::string(designs::to_string(kind));
    }
  }
  std::string ranks;
  for (const std::uint32_t r : s.ranks) ranks += (ranks.empty() ? "" : ",") + std::to_string(r);
  return "random jobs (" + designs + "; up to " + std::to_string(s.layers_max) + " layers, " +
         std::to_string(s.keys_max) + " keys of up to " + std::to_string(s.count_max) +
         " elements; ranks " + ranks + ")";
}

}  // namespace ordo::fuzz
