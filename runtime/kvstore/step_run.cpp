#include "runtime/kvstore/step_run.hpp"

#include <chrono>
#include <memory>
#include <span>
#include <string>
#include <utility>

#include "runtime/designs/step_emitter.hpp"
#include "runtime/engine/engine.hpp"
#include "runtime/engine/thread_pool_scheduler.hpp"
#include "runtime/exec/executor.hpp"
#include "runtime/exec/probe_scope.hpp"

namespace ordo::kvstore {

namespace {

// The elements of block `rank` of `count` split over `ranks`, as reduce_scatter and allgather cut.
std::pair<std::uint64_t, std::uint64_t> block(std::uint64_t count, dag::Rank rank,
                                              std::uint32_t ranks) {
  return {count * rank / ranks, count * (rank + 1) / ranks};
}

// The step an op belongs to, from its name's prefix "s<N>." (N from 1); 0 for init's ops. Read
// from the op, not from a counter the main thread moves on: with overlapped steps, ops of two
// steps run at once.
std::uint32_t step_of(const std::string& name) {
  if (name.size() < 3 || name[0] != 's') return 0;
  std::uint32_t n = 0;
  std::size_t i = 1;
  for (; i < name.size() && name[i] >= '0' && name[i] <= '9'; ++i) n = n * 10 + static_cast<std::uint32_t>(name[i] - '0');
  return i > 1 && i < name.size() && name[i] == '.' && n > 0 ? n - 1 : 0;
}

// Writes this rank's gradients from every backward op, and rank-specific weights at init time.
// The sharded design's update of a block copies the block's sum into the weight, so that the
// allgathered weight shows, block by block, what each owner's reduce_scatter summed. With
// `accumulate` (overlapped steps) every update adds the sum into the weight instead.
struct GradientFill {
  const designs::StepEmitter* emitter = nullptr;
  dag::Rank rank = 0;
  std::uint32_t ranks = 1;
  bool accumulate = false;

  void operator()(const dag::Op& op, exec::Buffers& buffers) const {
    const bool shard = op.name.find("update_shard.") != std::string::npos;
    const bool whole = !shard && op.name.find("update.") != std::string::npos;
    if (shard || (whole && accumulate)) {
      for (const designs::KeyVars& k : emitter->keys()) {
        if (op.writes.empty() || op.writes.front() != k.weight) continue;
        const std::span<float> g = buffers.as<float>(k.grad);
        const std::span<float> w = buffers.as<float>(k.weight);
        const auto [from, to] = shard ? block(g.size(), rank, ranks)
                                      : std::pair<std::uint64_t, std::uint64_t>{0, g.size()};
        for (std::uint64_t i = from; i < to; ++i) w[i] = accumulate ? w[i] + g[i] : g[i];
      }
      return;
    }
    if (op.name.find("bwd.") == std::string::npos) return;
    const std::uint32_t step = step_of(op.name);
    for (const designs::KeyVars& k : emitter->keys()) {
      for (dag::VarId w : op.writes) {
        if (w != k.grad) continue;
        std::span<float> g = buffers.as<float>(k.grad);
        for (std::uint64_t i = 0; i < g.size(); ++i) g[i] = gradient_value(rank, k.key, i, step);
      }
    }
  }
};

// Overlapped steps: keys whose weight is not the initial weight (the key's number) plus the sum
// over ranks and steps of the gradients.
std::uint64_t wrong_weights(const designs::StepEmitter& emitter, exec::Buffers& buffers,
                            std::uint32_t ranks, std::uint32_t steps) {
  std::uint64_t wrong = 0;
  for (const designs::KeyVars& k : emitter.keys()) {
    const std::span<float> w = buffers.as<float>(k.weight);
    for (std::uint64_t i = 0; i < w.size(); ++i) {
      float expected = static_cast<float>(k.key);
      for (std::uint32_t s = 0; s < steps; ++s) {
        for (dag::Rank r = 0; r < ranks; ++r) expected += gradient_value(r, k.key, i, s);
      }
      if (w[i] != expected) {
        ++wrong;
        break;
      }
    }
  }
  return wrong;
}

// Keys whose pulled gradient is not the sum over ranks; for a key the sharded design splits, the
// rank's own block of the gradient, and the whole gathered weight.
std::uint64_t wrong_keys(const designs::StepEmitter& emitter, const designs::DesignConfig& config,
                         exec::Buffers& buffers, dag::Rank rank, std::uint32_t ranks,
                         std::uint32_t step) {
  std::uint64_t wrong = 0;
  for (const designs::KeyVars& k : emitter.keys()) {
    const std::span<float> g = buffers.as<float>(k.grad);
    const std::span<float> w = buffers.as<float>(k.weight);
    // A key sharded splits: the rank's update wrote only its block, the allgather the others'.
    const bool sharded =
        config.kind == designs::DesignKind::sharded && designs::splits_into_shards(config, k.count);
    const auto [from, to] = sharded ? block(g.size(), rank, ranks)
                                    : std::pair<std::uint64_t, std::uint64_t>{0, g.size()};
    for (std::uint64_t i = 0; i < g.size(); ++i) {
      float expected = 0.0f;
      for (dag::Rank r = 0; r < ranks; ++r) expected += gradient_value(r, k.key, i, step);
      const bool pulled = i < from || i >= to || g[i] == expected;
      if (!pulled || (sharded && w[i] != expected)) {
        ++wrong;
        break;
      }
    }
  }
  return wrong;
}

}  // namespace

float gradient_value(dag::Rank rank, std::int64_t key, std::uint64_t i, std::uint32_t step) {
  return static_cast<float>((rank + 1) * static_cast<std::uint64_t>(key % 7 + 1) + i % 5 + step);
}

StepRunResult run_steps(const networks::Network& network, const designs::DesignConfig& config,
                        comm::World& world, const StepRunOptions& options,
                        comm::sim::SimWorld* sim) {
  for (const networks::Layer& l : network.layers) {
    for (const networks::Param& p : l.params) {
      if (p.dtype != dag::DType::f32) throw std::invalid_argument("run_steps checks f32 keys only");
    }
  }
  designs::check_design_ranks(config, world.size());
  engine::EngineConfig engine_config;
  engine_config.pools = designs::step_pools(config);
  engine::Engine engine(std::move(engine_config), std::make_unique<engine::ThreadPoolScheduler>());
  auto fill = std::make_shared<GradientFill>();
  exec::BodyOptions body;
  body.compute_time_scale = options.compute_time_scale;
  body.compute = [fill](dag::Rank, const dag::Op& op, exec::Buffers& b) { (*fill)(op, b); };
  exec::Executor executor(engine, world, designs::step_comms(config), body);
  const exec::ProbeScope probe(sim, world.rank(), executor);
  designs::StepEmitter emitter(network, config, executor, world.rank());
  fill->emitter = &emitter;
  fill->rank = world.rank();
  fill->ranks = world.size();
  fill->accumulate = options.overlap;
  if (options.overlap && !options.include_init) {
    throw std::invalid_argument("run_steps checks overlapped steps from the initial weights");
  }

  StepRunResult result;
  if (options.include_init) {
    for (const designs::KeyVars& k : emitter.keys()) {
      std::span<float> w = executor.buffers().as<float>(k.weight);
      for (float& x : w) x = static_cast<float>(world.rank() == 0 ? k.key : -1);
    }
    emitter.emit_init();
    result.weights_initialised = true;
    for (const designs::KeyVars& k : emitter.keys()) {
      for (float x : executor.buffers().as<float>(k.weight)) {
        result.weights_initialised = result.weights_initialised && x == static_cast<float>(k.key);
      }
    }
  }
  if (options.overlap) {
    const auto start = std::chrono::steady_clock::now();
    for (std::uint32_t s = 0; s < options.steps; ++s) {
      emitter.emit_step("s" + std::to_string(s + 1) + ".", /*close=*/s + 1 == options.steps);
    }
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count();
    result.step_ms.assign(options.steps, ms / options.steps);
    result.keys_checked = emitter.keys().size() * options.steps;
    result.keys_wrong = wrong_weights(emitter, executor.buffers(), world.size(), options.steps);
  } else {
    for (std::uint32_t s = 0; s < options.steps; ++s) {
      const auto start = std::chrono::steady_clock::now();
      emitter.emit_step("s" + std::to_string(s + 1) + ".");
      result.step_ms.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count());
      result.keys_checked += emitter.keys().size();
      result.keys_wrong +=
          wrong_keys(emitter, config, executor.buffers(), world.rank(), world.size(), s);
    }
  }
  executor.main_done();
  return result;
}

}  // namespace ordo::kvstore
