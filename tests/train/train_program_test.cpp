// The trainer runs the program `ordo step-dag` writes: what each rank of a short run on two
// simulated ranks submits to its engine, as the engine records it, equals the step builder's job
// for the same network and design (designs::build_step_job with the initial broadcast and as many
// steps as were trained): the same communicators, vars, pools, ops (names, reads, writes, pool,
// priority, kind, cost, collective) and main-thread actions in the same order. Nothing is
// stripped: with several steps the builder prefixes each step's op names "s1.", "s2.", ... as the
// trainer does; only a single step differs, since the builder then leaves the names bare.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/dag/program.hpp"
#include "runtime/data/labelled_images.hpp"
#include "runtime/designs/design_config.hpp"
#include "runtime/designs/step_builder.hpp"
#include "runtime/networks/catalog.hpp"
#include "runtime/networks/network_builder.hpp"
#include "runtime/train/train_run.hpp"
#include "tests/train/sim_ranks.hpp"

namespace ordo::train {
namespace {

namespace op = networks::op;

// Pixels and labels from a fixed pattern: the programs do not depend on the data.
data::LabelledImages pattern_images(std::uint32_t count) {
  data::LabelledImages set;
  set.count = count;
  set.rows = 28;
  set.cols = 28;
  set.classes = 10;
  set.pixels.resize(std::size_t{count} * 28 * 28);
  for (std::size_t i = 0; i < set.pixels.size(); ++i) {
    set.pixels[i] = static_cast<std::uint8_t>((i * 37) % 251);
  }
  for (std::uint32_t i = 0; i < count; ++i) set.labels.push_back(static_cast<std::uint8_t>(i % 10));
  return set;
}

networks::Network narrow_mlp() {
  networks::NetworkBuilder b("mlp784", {784});
  const auto h = b.add("hidden", {}, {op::dense(32), op::relu()});
  b.add("out", {h}, {op::dense(10)});
  return b.build(1.0);
}

std::vector<dag::Job> recorded_programs(const networks::Network& net,
                                        const designs::DesignConfig& config, std::uint32_t steps,
                                        std::uint32_t ranks) {
  const data::LabelledImages train = pattern_images(64);
  TrainOptions options;
  options.batch = 4;
  options.steps_max = steps;
  options.evaluate = false;
  options.record = true;
  RankRuns runs = run_on_ranks(net, config, train, nullptr, options, ranks);
  std::vector<dag::Job> programs;
  for (dag::Rank r = 0; r < ranks; ++r) {
    EXPECT_EQ(runs.errors[r], "") << "rank " << r;
    EXPECT_EQ(runs.results[r].losses.size(), steps) << "rank " << r;
    programs.push_back(std::move(runs.results[r].program));
  }
  return programs;
}

std::string show(const dag::Program& p, const dag::Op& op) {
  std::string s = op.name + " reads";
  for (dag::VarId v : op.reads) s += " " + p.vars.at(v).name;
  s += " writes";
  for (dag::VarId v : op.writes) s += " " + p.vars.at(v).name;
  return s + " pool " + std::to_string(op.pool);
}

// Equal jobs, or the first place they part, for a readable failure.
void expect_same_job(const dag::Job& ran, const dag::Job& built) {
  EXPECT_EQ(ran.ranks, built.ranks);
  EXPECT_EQ(ran.comms, built.comms);
  ASSERT_EQ(ran.programs.size(), 1u);
  ASSERT_EQ(built.programs.size(), 1u);
  const dag::Program& a = ran.programs[0];
  const dag::Program& b = built.programs[0];
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.ranks, b.ranks);
  EXPECT_EQ(a.pools, b.pools);
  EXPECT_EQ(a.vars, b.vars);
  ASSERT_EQ(a.ops.size(), b.ops.size());
  for (std::size_t i = 0; i < a.ops.size(); ++i) {
    ASSERT_EQ(a.ops[i], b.ops[i]) << "op " << i << ": ran " << show(a, a.ops[i]) << "; built "
                                  << show(b, b.ops[i]);
  }
  ASSERT_EQ(a.main.size(), b.main.size());
  for (std::size_t i = 0; i < a.main.size(); ++i) {
    ASSERT_EQ(a.main[i], b.main[i]) << "main action " << i;
  }
  EXPECT_EQ(ran, built);
}

void expect_runs_the_built_program(const networks::Network& net, designs::DesignKind kind) {
  designs::DesignConfig config;
  config.kind = kind;
  config.shards = 2;  // sharded: the ranks the recorded runs use
  config.nodes = 1;   // hierarchical: one node of both
  config.node_ranks = 2;
  config.slice_bytes = 4 << 10;  // priority: slices of LeNet's bigger keys, released late
  config.credit_bytes = 8 << 10;
  SCOPED_TRACE(net.name + " " + designs::describe(config));
  constexpr std::uint32_t steps = 2;
  const dag::Job built = designs::build_step_job(net, config, {true, steps});
  ASSERT_FALSE(built.programs.at(0).ops.empty());
  const std::vector<dag::Job> ran = recorded_programs(net, config, steps, 2);
  for (dag::Rank r = 0; r < ran.size(); ++r) {
    dag::Job want = built;
    if (built.programs.size() > 1) {
      // hierarchical: rank r runs its role's program, which its engine records as the step's.
      dag::Program mine = *dag::program_of(built, r);
      mine.name = designs::step_program_name(net, config);
      mine.ranks.reset();
      want.programs = {mine};
    }
    expect_same_job(ran[r], want);
  }
}

TEST(TrainProgram, EqualsTheStepBuildersOnEveryRank) {
  const networks::Network lenet = *networks::builtin_network("lenet");
  const networks::Network mlp = narrow_mlp();
  for (const designs::DesignKind kind :
       {designs::DesignKind::funnel, designs::DesignKind::concom, designs::DesignKind::depcha,
        designs::DesignKind::fused, designs::DesignKind::nonblocking, designs::DesignKind::sharded,
        designs::DesignKind::hierarchical, designs::DesignKind::priority}) {
    expect_runs_the_built_program(lenet, kind);
    expect_runs_the_built_program(mlp, kind);
  }
}

// A network with branches and joins on Fashion-MNIST's images: Inception-BN at 1x28x28.
TEST(TrainProgram, InceptionBnToo) {
  const networks::Network net = *networks::builtin_network("inception-bn", 4, {1, 28, 28});
  expect_runs_the_built_program(net, designs::DesignKind::depcha);
}

TEST(TrainProgram, CopiedBuffersToo) {
  designs::DesignConfig config;
  config.kind = designs::DesignKind::depcha;
  config.buffers = designs::BufferMode::copy;
  const networks::Network lenet = *networks::builtin_network("lenet");
  const dag::Job built = designs::build_step_job(lenet, config, {true, 2});
  for (const dag::Job& ran : recorded_programs(lenet, config, 2, 2)) expect_same_job(ran, built);
}

// With the data ops in the program (ordo train's default), under every design.
TEST(TrainProgram, PrefetchToo) {
  const networks::Network lenet = *networks::builtin_network("lenet");
  for (const designs::DesignKind kind :
       {designs::DesignKind::funnel, designs::DesignKind::concom, designs::DesignKind::depcha}) {
    designs::DesignConfig config;
    config.kind = kind;
    config.prefetch = true;
    SCOPED_TRACE(designs::describe(config));
    const dag::Job built = designs::build_step_job(lenet, config, {true, 2});
    ASSERT_EQ(built.programs.at(0).pools.size(), 4u);
    for (const dag::Job& ran : recorded_programs(lenet, config, 2, 2)) expect_same_job(ran, built);
  }
}

}  // namespace
}  // namespace ordo::train
