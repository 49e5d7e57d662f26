#include "runtime/exec/threaded_run.hpp"

#include <memory>
#include <optional>
#include <stdexcept>
#include <thread>

#include "runtime/comm/sim/sim_world.hpp"
#include "runtime/engine/engine.hpp"
#include "runtime/engine/submit_batch.hpp"
#include "runtime/engine/thread_pool_scheduler.hpp"
#include "runtime/exec/executor.hpp"
#include "runtime/exec/program_runner.hpp"

namespace ordo::exec {

namespace {

struct RankThread {
  std::unique_ptr<engine::Engine> engine;
  std::unique_ptr<Executor> executor;
  std::string error;
};

}  // namespace

ThreadedOutcome run_threaded(const dag::Job& job, std::uint32_t ranks,
                             const ThreadedOptions& options) {
  if (job.ranks && *job.ranks != ranks) {
    throw std::invalid_argument("the job is for " + std::to_string(*job.ranks) + " ranks, not " +
                                std::to_string(ranks));
  }
  comm::sim::SimWorld world(ranks, job.comms, comm::Backend::mpi, options.returns);
  std::vector<RankThread> rank(ranks);
  const std::vector<const dag::Program*> programs = dag::programs_by_rank(job, ranks);
  for (dag::Rank r = 0; r < ranks; ++r) {
    if (programs[r] == nullptr) {
      throw std::invalid_argument("no program covers rank " + std::to_string(r));
    }
    engine::EngineConfig config;
    config.pools = programs[r]->pools;
    rank[r].engine = std::make_unique<engine::Engine>(
        std::move(config), std::make_unique<engine::ThreadPoolScheduler>());
    rank[r].executor =
        std::make_unique<Executor>(*rank[r].engine, world.rank(r), job.comms, options.body);
    Executor* executor = rank[r].executor.get();
    world.set_probe(r, [executor] { return executor->activity(); });
  }
  world.start_watchdog(options.deadlock_check_period);

  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (dag::Rank r = 0; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      try {
        declare_vars(*rank[r].executor, *programs[r]);
        if (options.before) options.before(r, rank[r].executor->buffers());
        std::optional<engine::SubmitBatch> batch;
        if (options.batch_main) batch.emplace(*rank[r].engine);
        run_actions(*rank[r].executor, *programs[r]);
        rank[r].executor->engine().wait_for_all();
        batch.reset();
        if (options.after) options.after(r, rank[r].executor->buffers());
      } catch (const std::exception& e) {
        rank[r].error = e.what();
      }
    });
  }
  for (std::thread& t : threads) t.join();
  // The watchdog outlives the executors below; leave it probes that touch none of them.
  for (dag::Rank r = 0; r < ranks; ++r) {
    world.set_probe(r, [] { return comm::sim::RankActivity{true, true, {}}; });
  }
  // Every rank ended, yet a call returned from early may still be unmatched: under the
  // synchronising reading its issuer hangs in it, and the watchdog may not have looked yet.
  if (!world.violation() && world.has_unmatched_calls()) world.check_deadlock();
  ThreadedOutcome out;
  out.wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  for (auto& r : rank) {
    r.engine->shutdown();
    out.rank_errors.push_back(r.error);
  }
  if (const auto v = world.violation()) {
    out.end = std::holds_alternative<comm::Deadlock>(*v) ? RunEnd::deadlock : RunEnd::violation;
    out.report = comm::describe(*v);
  } else {
    for (dag::Rank r = 0; r < ranks; ++r) {
      if (!out.rank_errors[r].empty()) {
        out.end = RunEnd::rank_failed;
        out.report = "rank " + std::to_string(r) + ": " + out.rank_errors[r];
        break;
      }
    }
  }
  return out;
}

}  // namespace ordo::exec
