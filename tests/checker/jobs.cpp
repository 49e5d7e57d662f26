#include "tests/checker/jobs.hpp"

#include <string>

#include "runtime/designs/step_builder.hpp"

namespace ordo::checker::testing {

networks::Network branches() {
  using networks::Layer;
  return {"branches",
          {Layer{"a", {{"a.w", 4, dag::DType::f32}}, 1.0, 1.0, {}},
           Layer{"b", {{"b.w", 4, dag::DType::f32}}, 1.0, 1.0, {}},
           Layer{"join", {}, 1.0, 1.0, {0, 1}}}};
}

networks::Network one_key() {
  return {"one_key", {networks::Layer{"a", {{"a.w", 4, dag::DType::f32}}, 1.0, 1.0, {}}}};
}

designs::DesignConfig config(designs::DesignKind kind, std::uint32_t comm_threads) {
  designs::DesignConfig c;
  c.kind = kind;
  c.comm_threads = comm_threads;
  return c;
}

dag::Job step_job(const networks::Network& network, const designs::DesignConfig& config) {
  return designs::build_step_job(network, config, {});
}

namespace {

dag::Program allreduce_program(dag::Rank rank, int allreduces) {
  dag::Program p;
  p.name = "rank" + std::to_string(rank);
  p.ranks = std::vector<dag::Rank>{rank};
  p.pools = {{"comm", 1, dag::PoolKind::fifo}};
  p.vars = {{"buf", dag::VarKind::buffer, 16, dag::DType::f32}};
  for (int k = 0; k < allreduces; ++k) {
    dag::Op op;
    op.name = "ar" + std::to_string(k);
    op.kind = dag::OpKind::collective;
    op.writes = {0};
    op.collective = dag::Collective{dag::CollectiveKind::allreduce, 0, k, 4, dag::DType::f32,
                                    dag::Reduction::sum, std::nullopt};
    p.ops.push_back(op);
    p.main.emplace_back(dag::SubmitAction{static_cast<dag::OpId>(k)});
  }
  p.main.emplace_back(dag::WaitForAllAction{});
  return p;
}

dag::Program barrier_program(dag::Rank rank, std::vector<dag::CommId> comms) {
  dag::Program p;
  p.name = "rank" + std::to_string(rank);
  p.ranks = std::vector<dag::Rank>{rank};
  p.pools = {{"compute", 1, dag::PoolKind::fifo}};
  for (dag::CommId c : comms) {
    dag::CollectiveAction a;
    a.collective = dag::Collective{dag::CollectiveKind::barrier, c, 0, 0, dag::DType::f32,
                                   dag::Reduction::none, std::nullopt};
    p.main.emplace_back(a);
  }
  return p;
}

dag::Job three_comms() {
  dag::Job job;
  job.ranks = 3;
  job.comms = {{"c01", std::vector<dag::Rank>{0, 1}},
               {"c12", std::vector<dag::Rank>{1, 2}},
               {"c20", std::vector<dag::Rank>{2, 0}}};
  return job;
}

}  // namespace

dag::Job allreduce_counts(int allreduces0, int allreduces1) {
  dag::Job job;
  job.ranks = 2;
  job.comms = {{"world", std::nullopt}};
  job.programs = {allreduce_program(0, allreduces0), allreduce_program(1, allreduces1)};
  return job;
}

dag::Job barrier_cycle() {
  dag::Job job = three_comms();
  job.programs = {barrier_program(0, {0, 2}), barrier_program(1, {1, 0}),
                  barrier_program(2, {2, 1})};
  return job;
}

dag::Job barrier_chain() {
  dag::Job job = three_comms();
  job.programs = {barrier_program(0, {0, 2}), barrier_program(1, {0, 1}),
                  barrier_program(2, {1, 2})};
  return job;
}

}  // namespace ordo::checker::testing
