// A team's own engine integration, recorded and verified before it runs: two backward ops on a
// compute pool of two threads, each readying an allreduce of its gradient on a comm pool of two
// threads. As written first, the two allreduces can reach MPI in either order on each rank; with
// a token every allreduce writes, they cannot. The engine records what it was asked to do
// (EngineConfig::record), and the checker answers for the recorded step at 2 ranks.
// Exits 0 when the first version is unsafe and the second safe, as they are.
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "checker/verify/verify.hpp"
#include "runtime/engine/engine.hpp"
#include "runtime/engine/thread_pool_scheduler.hpp"

namespace {

using namespace ordo;

checker::Verdict record_and_verify(bool chained) {
  engine::EngineConfig config;
  config.pools = {{"compute", 2, dag::PoolKind::fifo}, {"comm", 2, dag::PoolKind::fifo}};
  config.record = true;
  engine::Engine eng(config, std::make_unique<engine::ThreadPoolScheduler>());
  const dag::CommId world = eng.declare_comm({"world", std::nullopt});
  const engine::VarHandle input = eng.new_var({"input", dag::VarKind::tensor, 64});
  const engine::VarHandle chain = eng.new_var({"chain", dag::VarKind::token, 0});
  for (int layer = 0; layer < 2; ++layer) {
    const std::string name = "layer" + std::to_string(layer);
    const engine::VarHandle grad = eng.new_var({"grad." + name, dag::VarKind::tensor, 64});
    eng.submit({"backward." + name, {input}, {grad}, 0}, [] {});
    engine::OpDesc allreduce{"allreduce." + name, {}, {grad}, 1};
    if (chained) allreduce.writes.push_back(chain);
    allreduce.kind = dag::OpKind::collective;
    allreduce.collective = dag::Collective{dag::CollectiveKind::allreduce, world, layer, 16,
                                           dag::DType::f32, dag::Reduction::sum, std::nullopt};
    // Here a real integration calls its MPI allreduce on the gradient.
    eng.submit(allreduce, [] {});
  }
  eng.wait_for_all();
  const checker::System model(eng.recorded_job(), 2);
  const checker::Verification v = checker::verify(model, checker::VerifyOptions{});
  std::cout << (chained ? "with the chain: " : "as written: ") << checker::human_report(model, v);
  return v.result.verdict;
}

}  // namespace

int main() {
  const bool unsafe_first = record_and_verify(false) == checker::Verdict::unsafe;
  const bool safe_then = record_and_verify(true) == checker::Verdict::safe;
  return unsafe_first && safe_then ? 0 : 1;
}
