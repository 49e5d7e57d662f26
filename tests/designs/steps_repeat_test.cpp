// What makes verifying one step a proof for a run of many: every step a design emits is the same
// program (op names aside, which carry the step), so each step starts from the state the verified
// one started from (the step before ended in wait_for_all). A design that carries state from one
// step into the next (concom once carried a half-full barrier group) breaks this, and a run could
// then do what the verified step cannot: the checker found such a run at two steps.
#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "runtime/designs/step_builder.hpp"
#include "runtime/networks/catalog.hpp"

namespace ordo::designs {
namespace {

std::string strip(const std::string& name) {
  if (name.size() > 1 && name[0] == 's') {
    const std::size_t dot = name.find('.');
    if (dot != std::string::npos && name.find_first_not_of("0123456789", 1) == dot) {
      return name.substr(dot + 1);
    }
  }
  return name;
}

std::string vars(const dag::Program& p, const std::vector<dag::VarId>& ids) {
  std::string s;
  for (dag::VarId v : ids) s += " " + p.vars.at(v).name;
  return s;
}

// Each step's main actions, spelled without step prefixes, split at the step's wait_for_all.
std::vector<std::vector<std::string>> steps_of(const dag::Program& p) {
  std::vector<std::vector<std::string>> steps(1);
  for (const dag::Action& a : p.main) {
    std::string line;
    if (const auto* submit = std::get_if<dag::SubmitAction>(&a)) {
      const dag::Op& op = p.ops.at(submit->op);
      line = "submit " + strip(op.name) + " pool " + std::to_string(op.pool) + " reads" +
             vars(p, op.reads) + " writes" + vars(p, op.writes) +
             (op.collective ? " comm " + std::to_string(op.collective->comm) + " key " +
                                  std::to_string(op.collective->key)
                            : "");
    } else if (const auto* wait = std::get_if<dag::WaitToReadAction>(&a)) {
      line = "wait_to_read " + p.vars.at(wait->var).name;
    } else if (const auto* call = std::get_if<dag::CollectiveAction>(&a)) {
      line = "main collective comm " + std::to_string(call->collective.comm) + " key " +
             std::to_string(call->collective.key);
    } else {
      steps.emplace_back();
      continue;
    }
    steps.back().push_back(line);
  }
  steps.pop_back();  // after the last wait_for_all
  return steps;
}

TEST(StepsRepeat, EveryStepIsTheVerifiedStep) {
  // resnet20 has 59 keys: an odd count, which a design grouping keys in twos carries over.
  for (const std::string name : {"lenet", "resnet20", "mlp"}) {
    const networks::Network net = *networks::builtin_network(name, 3);
    for (const DesignKind kind : {DesignKind::naive, DesignKind::funnel, DesignKind::concom,
                                  DesignKind::depcha, DesignKind::fused, DesignKind::nonblocking,
                                  DesignKind::sharded, DesignKind::hierarchical,
                                  DesignKind::priority}) {
      for (const std::uint32_t outstanding : {2u, 3u}) {
        DesignConfig config;
        config.kind = kind;
        config.outstanding = outstanding;
        config.shards = outstanding;  // sharded: keys that split in two, and keys that do not
        config.nodes = 2;             // hierarchical: nodes of two and of three ranks
        config.node_ranks = outstanding;
        // Buckets that split the keys unevenly, and one bucket of everything.
        config.bucket_bytes = outstanding == 2 ? 5000 : std::uint64_t{25} << 20;
        config.prefetch = outstanding == 3;
        // priority: slices of 1000 bytes, some released at the next push, some at the end.
        config.slice_bytes = 1000;
        config.credit_bytes = outstanding == 2 ? 3000 : 100000;
        SCOPED_TRACE(name + " " + describe(config));
        const auto one = steps_of(build_step_job(net, config, {false, 1}).programs.at(0));
        const auto four = steps_of(build_step_job(net, config, {false, 4}).programs.at(0));
        ASSERT_EQ(one.size(), 1u);
        ASSERT_EQ(four.size(), 4u);
        for (std::size_t s = 0; s < 4; ++s) EXPECT_EQ(four[s], one[0]) << "step " << s + 1;
      }
    }
  }
}

}  // namespace
}  // namespace ordo::designs
