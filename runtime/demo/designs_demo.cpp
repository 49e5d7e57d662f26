#include "runtime/demo/designs_demo.hpp"

#include <algorithm>
#include <iomanip>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <thread>

#include "runtime/comm/sim/sim_world.hpp"
#include "runtime/kvstore/step_run.hpp"

namespace ordo::demo {

namespace {

double mean_after_first(const std::vector<double>& ms) {
  if (ms.size() < 2) return ms.empty() ? 0.0 : ms.front();
  double sum = 0.0;
  for (std::size_t i = 1; i < ms.size(); ++i) sum += ms[i];
  return sum / static_cast<double>(ms.size() - 1);
}

kvstore::StepRunOptions step_options(const DesignsDemoOptions& o) {
  kvstore::StepRunOptions s;
  s.steps = o.steps;
  s.include_init = true;
  s.compute_time_scale = o.compute_time_scale;
  return s;
}

}  // namespace

std::vector<designs::DesignConfig> demo_designs(std::uint32_t ranks) {
  std::vector<designs::DesignConfig> designs;
  for (designs::DesignKind k :
       {designs::DesignKind::naive, designs::DesignKind::funnel, designs::DesignKind::concom,
        designs::DesignKind::depcha, designs::DesignKind::fused, designs::DesignKind::nonblocking,
        designs::DesignKind::sharded, designs::DesignKind::hierarchical,
        designs::DesignKind::priority}) {
    designs::DesignConfig c;
    c.kind = k;
    c.shards = ranks;
    // hierarchical: two nodes of consecutive ranks where the count is even, else one node.
    c.nodes = ranks % 2 == 0 ? 2 : 1;
    c.node_ranks = ranks / c.nodes;
    if (k == designs::DesignKind::concom) c.comm_threads = 1;
    designs.push_back(c);
  }
  return designs;
}

std::vector<DesignRow> run_designs_simulated(std::uint32_t ranks, const DesignsDemoOptions& o) {
  std::vector<DesignRow> rows;
  for (const designs::DesignConfig& config : demo_designs(ranks)) {
    comm::sim::SimWorld world(ranks, designs::step_comms(config));
    world.start_watchdog(std::chrono::milliseconds(20));
    std::vector<kvstore::StepRunResult> results(ranks);
    std::vector<std::string> errors(ranks);
    std::vector<std::thread> threads;
    for (dag::Rank r = 0; r < ranks; ++r) {
      threads.emplace_back([&, r] {
        try {
          results[r] =
              kvstore::run_steps(o.network, config, world.rank(r), step_options(o), &world);
        } catch (const std::exception& e) {
          errors[r] = e.what();
        }
      });
    }
    for (std::thread& t : threads) t.join();
    DesignRow row{config, ranks, 0.0, true, true, {}};
    for (dag::Rank r = 0; r < ranks; ++r) {
      if (!errors[r].empty() && row.failure.empty()) {
        row.failure = world.violation() ? comm::describe(*world.violation()) : errors[r];
      }
      row.step_ms_mean = std::max(row.step_ms_mean, mean_after_first(results[r].step_ms));
      row.gradients_exact = row.gradients_exact && errors[r].empty() &&
                            results[r].keys_wrong == 0 && results[r].keys_checked > 0;
      row.weights_broadcast = row.weights_broadcast && results[r].weights_initialised;
    }
    rows.push_back(row);
  }
  return rows;
}

DesignRow run_design_on(comm::World& world, const designs::DesignConfig& config,
                        const DesignsDemoOptions& o) {
  DesignRow row{config, world.size(), 0.0, false, false, {}};
  try {
    const kvstore::StepRunResult r = kvstore::run_steps(o.network, config, world, step_options(o));
    row.step_ms_mean = mean_after_first(r.step_ms);
    row.gradients_exact = r.keys_wrong == 0 && r.keys_checked > 0;
    row.weights_broadcast = r.weights_initialised;
  } catch (const std::exception& e) {
    row.failure = e.what();
  }
  return row;
}

void print_rows(std::ostream& out, const std::string& title, const std::vector<DesignRow>& rows) {
  out << title << '\n';
  for (const DesignRow& r : rows) {
    out << "  " << std::left << std::setw(50) << designs::describe(r.config);
    if (!r.failure.empty()) {
      out << "FAILED\n";
      std::istringstream lines(r.failure);
      for (std::string line; std::getline(lines, line);) out << "    " << line << '\n';
      continue;
    }
    out << std::fixed << std::setprecision(1) << std::right << std::setw(8) << r.step_ms_mean
        << " ms/step   gradients exact: " << (r.gradients_exact ? "yes" : "NO")
        << "   weights broadcast: " << (r.weights_broadcast ? "yes" : "NO") << '\n';
    out.unsetf(std::ios::fixed);
  }
}

bool rows_ok(const std::vector<DesignRow>& rows) {
  return std::all_of(rows.begin(), rows.end(), [](const DesignRow& r) {
    return r.failure.empty() && r.gradients_exact && r.weights_broadcast;
  });
}

}  // namespace ordo::demo
