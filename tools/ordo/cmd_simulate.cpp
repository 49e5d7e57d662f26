// `ordo simulate`: predict a design's step time and epoch time at many rank counts, from a timed
// run of its step program under the engine rules (checker/timing) with each layer's compute cost
// and an alpha-beta model of the network. The program is the one `ordo verify` checks and the
// runtime runs; only the durations are the model's.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "checker/timing/timed_run.hpp"
#include "report/fixed_text.hpp"
#include "report/plot/line_chart.hpp"
#include "runtime/errors/input_error.hpp"
#include "tools/ordo/bound_options.hpp"
#include "tools/ordo/command_clock.hpp"
#include "tools/ordo/command_guard.hpp"
#include "tools/ordo/commands.hpp"
#include "tools/ordo/job_input.hpp"
#include "tools/ordo/output.hpp"

namespace ordo::tools {

namespace {

struct SimulateCli {
  JobInput input;
  std::string compare;  // more designs, comma-separated, predicted the same way
  std::string plot;     // a PNG of epoch time against ranks, one line per design
  std::string ranks = "8,16,32,64,128,256";
  double alpha_us = 5.0;
  double gbit_per_s = 10.0;
  double forward_ms = 0.0;  // 0: the costs the network gives
  std::uint32_t batch = 32;
  std::uint64_t images = 1'281'167;  // ImageNet-1K's training set
  // hierarchical: the link within a node (its reduces and bcasts), shared memory by default.
  double node_alpha_us = 1.0;
  double node_gbit_per_s = 80.0;
  double timeout = 60.0;         // --timeout: the whole command, as for verify
  std::uint64_t memory_max = 0;  // --memory-max; 0: default_memory_max()
};

std::vector<std::uint32_t> parse_ranks(const std::string& text) {
  std::vector<std::uint32_t> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    std::size_t end = 0;
    unsigned long n = 0;
    try {
      n = std::stoul(item, &end);
    } catch (const std::exception&) {
      end = 0;
    }
    if (end != item.size() || item.empty() || n == 0 || n > (1u << 20)) {
      throw std::invalid_argument("--ranks-list: '" + item +
                                  "' is not a rank count in [1, 1048576]; expected e.g. 8,16,32");
    }
    out.push_back(static_cast<std::uint32_t>(n));
  }
  if (out.empty()) throw std::invalid_argument("--ranks-list: no rank count");
  return out;
}

// The summed cost of the forward ops: what --forward-ms scales to.
double forward_us(const dag::Job& job) {
  double sum = 0.0;
  for (const dag::Op& op : job.programs.at(0).ops) {
    if (op.kind == dag::OpKind::compute && op.name.find("fwd.") != std::string::npos) {
      sum += op.cost_us;
    }
  }
  return sum;
}

// Whether the design (none for a dump) has one of the designs' properties
// (designs::written_for_ranks, needs_node_layout, compute_shrinks_with_ranks).
bool design_is(const JobInput& input, bool (*property)(designs::DesignKind)) {
  return !input.design.empty() && property(designs::parse_design(input.design));
}

// The step at `ranks`: the same job at every count, but for a design written for its rank count,
// fitted to each (designs::fit_to_ranks). One with a node layout is timed on node 0's leader's
// program, which has every phase (timed_run.hpp), on nodes of --node-ranks.
dag::Job job_at(const JobInput& given, const dag::Job& job, std::uint32_t ranks) {
  if (!design_is(given, designs::written_for_ranks)) return job;
  const bool layout = design_is(given, designs::needs_node_layout);
  // Each count is the job's: what would fix one for all of them is refused.
  if (layout && given.config.nodes != 0) {
    throw std::invalid_argument("design " + given.design +
                                ": simulate takes the nodes from each rank count; give "
                                "--node-ranks only");
  }
  if (!layout && given.config.shards != 0) {
    throw std::invalid_argument("design " + given.design +
                                ": simulate takes the shards from each rank count; give no "
                                "--shards");
  }
  JobInput input = given;
  input.ranks = ranks;
  dag::Job all = input.load();
  if (!layout) return all;
  dag::Job leader = all;
  leader.programs = {*dag::program_of(all, 0)};
  return leader;
}

std::vector<std::string> split_names(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty()) throw std::invalid_argument("--compare: an empty design name");
    out.push_back(item);
  }
  return out;
}

// One design's table; its epoch minutes at each count go to `epoch_min`.
int simulate_design(const SimulateCli& o, const JobInput& input, CommandGuard& guard,
                    std::vector<double>& epoch_min) {
  dag::Job job;
  std::vector<std::uint32_t> counts;
  checker::timing::TimedOptions options;
  try {
    counts = parse_ranks(o.ranks);
    guard.stage("reading the input");
    // Written for its rank count: the smallest it fits, one rank or one node.
    job = design_is(input, designs::written_for_ranks)
              ? job_at(input, {},
                       design_is(input, designs::needs_node_layout)
                           ? std::max(input.config.node_ranks, 1u)
                           : 1u)
              : input.load();
    if (!std::isfinite(o.gbit_per_s) || o.gbit_per_s <= 0) {
      throw std::invalid_argument("--gbps must be a positive number");
    }
    options.link.alpha_us = o.alpha_us;
    options.link.bytes_per_us = o.gbit_per_s * 1e3 / 8.0;
    checker::timing::check_link(options.link);
    if (!std::isfinite(o.node_gbit_per_s) || o.node_gbit_per_s <= 0) {
      throw std::invalid_argument("--node-gbps must be a positive number");
    }
    options.node_link.alpha_us = o.node_alpha_us;
    options.node_link.bytes_per_us = o.node_gbit_per_s * 1e3 / 8.0;
    checker::timing::check_link(options.node_link);
    if (design_is(input, designs::needs_node_layout)) options.node_ranks = input.config.node_ranks;
    if (o.forward_ms < 0 || !std::isfinite(o.forward_ms)) {
      throw std::invalid_argument("--forward-ms must be a number of at least 0");
    }
    if (o.forward_ms > 0) {
      const double given = forward_us(job);
      if (given <= 0) {
        throw std::invalid_argument("--forward-ms: the program has no forward op with a cost");
      }
      options.compute_scale = o.forward_ms * 1e3 / given;
    }
  } catch (const errors::InputError& e) {
    std::cerr << "ordo simulate: error: " << e.what() << '\n';
    return exit_bad_input;
  } catch (const std::invalid_argument& e) {
    std::cerr << "ordo simulate: error: " << e.what() << '\n';
    return exit_bad_input;
  }
  // C: the step with free communication (one rank); M: the link's busy time at each count.
  options.ranks = 1;
  double alone_us = 0.0;
  guard.stage("timing the step");
  try {
    alone_us = checker::timing::timed_run(job, options).total_us;
  } catch (const std::exception& e) {
    std::cerr << "ordo simulate: error: " << e.what() << '\n';
    return exit_bad_input;
  }
  std::cout << "compute alone C: " << report::fixed_text(alone_us / 1e3, 1) << " ms per step"
            << (design_is(input, designs::compute_shrinks_with_ranks)
                    ? " on one rank; " + input.design + "'s shrinks with the ranks"
                    : std::string())
            << "\n\n";
  std::cout << "| ranks | step T | communication M | T / max(C, M) | images/s | epoch |\n"
            << "|---:|---:|---:|---:|---:|---:|\n"
            << std::flush;
  for (const std::uint32_t ranks : counts) {
    checker::timing::TimedResult r;
    try {
      guard.stage("building the step at a rank count");
      const dag::Job at = job_at(input, job, ranks);
      guard.stage("timing the step");
      // sharded's compute shrinks with the ranks (each updates its blocks only): C at this count.
      if (design_is(input, designs::compute_shrinks_with_ranks)) {
        options.ranks = 1;
        alone_us = checker::timing::timed_run(at, options).total_us;
      }
      options.ranks = ranks;
      r = checker::timing::timed_run(at, options);
    } catch (const std::exception& e) {
      std::cerr << "ordo simulate: error: at " << ranks << " ranks: " << e.what() << '\n';
      return exit_bad_input;
    }
    const double step_s = r.total_us / 1e6;
    const double per_s = step_s > 0 ? static_cast<double>(o.batch) * ranks / step_s : 0.0;
    const double epoch_s = per_s > 0 ? static_cast<double>(o.images) / per_s : 0.0;
    const double bound = std::max(alone_us, r.comm_us);
    using report::fixed_text;
    std::cout << "| " << ranks << " | " << fixed_text(r.total_us / 1e3, 1) << " ms | "
              << fixed_text(r.comm_us / 1e3, 1) << " ms | "
              << fixed_text(bound > 0 ? r.total_us / bound : 0.0, 2) << " | "
              << fixed_text(per_s, 0) << " | " << fixed_text(epoch_s / 60.0, 1) << " min |\n"
              << std::flush;
    epoch_min.push_back(epoch_s / 60.0);
  }
  return exit_ok;
}

std::string network_name(const JobInput& input) {
  if (!input.model.empty()) return input.model;
  if (!input.network.empty()) return input.network;
  return input.path.empty() ? "mlp" : input.path;
}

int run_simulate(const SimulateCli& o) {
  std::vector<std::string> designs{o.input.design};
  std::vector<std::uint32_t> counts;
  try {
    counts = parse_ranks(o.ranks);
    if (!o.compare.empty()) {
      if (o.input.design.empty()) throw std::invalid_argument("--compare needs --design");
      for (const std::string& d : split_names(o.compare)) {
        designs::parse_design(d);  // a bad name before any table
        designs.push_back(d);
      }
    }
  } catch (const std::invalid_argument& e) {
    std::cerr << "ordo simulate: error: " << e.what() << '\n';
    return exit_bad_input;
  }
  // The tables are printed as they are timed; should a bound stop the command, the rows above
  // are what it found, and the answer is unknown (exit 3), as verify's is.
  CommandGuard guard(command_clock(),
                     {o.timeout, o.memory_max != 0 ? o.memory_max : default_memory_max()},
                     {"ordo simulate", network_name(o.input), "", GuardFormat::text});
  guard.found_so_far([](const std::string&, double) {
    return std::optional<GuardPartial>(GuardPartial{"", exit_unknown});
  });
  plot::LineChart chart;
  chart.title = network_name(o.input) + ": predicted epoch time (ordo simulate)";
  chart.x_label = "ranks";
  chart.y_label = "epoch, minutes";
  chart.log2_x = true;
  for (const std::string& design : designs) {
    JobInput input = o.input;
    input.design = design;
    if (designs.size() > 1) {
      std::cout << (design == designs.front() ? "" : "\n") << "## " << design << "\n\n"
                << std::flush;
    }
    plot::Series series;
    series.name = design.empty() ? network_name(o.input) : design;
    if (const int code = simulate_design(o, input, guard, series.y); code != exit_ok) return code;
    for (std::uint32_t r : counts) series.x.push_back(r);
    chart.series.push_back(std::move(series));
  }
  guard.stage("drawing the plot");
  if (o.plot.empty()) return exit_ok;
  std::string png;
  try {
    png = plot::draw(chart).png();
  } catch (const std::exception& e) {
    std::cerr << "ordo simulate: error: --plot: " << e.what() << '\n';
    return exit_bad_input;
  }
  guard.stand_down();  // the file is written whole or not at all
  return write_output(o.plot, png, "simulate") ? exit_ok : exit_bad_input;
}

}  // namespace

Command add_simulate(CLI::App& app) {
  auto o = std::make_shared<SimulateCli>();
  auto paths = std::make_shared<PathOptions>();
  CLI::App* sub = app.add_subcommand(
      "simulate",
      "Predict a design's step and epoch time at many rank counts (a timed run of its "
      "step under the engine rules, with an alpha-beta network)");
  o->input.add_options(sub, *paths, "DAG dump of one program");
  paths->not_a_path(
      sub->add_option("--ranks-list", o->ranks, "rank counts to predict, comma-separated")
          ->capture_default_str());
  sub->add_option("--alpha-us", o->alpha_us, "start-up cost of one message, microseconds")
      ->capture_default_str();
  sub->add_option("--gbps", o->gbit_per_s, "link bandwidth, Gbit/s")->capture_default_str();
  sub->add_option("--node-alpha-us", o->node_alpha_us,
                  "hierarchical: start-up cost of a message within a node, microseconds")
      ->capture_default_str();
  sub->add_option("--node-gbps", o->node_gbit_per_s,
                  "hierarchical: bandwidth within a node, Gbit/s")
      ->capture_default_str();
  sub->add_option("--forward-ms", o->forward_ms,
                  "scale the layers' costs so that one forward pass takes this long (0: as given)")
      ->capture_default_str();
  sub->add_option("--batch", o->batch, "images per rank and step")
      ->check(CLI::Range(1, 1 << 20))
      ->capture_default_str();
  sub->add_option("--images", o->images, "images per epoch")->capture_default_str();
  sub->add_option("--timeout", o->timeout,
                  "seconds the whole command may take (reading, building and timing included) "
                  "before the answer is unknown; the rows printed by then stand")
      ->check(seconds_bound())
      ->capture_default_str();
  add_memory_max(sub, o->memory_max);
  paths->not_a_path(
      sub->add_option("--compare", o->compare,
                      "more designs to predict the same way, comma-separated (with --design)"));
  paths->output_file(
      sub->add_option("--plot", o->plot,
                      "write a PNG of predicted epoch time against ranks, one line per design"),
      o->plot);
  return {[o] { return run_simulate(*o); }, paths};
}

}  // namespace ordo::tools
