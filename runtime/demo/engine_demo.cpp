#include "runtime/demo/engine_demo.hpp"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <chrono>
#include <memory>
#include <ostream>
#include <string>

#include "runtime/dag/dump_reader.hpp"
#include "runtime/dag/dump_writer.hpp"
#include "runtime/dag/validate.hpp"
#include "runtime/engine/engine.hpp"
#include "runtime/engine/thread_pool_scheduler.hpp"

namespace ordo::demo {

namespace {

constexpr dag::PoolId compute_pool = 0;
constexpr dag::PoolId update_pool = 1;

// Counts op functions running at once, to show that the engine really overlaps them.
struct Concurrency {
  std::atomic<std::uint32_t> now{0};
  std::atomic<std::uint32_t> max{0};
  std::atomic<std::uint64_t> total{0};
  void enter() {
    const std::uint32_t n = now.fetch_add(1) + 1;
    std::uint32_t seen = max.load();
    while (n > seen && !max.compare_exchange_weak(seen, n)) {
    }
    total.fetch_add(1);
  }
  void leave() { now.fetch_sub(1); }
};

engine::EngineConfig engine_config(const DemoOptions& options) {
  engine::EngineConfig config;
  config.pools = {{"compute", options.compute_threads, dag::PoolKind::fifo},
                  {"update", 1, dag::PoolKind::fifo}};
  config.record = true;
  config.program_name = "mlp_sgd";
  return config;
}

void submit_step(engine::Engine& eng, const std::vector<engine::VarHandle>& vars,
               const std::vector<MlpOp>& ops, std::uint32_t step, MlpModel& model,
               Concurrency& running) {
  for (const MlpOp& op : ops) {
    engine::OpDesc desc;
    desc.name = "s" + std::to_string(step + 1) + "." + op.name;
    for (std::uint32_t t : op.reads) desc.reads.push_back(vars.at(t));
    for (std::uint32_t t : op.writes) desc.writes.push_back(vars.at(t));
    desc.pool = op.update ? update_pool : compute_pool;
    desc.kind = dag::OpKind::compute;
    eng.submit(desc, [&op, &model, &running] {
      running.enter();
      op.run(model);
      running.leave();
    });
  }
}

bool dump_round_trips(const dag::Job& job) {
  try {
    return dag::read_dump(dag::write_dump(job)) == job;
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace

DemoReport run_engine_demo(const DemoOptions& options) {
  assert(options.steps >= 1 && options.compute_threads >= 1);
  DemoReport report;
  report.options = options;
  const std::vector<MlpOp> ops = step_ops(options.shape);
  MlpModel model = make_model(options.shape, options.seed);
  MlpModel reference = model;
  Concurrency running;
  {
    engine::Engine eng(engine_config(options), std::make_unique<engine::ThreadPoolScheduler>());
    std::vector<engine::VarHandle> vars;
    for (std::size_t i = 0; i < model.tensors.size(); ++i) {
      const auto bytes = static_cast<std::uint64_t>(model.tensors[i].size() * sizeof(float));
      vars.push_back(eng.new_var({model.names[i], dag::VarKind::tensor, bytes, dag::DType::f32}));
    }
    for (std::uint32_t step = 0; step < options.steps; ++step) {
      const auto start = std::chrono::steady_clock::now();
      submit_step(eng, vars, ops, step, model, running);
      eng.wait_for_all();
      const std::chrono::duration<double, std::milli> wall = std::chrono::steady_clock::now() - start;
      report.steps.push_back({model.loss, wall.count()});
    }
    report.recorded = eng.recorded_job();
  }
  for (std::uint32_t step = 0; step < options.steps; ++step) {
    for (const MlpOp& op : ops) op.run(reference);
  }
  report.ops_run = running.total.load();
  report.ops_concurrent_max = running.max.load();
  report.weights_match_reference = model.tensors == reference.tensors && model.loss == reference.loss;
  report.recorded_diagnostics = dag::validate(report.recorded).size();
  report.dump_round_trips = dump_round_trips(report.recorded);
  return report;
}

bool demo_succeeded(const DemoReport& report) {
  return report.weights_match_reference && report.recorded_diagnostics == 0 &&
         report.dump_round_trips;
}

void print_report(std::ostream& out, const DemoReport& r) {
  const DemoOptions& o = r.options;
  out << "ordo demo: " << o.shape.layers << "-layer MLP, width " << o.shape.width << ", batch "
      << o.shape.batch << ", " << o.steps << " SGD steps on the dependency engine\n";
  out << "pools: compute (" << o.compute_threads << " threads, fifo), update (1 thread, fifo)\n";
  for (std::size_t i = 0; i < r.steps.size(); ++i) {
    out << "  step " << i + 1 << ": loss " << r.steps[i].loss << ", " << r.steps[i].wall_ms
        << " ms\n";
  }
  const dag::Program& p = r.recorded.programs.at(0);
  out << "ops run: " << r.ops_run << ", at most " << r.ops_concurrent_max
      << " running at once\n";
  out << "weights equal the sequential reference bitwise: "
      << (r.weights_match_reference ? "yes" : "NO") << '\n';
  out << "recorded program: " << p.vars.size() << " vars, " << p.ops.size() << " ops, "
      << p.main.size() << " main-thread actions; validation problems: " << r.recorded_diagnostics
      << "; dump round-trips: " << (r.dump_round_trips ? "yes" : "NO") << '\n';
}

}  // namespace ordo::demo
