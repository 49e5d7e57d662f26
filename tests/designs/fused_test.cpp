// fused as a program: which keys share a bucket, in what order the buckets go out, and where the
// copies are (only around buckets of several keys).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/dag/validate.hpp"
#include "runtime/designs/step_builder.hpp"
#include "runtime/networks/network.hpp"

namespace ordo::designs {
namespace {

// One layer per key, in a chain; keys are pushed from the last layer back.
networks::Network keys(const std::vector<std::pair<std::uint64_t, dag::DType>>& params) {
  networks::Network net{"keys", {}};
  for (std::size_t i = 0; i < params.size(); ++i) {
    const std::string name = "k" + std::to_string(i);
    net.layers.push_back({name, {{name + ".w", params[i].first, params[i].second}}, 1.0, 1.0, {}});
    if (i > 0) net.layers.back().inputs = {static_cast<std::uint32_t>(i - 1)};
  }
  return net;
}

dag::Program fused(const networks::Network& net, std::uint64_t bucket_bytes, BufferMode buffers) {
  DesignConfig c;
  c.kind = DesignKind::fused;
  c.bucket_bytes = bucket_bytes;
  c.buffers = buffers;
  const dag::Job job = build_step_job(net, c, {});
  EXPECT_TRUE(dag::validate(job).empty());
  return job.programs.at(0);
}

// "allreduce(count)" per collective and "pack"/"unpack"/"push" per copy, in submit order.
std::vector<std::string> outline(const dag::Program& p) {
  std::vector<std::string> out;
  for (const dag::Action& a : p.main) {
    const auto* submit = std::get_if<dag::SubmitAction>(&a);
    if (submit == nullptr) continue;
    const dag::Op& op = p.ops.at(submit->op);
    if (op.collective) {
      out.push_back("allreduce(" + std::to_string(op.collective->count) + ")");
    } else if (op.kind == dag::OpKind::copy) {
      out.push_back(op.name.substr(0, op.name.find('.')));
    }
  }
  return out;
}

TEST(Fused, KeysShareBucketsInPushOrderAndBigKeysGoAlone) {
  // Pushed as k4 (8 elements), k3 (1000), k2 (6), k1 (5), k0 (7).
  const networks::Network net = keys({{7, dag::DType::f32},
                                      {5, dag::DType::f32},
                                      {6, dag::DType::f32},
                                      {1000, dag::DType::f32},
                                      {8, dag::DType::f32}});
  // 64-byte buckets: k4 alone, too small to close; k3 fills one by itself, so k4's bucket closes
  // before it (a bucket of one key: no copies); k2 + k1 + k0 = 72 bytes close after k0.
  EXPECT_EQ(outline(fused(net, 64, BufferMode::in_place)),
            (std::vector<std::string>{"allreduce(8)", "allreduce(1000)", "pack", "allreduce(18)",
                                      "unpack"}));
  // Copy buffers: every key is copied into its buffer at its push (a KVStore user may write the
  // gradient again before the pull), and pulled (its sum copied back) once its bucket is on its
  // way, k4 and k3 as k3 closes theirs.
  EXPECT_EQ(outline(fused(net, 64, BufferMode::copy)),
            (std::vector<std::string>{"push", "push", "allreduce(8)", "allreduce(1000)", "pull",
                                      "pull", "push", "push", "push", "pack", "allreduce(18)",
                                      "unpack", "pull", "pull", "pull"}));
  // One bucket for everything.
  EXPECT_EQ(outline(fused(net, 1 << 20, BufferMode::in_place)),
            (std::vector<std::string>{"pack", "allreduce(1026)", "unpack"}));
}

TEST(Fused, AnotherDtypeClosesTheBucket) {
  const networks::Network net = keys(
      {{4, dag::DType::f32}, {4, dag::DType::f32}, {4, dag::DType::f16}, {4, dag::DType::f16}});
  const dag::Program p = fused(net, 1 << 20, BufferMode::in_place);
  EXPECT_EQ(outline(p), (std::vector<std::string>{"pack", "allreduce(8)", "unpack", "pack",
                                                  "allreduce(8)", "unpack"}));
  std::vector<dag::DType> dtypes;
  for (const dag::Op& op : p.ops) {
    if (op.collective) dtypes.push_back(op.collective->dtype);
  }
  EXPECT_EQ(dtypes, (std::vector<dag::DType>{dag::DType::f16, dag::DType::f32}));
}

TEST(Fused, EveryAllreduceWritesTheChainAndEveryStepPacksIntoTheSameBuckets) {
  const networks::Network net = keys({{7, dag::DType::f32}, {5, dag::DType::f32}});
  DesignConfig c;
  c.kind = DesignKind::fused;
  const dag::Program p = build_step_job(net, c, {false, 3}).programs.at(0);
  std::size_t buckets = 0;
  for (const dag::Var& v : p.vars) buckets += v.name.rfind("bucket.", 0) == 0 ? 1u : 0u;
  EXPECT_EQ(buckets, 1u);
  std::size_t chained = 0;
  for (const dag::Op& op : p.ops) {
    if (!op.collective) continue;
    for (dag::VarId v : op.writes) chained += p.vars.at(v).name == "allreduce.chain" ? 1u : 0u;
  }
  EXPECT_EQ(chained, 3u);
  c.order_guard = false;
  const dag::Job unguarded = build_step_job(net, c, {});
  for (const dag::Var& v : unguarded.programs.at(0).vars) {
    EXPECT_NE(v.name, "allreduce.chain");
  }
}

}  // namespace
}  // namespace ordo::designs
