// A small MPI job with a fault injected by the test that runs it, for the hang tests
// (tests/diag/hang_case.sh). Each step allreduces `keys` gradients on communicator "grads" from a
// one-thread comm pool, in key order (a token every op writes keeps them in order), then the main
// thread joins a barrier on "main". The flight recorder records every call and the watchdog
// watches with the given timeout. Faults, on rank --rank at step --step:
//   skip:  the rank does not submit the allreduce of key --key;
//   kill:  the rank raises SIGKILL in a compute op just before that allreduce;
//   stop:  the same with SIGSTOP (and once continued, the op never returns);
//   cycle: no steps; rank 0's main thread allreduces on "left" then "right", the others on
//          "right" then "left": a wait cycle across two communicators;
//   recv:  no steps; every rank's main thread receives from the next rank on "grads" with tag 3
//          before it sends: recvs head to head, which no send will ever match (MPI-3.1 §3.5);
//   swap:  the rank issues key --key + 1 before key --key (same shape: MPI sums the wrong
//          gradients together, silently);
//   count: the rank's allreduce of key --key has 8 elements, not 4;
//   nonblocking: the rank's allreduce of key --key is non-blocking (an async collective op),
//          the others' blocking, which MPI never matches.
// --check-collectives 1 runs the job in fingerprint mode. --step-world 1 runs the steps on a world
// of their own, as a trainer's device path does (another set of MPI communicators standing in for
// NCCL's), with the main thread's barriers also on the first world: the diagnostics watch both
// (diag::WatchedWorlds), the first world's communicators as "host.<name>".
// Every rank that gets to the end prints "fault_job: rank K done".
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "runtime/comm/mpi/runtime.hpp"
#include "runtime/comm/mpi/world.hpp"
#include "runtime/comm/sim/issuer.hpp"
#include "runtime/diag/engine_source.hpp"
#include "runtime/diag/flight_recorder.hpp"
#include "runtime/diag/mpi/fingerprint_channels.hpp"
#include "runtime/diag/watchdog.hpp"
#include "runtime/diag/watched_worlds.hpp"
#include "runtime/engine/engine.hpp"
#include "runtime/engine/thread_pool_scheduler.hpp"
#include "runtime/exec/executor.hpp"

namespace {

using namespace ordo;

struct Args {
  std::string mode = "none";
  dag::Rank rank = 1;
  std::int64_t key = 2;
  std::uint32_t step = 0;
  std::uint32_t keys = 4;
  std::uint32_t steps = 2;
  double hang_timeout = 1.0;
  std::string dump_dir = "dumps";
  bool check_collectives = false;
  bool step_world = false;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const std::string value = argv[i + 1];
    if (flag == "--mode") {
      a.mode = value;
    } else if (flag == "--rank") {
      a.rank = static_cast<dag::Rank>(std::stoul(value));
    } else if (flag == "--key") {
      a.key = std::stoll(value);
    } else if (flag == "--step") {
      a.step = static_cast<std::uint32_t>(std::stoul(value));
    } else if (flag == "--keys") {
      a.keys = static_cast<std::uint32_t>(std::stoul(value));
    } else if (flag == "--steps") {
      a.steps = static_cast<std::uint32_t>(std::stoul(value));
    } else if (flag == "--hang-timeout") {
      a.hang_timeout = std::stod(value);
    } else if (flag == "--dump-dir") {
      a.dump_dir = value;
    } else if (flag == "--check-collectives") {
      a.check_collectives = value == "1";
    } else if (flag == "--step-world") {
      a.step_world = value == "1";
    } else {
      throw std::invalid_argument("unknown flag " + flag);
    }
  }
  return a;
}

const std::vector<dag::Communicator> comms = {
    {"main", {}}, {"grads", {}}, {"left", {}}, {"right", {}}};
constexpr dag::CommId main_comm = 0;
constexpr dag::CommId grads_comm = 1;

dag::Collective allreduce(dag::CommId id, std::int64_t key) {
  return dag::Collective{dag::CollectiveKind::allreduce,
                         id,
                         key,
                         4,
                         dag::DType::f32,
                         dag::Reduction::sum,
                         std::nullopt};
}

dag::Collective barrier(dag::CommId id) {
  dag::Collective c = allreduce(id, -1);
  c.kind = dag::CollectiveKind::barrier;
  c.count = 0;
  c.reduction = dag::Reduction::none;
  return c;
}

// `host`: the first world, where the main thread also meets the others after each step, when the
// steps run on a world of their own.
void run_steps(const Args& a, exec::Executor& executor, dag::Rank rank, comm::World* host) {
  const dag::VarId order = executor.add_var({"order", dag::VarKind::token, 0, dag::DType::f32});
  std::vector<dag::VarId> grads;
  for (std::uint32_t k = 0; k < a.keys; ++k) {
    grads.push_back(
        executor.add_var({"g." + std::to_string(k), dag::VarKind::tensor, 32, dag::DType::f32}));
  }
  for (std::uint32_t step = 0; step < a.steps; ++step) {
    const bool faulty = rank == a.rank && step == a.step;
    for (std::uint32_t slot = 0; slot < a.keys; ++slot) {
      std::uint32_t k = slot;
      if (a.mode == "swap" && faulty && static_cast<std::int64_t>(slot) == a.key) ++k;
      if (a.mode == "swap" && faulty && static_cast<std::int64_t>(slot) == a.key + 1) --k;
      if (static_cast<std::int64_t>(k) == a.key) {
        dag::Op inject;
        inject.name = "inject." + std::to_string(k);
        // After the allreduces before it: the fault strikes between two collectives.
        inject.reads = {order};
        inject.writes = {grads[k]};
        inject.pool = 1;
        executor.submit(inject);
        if (a.mode == "skip" && faulty) continue;
      }
      const bool odd = faulty && static_cast<std::int64_t>(k) == a.key;
      dag::Op op;
      op.name = "ar." + std::to_string(k);
      op.writes = {grads[k], order};
      op.pool = 0;
      op.kind =
          a.mode == "nonblocking" && odd ? dag::OpKind::async_collective : dag::OpKind::collective;
      op.collective = allreduce(grads_comm, k);
      if (a.mode == "count" && odd) op.collective->count = 8;
      executor.submit(op);
    }
    executor.wait_for_all();
    executor.collective({barrier(main_comm), std::nullopt});
    if (host != nullptr) {
      const comm::sim::IssuerScope issuer("main");
      host->comm(main_comm).barrier(-1);
    }
  }
}

int run(const Args& a, comm::MpiRuntime& runtime) {
  comm::MpiWorld mpi_world(runtime, comms);
  std::unique_ptr<comm::MpiWorld> step_mpi;
  if (a.step_world) step_mpi = std::make_unique<comm::MpiWorld>(runtime, comms);
  // As ordo train makes them.
  const diag::FingerprintChannels fingerprints(mpi_world, a.check_collectives, a.step_world);
  diag::WatchOptions options;
  fingerprints.give(options);
  options.flight_recorder = true;
  diag::WatchedWorlds watched(mpi_world, step_mpi.get(), comms, options);
  diag::FlightRecorder& recorder = *watched.recorder();
  comm::World& world = step_mpi ? *watched.step_world() : watched.world();
  const dag::Rank rank = world.rank();

  engine::EngineConfig config;
  config.pools = {{"comm", 1, dag::PoolKind::fifo}, {"compute", 1, dag::PoolKind::fifo}};
  config.program_name = "fault_job";
  engine::Engine engine(std::move(config), std::make_unique<engine::ThreadPoolScheduler>());
  exec::BodyOptions body;
  body.compute = [&a](dag::Rank r, const dag::Op& op, exec::Buffers&) {
    if (r != a.rank || op.name != "inject." + std::to_string(a.key)) return;
    static std::uint32_t seen = 0;  // the compute pool has one thread
    if (seen++ != a.step) return;
    if (a.mode == "kill") raise(SIGKILL);
    if (a.mode == "stop") {
      raise(SIGSTOP);
      // mpirun continues a stopped rank (SIGCONT) just before it ends it with SIGTERM: the op
      // stays where it stopped, so a dump written then shows the rank as it was.
      for (;;) pause();
    }
  };
  exec::Executor executor(engine, world, comms, body);
  const diag::AttachedSource attached(&recorder,
                                      diag::engine_source(engine, executor, "fault_job"));
  diag::WatchdogOptions watch;
  watch.timeout_s = a.hang_timeout;
  watch.dir = a.dump_dir;
  watch.abort = [&runtime](int code) { runtime.abort(code); };
  diag::Watchdog watchdog(recorder, watch);

  if (a.mode == "cycle") {
    const comm::sim::IssuerScope issuer("main");
    float value[4] = {1, 2, 3, 4};
    const dag::CommId first = rank == 0 ? 2 : 3;
    const dag::CommId second = rank == 0 ? 3 : 2;
    world.comm(first).allreduce(value, 4, dag::DType::f32, dag::Reduction::sum, 7);
    world.comm(second).allreduce(value, 4, dag::DType::f32, dag::Reduction::sum, 8);
  } else if (a.mode == "recv") {
    const comm::sim::IssuerScope issuer("main");
    float value[4] = {1, 2, 3, 4};
    comm::Call recv{dag::CollectiveKind::recv, 0,           4, dag::DType::f32,
                    dag::Reduction::none,      std::nullopt};
    recv.peer = (rank + 1) % world.size();
    recv.tag = 3;
    world.comm(grads_comm).call(recv, value);
    comm::Call send = recv;
    send.kind = dag::CollectiveKind::send;
    send.peer = (rank + world.size() - 1) % world.size();
    world.comm(grads_comm).call(send, value);
  } else {
    run_steps(a, executor, rank, step_mpi ? &watched.world() : nullptr);
  }
  std::cout << "fault_job: rank " << rank << " done" << std::endl;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  try {
    args = parse(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "fault_job: " << e.what() << '\n';
    return 2;
  }
  ordo::comm::MpiRuntime runtime(&argc, &argv);
  try {
    return run(args, runtime);
  } catch (const std::exception& e) {
    std::cerr << "fault_job: rank " << runtime.world_rank() << ": " << e.what() << '\n';
    runtime.abort(3);
  }
}
