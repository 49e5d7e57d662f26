// The designs as programs: what each one puts on the main thread and into the engine.
#include <gtest/gtest.h>

#include <algorithm>

#include "runtime/dag/validate.hpp"
#include "runtime/designs/step_builder.hpp"
#include "runtime/networks/network.hpp"

namespace ordo::designs {
namespace {

dag::Job build(DesignKind kind, DesignConfig config = {}, StepOptions options = {}) {
  config.kind = kind;
  return build_step_job(networks::mlp(3, 4, 10.0), config, options);
}

std::vector<const dag::Op*> collective_ops(const dag::Program& p) {
  std::vector<const dag::Op*> ops;
  for (const dag::Op& op : p.ops) {
    if (op.collective) ops.push_back(&op);
  }
  return ops;
}

std::vector<const dag::CollectiveAction*> main_collectives(const dag::Program& p) {
  std::vector<const dag::CollectiveAction*> out;
  for (const dag::Action& a : p.main) {
    if (const auto* c = std::get_if<dag::CollectiveAction>(&a)) out.push_back(c);
  }
  return out;
}

const dag::Var& var(const dag::Program& p, dag::VarId id) { return p.vars.at(id); }

DesignConfig copy_buffers() {
  DesignConfig c;
  c.buffers = BufferMode::copy;
  return c;
}

TEST(KvstoreDesigns, EveryDesignGivesAValidProgram) {
  for (DesignKind kind :
       {DesignKind::naive, DesignKind::funnel, DesignKind::concom, DesignKind::depcha}) {
    for (const DesignConfig& config : {DesignConfig{}, copy_buffers()}) {
      for (bool init : {false, true}) {
        const dag::Job job = build(kind, config, {init, 2});
        EXPECT_TRUE(dag::validate(job).empty())
            << describe(config) << " " << to_string(kind) << " init " << init << ": "
            << dag::validate(job).front().message;
      }
    }
  }
  EXPECT_TRUE(dag::validate(build_step_job(networks::resnet50(1000.0), {}, {true, 1})).empty());
}

TEST(KvstoreDesigns, NaiveAllreducesAreUnorderedEngineOpsOnTheWorld) {
  const dag::Job job = build(DesignKind::naive, copy_buffers());
  const dag::Program& p = job.programs[0];
  const auto ops = collective_ops(p);
  ASSERT_EQ(ops.size(), 6u);  // 3 layers x (weight, bias)
  for (const dag::Op* op : ops) {
    EXPECT_EQ(op->kind, dag::OpKind::collective);
    EXPECT_EQ(op->collective->comm, world_comm);
    ASSERT_EQ(op->writes.size(), 1u);
    EXPECT_EQ(var(p, op->writes[0]).kind, dag::VarKind::buffer);
    ASSERT_EQ(op->reads.size(), 1u);
    EXPECT_EQ(var(p, op->reads[0]).name.rfind("grad.", 0), 0u);
  }
  EXPECT_TRUE(main_collectives(p).empty());
}

TEST(KvstoreDesigns, FunnelCallsEveryAllreduceOnTheMainThreadAfterWaitingForItsBuffer) {
  for (const DesignConfig& config : {DesignConfig{}, copy_buffers()}) {
    const dag::Job job = build(DesignKind::funnel, config);
    const dag::Program& p = job.programs[0];
    EXPECT_TRUE(collective_ops(p).empty());
    std::size_t calls = 0;
    for (std::size_t i = 0; i < p.main.size(); ++i) {
      const auto* c = std::get_if<dag::CollectiveAction>(&p.main[i]);
      if (c == nullptr) continue;
      ++calls;
      ASSERT_GT(i, 0u);
      const auto* wait = std::get_if<dag::WaitToReadAction>(&p.main[i - 1]);
      ASSERT_NE(wait, nullptr);
      EXPECT_EQ(wait->var, c->buffer.value());
    }
    EXPECT_EQ(calls, 6u);
  }
}

TEST(KvstoreDesigns, ConcomRotatesCommunicatorsAndBarriersEveryOutstandingKeys) {
  DesignConfig config;
  config.ncomm = 2;
  config.outstanding = 3;
  const dag::Job job = build(DesignKind::concom, config);
  ASSERT_EQ(job.comms.size(), 3u);
  const dag::Program& p = job.programs[0];
  const auto ops = collective_ops(p);
  ASSERT_EQ(ops.size(), 6u);
  // The i-th key pushed since the last barrier goes on communicator 1 + i mod ncomm, whatever
  // its number (a real model pushes its keys out of number order).
  for (std::size_t i = 0; i < ops.size(); ++i) {
    EXPECT_EQ(ops[i]->collective->comm, 1 + static_cast<dag::CommId>((i % 3) % 2));
    EXPECT_TRUE(ops[i]->reads.empty());
  }
  const auto barriers = main_collectives(p);
  ASSERT_EQ(barriers.size(), 2u);  // after the third and the sixth key
  for (const auto* b : barriers) {
    EXPECT_EQ(b->collective.kind, dag::CollectiveKind::barrier);
    EXPECT_EQ(b->collective.comm, world_comm);
  }
}

TEST(KvstoreDesigns, DepchaChainsEveryAllreduceThroughOneToken) {
  const dag::Job job = build(DesignKind::depcha);
  const dag::Program& p = job.programs[0];
  const auto ops = collective_ops(p);
  ASSERT_EQ(ops.size(), 6u);
  const dag::VarId chain = ops[0]->writes.back();
  EXPECT_EQ(var(p, chain).kind, dag::VarKind::token);
  for (const dag::Op* op : ops) {
    EXPECT_NE(std::find(op->writes.begin(), op->writes.end(), chain), op->writes.end());
  }
  EXPECT_TRUE(main_collectives(p).empty());
}

TEST(KvstoreDesigns, SafeInitChainsBroadcastsAndFig4WritesNothing) {
  StepOptions with_init{true, 1};
  DesignConfig fig4;
  fig4.init = InitKind::fig4;
  for (const auto& [config, chained] : {std::pair{DesignConfig{}, true}, std::pair{fig4, false}}) {
    const dag::Job job = build(DesignKind::depcha, config, with_init);
    const dag::Program& p = job.programs[0];
    std::size_t bcasts = 0;
    for (const dag::Op* op : collective_ops(p)) {
      if (op->collective->kind != dag::CollectiveKind::bcast) continue;
      ++bcasts;
      EXPECT_EQ(op->collective->root, dag::Rank{0});
      if (chained) {
        ASSERT_EQ(op->writes.size(), 2u);
        EXPECT_EQ(var(p, op->writes[1]).name, "init.chain");
      } else {
        EXPECT_TRUE(op->writes.empty());
        ASSERT_EQ(op->reads.size(), 1u);
        EXPECT_EQ(var(p, op->reads[0]).name.rfind("weight.", 0), 0u);
      }
    }
    EXPECT_EQ(bcasts, 6u);
  }
}

TEST(KvstoreDesigns, ConfigurationsAreCheckedAndNamed) {
  EXPECT_EQ(parse_design("concom"), DesignKind::concom);
  EXPECT_THROW(parse_design("dep-cha"), std::invalid_argument);
  DesignConfig bad;
  bad.ncomm = 0;
  EXPECT_THROW(check_config(bad), std::invalid_argument);
  DesignConfig c;
  c.kind = DesignKind::concom;
  c.ncomm = 1;
  c.outstanding = 4;
  EXPECT_EQ(describe(c), "concom(comm_threads=2, ncomm=1, outstanding=4)");
  c.buffers = BufferMode::copy;
  EXPECT_EQ(describe(c), "concom(comm_threads=2, ncomm=1, outstanding=4, buffers=copy)");
  EXPECT_EQ(parse_buffers("in_place"), BufferMode::in_place);
  EXPECT_EQ(parse_buffers("copy"), BufferMode::copy);
  EXPECT_THROW(parse_buffers("inplace"), std::invalid_argument);
  EXPECT_EQ(DesignConfig{}.buffers, BufferMode::in_place);
}

TEST(KvstoreNetwork, Resnet50HasTheReferenceKeysAndParameters) {
  const networks::Network net = networks::resnet50(1000.0);
  EXPECT_EQ(networks::param_count(net), 161u);
  std::uint64_t elements = 0;
  for (const networks::Layer& l : net.layers) {
    for (const networks::Param& p : l.params) elements += p.count;
  }
  // torchvision's resnet50 has 25,557,032 trainable parameters, which these keys are.
  EXPECT_EQ(elements, 25557032u);
  double forward = 0.0;
  for (const networks::Layer& l : net.layers) forward += l.forward_us;
  EXPECT_NEAR(forward, 1000.0, 1e-6);
}

TEST(KvstoreNetwork, BadNetworksAreRejectedWithTheLayerNamed) {
  networks::Network n{
      "n", {networks::Layer{"a", {}, 1.0, 1.0, {}}, networks::Layer{"b", {}, 1.0, 1.0, {1}}}};
  try {
    networks::check_network(n);
    FAIL() << "accepted a layer reading itself";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'b'"), std::string::npos);
  }
  n.layers[1].inputs = {0, 0};
  EXPECT_THROW(networks::check_network(n), std::invalid_argument);
}

}  // namespace
}  // namespace ordo::designs
