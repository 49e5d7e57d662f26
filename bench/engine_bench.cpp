// Dispatch throughput of the engine on the production thread pool: how many ops per second go
// through submit, the var queues, a pool thread and completion when the ops themselves do nothing.
// Results and the command that produced them: docs/benchmarks.md.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>

#include "runtime/engine/engine.hpp"
#include "runtime/engine/thread_pool_scheduler.hpp"

namespace ordo::engine {
namespace {

constexpr std::int64_t ops_per_batch = 10'000;

std::unique_ptr<Engine> engine_with_threads(std::uint32_t threads) {
  EngineConfig config{{dag::Pool{"bench", threads, dag::PoolKind::fifo}}, Limits{}, false, "bench"};
  return std::make_unique<Engine>(std::move(config), std::make_unique<ThreadPoolScheduler>());
}

// (a) Ops with no vars: every op is ready when submitted; measures submit -> run queue -> thread ->
// retire.
void BM_IndependentOps(benchmark::State& state) {
  const auto engine = engine_with_threads(1);
  const OpDesc desc{"empty"};
  for (auto _ : state) {
    for (std::int64_t i = 0; i < ops_per_batch; ++i) engine->submit(desc, [] {});
    engine->wait_for_all();
  }
  state.SetItemsProcessed(state.iterations() * ops_per_batch);
}

// (b) Every op writes the same var: each completion grants the next write.
void BM_WriteChain(benchmark::State& state) {
  const auto engine = engine_with_threads(1);
  const VarHandle var = engine->new_var(dag::Var{"chain"});
  const OpDesc desc{"write", {}, {var}};
  for (auto _ : state) {
    for (std::int64_t i = 0; i < ops_per_batch; ++i) engine->submit(desc, [] {});
    engine->wait_to_read(var);
  }
  state.SetItemsProcessed(state.iterations() * ops_per_batch);
}

// (c) Rounds of one writer, N readers sharing the var, one writer that waits for all of them.
void BM_FanOutFanIn(benchmark::State& state) {
  const auto readers = state.range(0);
  const auto engine = engine_with_threads(static_cast<std::uint32_t>(state.range(1)));
  const VarHandle var = engine->new_var(dag::Var{"fan"});
  const OpDesc write{"write", {}, {var}};
  const OpDesc read{"read", {var}, {}};
  const std::int64_t rounds = ops_per_batch / (readers + 2);
  for (auto _ : state) {
    for (std::int64_t round = 0; round < rounds; ++round) {
      engine->submit(write, [] {});
      for (std::int64_t r = 0; r < readers; ++r) engine->submit(read, [] {});
      engine->submit(write, [] {});
    }
    engine->wait_for_all();
  }
  state.SetItemsProcessed(state.iterations() * rounds * (readers + 2));
}

BENCHMARK(BM_IndependentOps)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_WriteChain)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_FanOutFanIn)
    ->ArgNames({"readers", "threads"})
    ->Args({8, 1})
    ->Args({64, 1})
    ->Args({64, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace ordo::engine

BENCHMARK_MAIN();
