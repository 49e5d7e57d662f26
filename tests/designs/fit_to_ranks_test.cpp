// designs::fit_to_ranks, the one place a design is fitted to its job's rank count: what each
// design takes from the rank count and the node layout, and what it refuses, in which words.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "runtime/designs/design_config.hpp"

namespace ordo::designs {
namespace {

DesignConfig of(DesignKind kind) {
  DesignConfig c;
  c.kind = kind;
  return c;
}

std::string refusal(const DesignConfig& config, std::optional<std::uint32_t> ranks,
                    std::optional<NodeLayout> layout = std::nullopt) {
  try {
    fit_to_ranks(config, ranks, layout);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(DesignFit, TheKindsSayWhatTheirProgramIsWrittenFor) {
  EXPECT_TRUE(written_for_ranks(DesignKind::sharded));
  EXPECT_TRUE(written_for_ranks(DesignKind::hierarchical));
  EXPECT_FALSE(written_for_ranks(DesignKind::depcha));
  EXPECT_TRUE(needs_node_layout(DesignKind::hierarchical));
  EXPECT_FALSE(needs_node_layout(DesignKind::sharded));
  EXPECT_TRUE(compute_shrinks_with_ranks(DesignKind::sharded));
  EXPECT_FALSE(compute_shrinks_with_ranks(DesignKind::hierarchical));
}

TEST(DesignFit, ADesignValidAtAnyRankCountComesBackAsGiven) {
  const DesignConfig depcha = of(DesignKind::depcha);
  EXPECT_EQ(fit_to_ranks(depcha, 8), depcha);
  EXPECT_EQ(fit_to_ranks(depcha, std::nullopt), depcha);
}

TEST(DesignFit, ShardedShardsOverTheRankCountUnlessToldOtherwise) {
  EXPECT_EQ(fit_to_ranks(of(DesignKind::sharded), 4).shards, 4u);
  DesignConfig given = of(DesignKind::sharded);
  given.shards = 4;
  EXPECT_EQ(fit_to_ranks(given, 4).shards, 4u);
  EXPECT_EQ(fit_to_ranks(given, std::nullopt).shards, 4u);
  EXPECT_EQ(refusal(given, 8),
            "design sharded: --shards 4 on a world of 8 ranks; expected the rank count, 8 (or no "
            "--shards)");
  EXPECT_NE(refusal(of(DesignKind::sharded), std::nullopt).find("written for a rank count"),
            std::string::npos);
}

TEST(DesignFit, HierarchicalTakesTheWorldsLayout) {
  const DesignConfig fitted = fit_to_ranks(of(DesignKind::hierarchical), 4, NodeLayout{2, 2});
  EXPECT_EQ(fitted.nodes, 2u);
  EXPECT_EQ(fitted.node_ranks, 2u);
  DesignConfig given = of(DesignKind::hierarchical);
  given.nodes = 2;
  given.node_ranks = 1;
  EXPECT_EQ(refusal(given, 2, NodeLayout{1, 2}),
            "design hierarchical: --nodes 2 --node-ranks 1 on a world of 1 node(s) of 2 "
            "rank(s); expected that layout (or no --nodes, --node-ranks)");
}

TEST(DesignFit, HierarchicalFillsInItsLayoutFromTheRankCount) {
  DesignConfig per_node = of(DesignKind::hierarchical);
  per_node.node_ranks = 4;
  EXPECT_EQ(fit_to_ranks(per_node, 8).nodes, 2u);
  EXPECT_NE(refusal(per_node, 6).find("not a whole number of nodes of 4"), std::string::npos);
  DesignConfig nodes = of(DesignKind::hierarchical);
  nodes.nodes = 2;
  EXPECT_EQ(fit_to_ranks(nodes, 8).node_ranks, 4u);
  DesignConfig both = per_node;
  both.nodes = 2;
  EXPECT_EQ(fit_to_ranks(both, std::nullopt), both);
  EXPECT_EQ(refusal(both, 4),
            "design hierarchical: --nodes 2 --node-ranks 4 on a world of 4 ranks; expected nodes "
            "x node-ranks = 4 (or one of --nodes, --node-ranks)");
  EXPECT_NE(refusal(of(DesignKind::hierarchical), 4).find("written for a node layout"),
            std::string::npos);
  EXPECT_NE(refusal(per_node, std::nullopt).find("written for a node layout"), std::string::npos);
}

}  // namespace
}  // namespace ordo::designs
