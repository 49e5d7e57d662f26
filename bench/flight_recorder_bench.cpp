// What the flight recorder adds to one collective: a call through a RecordedCommunicator over a
// backend that completes at once (no MPI, no data), against the same call on the bare backend.
// The difference is the recorder's cost per collective; times a step's collectives, its cost
// per step (docs/benchmarks.md, "Flight recorder overhead").
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "runtime/comm/sim/issuer.hpp"
#include "runtime/flight/flight_ring.hpp"
#include "runtime/flight/recorded_world.hpp"

namespace ordo::diag {
namespace {

class InstantComm final : public comm::Communicator {
 public:
  const std::string& name() const override { return name_; }
  dag::Rank rank() const override { return 0; }
  std::uint32_t size() const override { return 2; }
  void call(const comm::Call&, void*) override {}
  std::unique_ptr<comm::Request> start(const comm::Call&, void*) override { return nullptr; }
  void start_then(const comm::Call&, void*, Done done) override { done(nullptr); }

 private:
  std::string name_ = "grads";
};

const comm::Call call{
    dag::CollectiveKind::allreduce, 3, 1024, dag::DType::f32, dag::Reduction::sum, std::nullopt};

// The executor's path: call_then (blocking ops) and start_then (non-blocking), each with a
// completion callback of the size the executor passes.
void run(benchmark::State& state, comm::Communicator& comm, bool blocking) {
  const comm::sim::IssuerScope issuer("allreduce.conv3.w");
  float buffer[1] = {};
  std::int64_t done = 0;
  for (auto _ : state) {
    auto finish = [&done, pad = std::string()](std::exception_ptr) { ++done; };
    if (blocking) {
      comm.call_then(call, buffer, finish);
    } else {
      comm.start_then(call, buffer, finish);
    }
  }
  benchmark::DoNotOptimize(done);
}

void BM_Bare(benchmark::State& state) {
  InstantComm bare;
  run(state, bare, state.range(0) != 0);
}

void BM_Recorded(benchmark::State& state) {
  InstantComm bare;
  flight::CommRings rings(256);
  flight::RecordedCommunicator recorded(bare, rings);
  run(state, recorded, state.range(0) != 0);
}

BENCHMARK(BM_Bare)->Arg(1)->Arg(0);
BENCHMARK(BM_Recorded)->Arg(1)->Arg(0);

}  // namespace
}  // namespace ordo::diag

BENCHMARK_MAIN();
