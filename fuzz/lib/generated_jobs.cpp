#include "fuzz/lib/generated_jobs.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <stdexcept>

#include "runtime/designs/step_builder.hpp"
#include "runtime/networks/network.hpp"

namespace ordo::fuzz {

namespace {

using designs::DesignKind;

constexpr std::array<dag::DType, 4> grad_dtypes{dag::DType::f32, dag::DType::f16, dag::DType::f64,
                                                dag::DType::bf16};

constexpr std::array<DesignKind, 8> default_designs{
    DesignKind::funnel,      DesignKind::concom,  DesignKind::depcha,       DesignKind::fused,
    DesignKind::nonblocking, DesignKind::sharded, DesignKind::hierarchical, DesignKind::priority};

// fused: buckets of one key each, of a few keys, or of all of them (up to DDP's 25 MiB).
constexpr std::array<std::uint64_t, 6> bucket_bytes{
    1, 16, 64, 1024, std::uint64_t{1} << 20, std::uint64_t{25} << 20};
// priority: slices of one element up to whole keys, released one at a time or all at once.
constexpr std::array<std::uint64_t, 4> slice_bytes{4, 8, 16, std::uint64_t{1} << 20};
constexpr std::array<std::uint64_t, 3> credit_bytes{4, 16, std::uint64_t{1} << 20};

std::vector<DesignKind> design_kinds(const GeneratorSettings& s) {
  if (!s.designs.empty()) return s.designs;
  return {default_designs.begin(), default_designs.end()};
}

// In [1, max].
std::uint32_t one_to(Draws& d, std::uint64_t max) {
  return static_cast<std::uint32_t>(d.between(1, max));
}

// Each layer reads the input or one or two earlier layers (a chain, a branch, a join, a skip
// connection); the keys go to random layers, every network keeping at least one.
networks::Network draw_network(Draws& d, const GeneratorSettings& s, std::uint32_t keys_max) {
  networks::Network net{"generated", {}};
  const std::uint64_t layers = one_to(d, s.layers_max);
  for (std::uint64_t i = 0; i < layers; ++i) {
    networks::Layer layer;
    layer.name = "l" + std::to_string(i);
    layer.forward_us = static_cast<double>(d.below(200));
    layer.backward_us = static_cast<double>(d.below(200));
    if (i > 0) {
      // Mostly the previous layer; now and then the input, a skip, or a join of two.
      const std::uint64_t shape = d.below(6);
      if (shape == 0) {
        // the network input: a branch
      } else if (shape == 1) {
        layer.inputs.push_back(static_cast<std::uint32_t>(d.below(i)));
      } else if (shape == 2 && i >= 2) {
        const auto a = static_cast<std::uint32_t>(d.below(i));
        const auto b = static_cast<std::uint32_t>(d.below(i));
        layer.inputs.push_back(std::min(a, b));
        if (a != b) layer.inputs.push_back(std::max(a, b));
      } else {
        layer.inputs.push_back(static_cast<std::uint32_t>(i - 1));
      }
    }
    net.layers.push_back(std::move(layer));
  }
  const std::uint64_t keys = one_to(d, keys_max);
  for (std::uint64_t k = 0; k < keys; ++k) {
    networks::Layer& layer = net.layers[d.below(net.layers.size())];
    layer.params.push_back({layer.name + ".p" + std::to_string(layer.params.size()),
                            one_to(d, s.count_max), d.pick(grad_dtypes)});
  }
  networks::check_network(net);
  return net;
}

// sharded's and hierarchical's programs are written for their rank count: two nodes when the
// count is even (of one rank each at two ranks), else one node of every rank.
void lay_out(designs::DesignConfig& c, std::uint32_t ranks) {
  c.shards = ranks;
  c.nodes = ranks % 2 == 0 ? 2 : 1;
  c.node_ranks = ranks / c.nodes;
}

designs::DesignConfig draw_config(Draws& d, const GeneratorSettings& s, std::uint32_t ranks) {
  designs::DesignConfig c;
  c.kind = d.pick(design_kinds(s));
  c.compute_threads = one_to(d, s.threads_max);
  c.comm_threads = one_to(d, s.threads_max);
  c.ncomm = one_to(d, s.ncomm_max);
  c.outstanding = one_to(d, s.outstanding_max);
  c.bucket_bytes = d.pick(bucket_bytes);
  c.slice_bytes = d.pick(slice_bytes);
  c.credit_bytes = d.pick(credit_bytes);
  if (designs::has_order_guard(c.kind)) {
    c.order_guard = s.order_guard == GuardChoice::on    ? true
                    : s.order_guard == GuardChoice::off ? false
                                                        : !d.one_in(2);
  }
  if (s.copy_buffers && d.one_in(2)) {
    c.buffers = designs::BufferMode::copy;
    c.copy_threads = one_to(d, s.threads_max);
  }
  lay_out(c, ranks);
  return c;
}

designs::StepOptions draw_step_options(Draws& d, const GeneratorSettings& s,
                                       designs::DesignConfig& c) {
  designs::StepOptions step;
  step.include_init = s.init && d.one_in(2);
  if (step.include_init && s.fig4_init && d.one_in(2)) c.init = designs::InitKind::fig4;
  if (s.overlap && d.one_in(5)) {
    step.steps = 2;
    step.overlap = true;
  }
  return step;
}

std::uint32_t keys_max_at(const GeneratorSettings& s, std::uint32_t ranks) {
  if (ranks <= 2 || s.keys_max_past_two_ranks == 0) return s.keys_max;
  return std::min(s.keys_max, s.keys_max_past_two_ranks);
}

// What every job is drawn from, in this order: a rank count, a network, a design configuration
// and the step's options.
struct Step {
  std::uint32_t ranks = 2;
  networks::Network network;
  designs::DesignConfig config;
  designs::StepOptions options;
};

Step draw_step_job(Draws& d, const GeneratorSettings& s) {
  Step step;
  step.ranks = d.pick(s.ranks);
  step.network = draw_network(d, s, keys_max_at(s, step.ranks));
  step.config = draw_config(d, s, step.ranks);
  step.options = draw_step_options(d, s, step.config);
  return step;
}

std::string describe(const designs::DesignConfig& c, const designs::StepOptions& step) {
  return designs::describe(c) + (step.include_init ? " with init" : "") +
         (step.overlap ? ", " + std::to_string(step.steps) + " overlapped steps" : "");
}

std::string network_words(const networks::Network& network, std::uint32_t ranks) {
  return " on " + std::to_string(network.layers.size()) + " layer(s), " +
         std::to_string(networks::param_count(network)) + " key(s), at " + std::to_string(ranks) +
         " rank(s)";
}

// How one rank of a heterogeneous job departs from the job's design; zeros keep it.
struct Departure {
  std::uint32_t design = 0;           // 1 + an index into the designs: another design
  std::uint32_t comm_threads = 0;     // another comm pool size
  std::uint32_t compute_threads = 0;  // another compute pool size
  bool flip_init = false;             // the init broadcasts when the others have none, or none
  bool larger_first_key = false;      // this rank's first key has one element more
};

// Mostly none, so that heterogeneous jobs are not all trivially unsafe.
Departure draw_departure(Draws& d, const GeneratorSettings& s, std::size_t kinds) {
  Departure p;
  if (d.weighted({1, 2}) == 0) return p;
  // Each way only now and then: another design nearly always mismatches, so a draw of every way
  // at once left a safe job only where every rank departed in nothing (a ninth at two ranks), and
  // the jobs that are safe though their programs differ (other pool sizes) rare.
  if (d.one_in(3)) p.design = static_cast<std::uint32_t>(d.below(kinds + 1));
  if (d.one_in(2)) p.comm_threads = static_cast<std::uint32_t>(d.below(s.threads_max + 1));
  if (d.one_in(2)) p.compute_threads = static_cast<std::uint32_t>(d.below(s.threads_max + 1));
  p.flip_init = d.one_in(5);
  p.larger_first_key = d.one_in(5);
  return p;
}

networks::Network with_first_key_larger(networks::Network network) {
  for (networks::Layer& layer : network.layers) {
    if (!layer.params.empty()) {
      ++layer.params.front().count;
      break;
    }
  }
  return network;
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

std::string describe(const GeneratorSettings& s) {
  std::string designs;
  if (s.designs.empty()) {
    designs = "every design but naive";
  } else {
    for (const DesignKind kind : s.designs) {
      designs += (designs.empty() ? "" : ",") + std::string(designs::to_string(kind));
    }
  }
  std::string ranks;
  for (const std::uint32_t r : s.ranks) ranks += (ranks.empty() ? "" : ",") + std::to_string(r);
  return "random jobs (" + designs + "; up to " + std::to_string(s.layers_max) + " layers, " +
         std::to_string(s.keys_max) + " keys of up to " + std::to_string(s.count_max) +
         " elements; ranks " + ranks + ")";
}

Instance draw_design_job(Draws& d, const GeneratorSettings& s) {
  const Step step = draw_step_job(d, s);
  Instance instance;
  instance.ranks = step.ranks;
  instance.origin = describe(step.config, step.options) + network_words(step.network, step.ranks);
  instance.job = designs::build_step_job(step.network, step.config, step.options);
  return instance;
}

Instance draw_heterogeneous_job(Draws& d, const GeneratorSettings& s) {
  const Step base = draw_step_job(d, s);
  const networks::Network& network = base.network;
  Instance instance;
  instance.ranks = base.ranks;
  const std::vector<DesignKind> kinds = design_kinds(s);
  std::vector<Departure> departures;
  std::vector<designs::DesignConfig> configs;
  std::vector<designs::StepOptions> steps;
  for (dag::Rank r = 0; r < instance.ranks; ++r) {
    const Departure p = draw_departure(d, s, kinds.size());
    designs::DesignConfig c = base.config;
    designs::StepOptions step = base.options;
    if (p.design > 0) {
      c.kind = kinds[p.design - 1];
      if (!designs::has_order_guard(c.kind)) c.order_guard = true;
    }
    if (p.comm_threads > 0) c.comm_threads = p.comm_threads;
    if (p.compute_threads > 0) c.compute_threads = p.compute_threads;
    if (p.flip_init) step.include_init = !step.include_init;
    departures.push_back(p);
    configs.push_back(c);
    steps.push_back(step);
  }
  // Communicator ids are positional (world, then concom's comm0, comm1, ... or hierarchical's
  // node0, node1, ..., leaders), so the longest table serves every rank's program; but concom's
  // comm0 spans every rank and hierarchical's node0 does not, and a job naming both is invalid,
  // so beside hierarchical a rank departs to depcha rather than concom.
  const auto is = [&](DesignKind kind) {
    return std::any_of(configs.begin(), configs.end(),
                       [&](const designs::DesignConfig& c) { return c.kind == kind; });
  };
  if (is(DesignKind::hierarchical) && is(DesignKind::concom)) {
    for (designs::DesignConfig& c : configs) {
      if (c.kind == DesignKind::concom) c.kind = DesignKind::depcha;
    }
  }
  instance.origin = "heterogeneous" + network_words(network, instance.ranks);
  instance.job.ranks = instance.ranks;
  for (dag::Rank r = 0; r < instance.ranks; ++r) {
    const networks::Network own_network =
        departures[r].larger_first_key ? with_first_key_larger(network) : network;
    dag::Job own = designs::build_step_job(own_network, configs[r], steps[r]);
    if (own.comms.size() > instance.job.comms.size()) instance.job.comms = own.comms;
    // hierarchical has a program per role; every other design one for all ranks.
    const dag::Program* mine = dag::program_of(own, r);
    if (mine == nullptr) throw std::logic_error("no program of rank " + std::to_string(r));
    dag::Program program = *mine;
    program.name = "rank" + std::to_string(r) + "." + program.name;
    program.ranks = std::vector<dag::Rank>{r};
    instance.job.programs.push_back(std::move(program));
    instance.origin += ", rank " + std::to_string(r) + " " + describe(configs[r], steps[r]);
    if (departures[r].larger_first_key) instance.origin += " (first key larger)";
  }
  return instance;
}

JobDrawer::JobDrawer(GeneratorSettings settings, std::uint64_t seed)
    : settings_(std::move(settings)), draws_(seed) {
  check_settings(settings_);
}

FuzzCase JobDrawer::next() {
  Instance drawn = draw_design_job(draws_, settings_);
  return FuzzCase{"gen-" + three_digits(++drawn_), std::move(drawn.origin), std::move(drawn.job),
                  drawn.ranks};
}

std::vector<FuzzCase> generated_jobs(const GeneratorSettings& settings, std::uint64_t seed,
                                     std::uint32_t count) {
  JobDrawer drawer(settings, seed);
  std::vector<FuzzCase> cases;
  for (std::uint32_t i = 0; i < count; ++i) cases.push_back(drawer.next());
  return cases;
}

}  // namespace ordo::fuzz
