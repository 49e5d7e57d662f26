// The checks the explicit search keeps on in release builds must fail when what they guard is
// broken: an encoding that does not read back as its state's fields, and a transition the
// partial-order reduction takes as local that writes another rank or a communicator. And on the
// states random walks reach through every design, what they guard must hold.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "checker/search/reduction.hpp"
#include "checker/system/encoding.hpp"
#include "checker/system/encoding_check.hpp"
#include "checker/system/state.hpp"
#include "checker/system/transitions.hpp"
#include "runtime/designs/step_builder.hpp"
#include "tests/checker/jobs.hpp"

namespace ordo::checker::testing {
namespace {

std::vector<dag::Job> jobs() {
  return {step_job(networks::mlp(2, 2, 1.0), config(designs::DesignKind::depcha, 2)),
          step_job(networks::mlp(2, 2, 1.0), config(designs::DesignKind::concom, 2)),
          step_job(networks::mlp(1, 2, 1.0), config(designs::DesignKind::funnel, 2)),
          step_job(branches(), config(designs::DesignKind::naive, 2))};
}

// Every state of `walks` random walks (until the end or a violation).
template <typename Visit>
void walk_states(const System& model, int walks, std::uint64_t seed, Visit&& visit) {
  std::mt19937_64 rng(seed);
  for (int walk = 0; walk < walks; ++walk) {
    State state = initial_state(model);
    for (;;) {
      visit(state);
      const std::vector<dag::Transition> enabled = enabled_transitions(model, state);
      if (enabled.empty()) break;
      std::uniform_int_distribution<std::size_t> pick(0, enabled.size() - 1);
      if (apply(model, state, enabled[pick(rng)])) break;
    }
  }
}

// Each one-byte change, the bytes cut short, and one byte more must all be told apart.
template <typename Check>
void expect_every_corruption_caught(const std::string& bytes, Check&& check) {
  for (std::size_t at = 0; at < bytes.size(); ++at) {
    for (const unsigned flip : {0x01u, 0x80u}) {
      std::string bad = bytes;
      bad[at] =
          static_cast<char>(static_cast<unsigned char>(static_cast<unsigned char>(bad[at]) ^ flip));
      EXPECT_THROW(check(bad), std::logic_error) << "byte " << at << " ^ " << flip;
    }
  }
  if (!bytes.empty()) {
    EXPECT_THROW(check(bytes.substr(0, bytes.size() - 1)), std::logic_error);
  }
  EXPECT_THROW(check(bytes + '\0'), std::logic_error);
}

TEST(EncodingCheck, ReadsBackEveryRankAndCommunicatorAndCatchesEveryCorruption) {
  for (const dag::Job& job : jobs()) {
    const System model(job, 2);
    std::size_t corrupted = 0;
    walk_states(model, 10, 3, [&](const State& state) {
      for (dag::Rank rank = 0; rank < state.rank_count(); ++rank) {
        const std::string bytes = rank_encoding(state, rank);
        const RankState& r = state.rank(rank);
        EXPECT_NO_THROW(check_rank_encoding(r, bytes));
        if (++corrupted % 7 == 0) {  // a sample: every byte of every state would take long
          expect_every_corruption_caught(bytes,
                                         [&](const std::string& b) { check_rank_encoding(r, b); });
        }
      }
      for (dag::CommId c = 0; c < state.comm_count(); ++c) {
        std::string bytes;
        put_comm(state.comm(c), bytes);
        EXPECT_NO_THROW(check_comm_encoding(state.comm(c), bytes));
        expect_every_corruption_caught(
            bytes, [&](const std::string& b) { check_comm_encoding(state.comm(c), b); });
      }
    });
    EXPECT_GT(corrupted, 20u);
  }
}

TEST(WroteOnly, TellsWhichPartsATransitionCopied) {
  const System model(jobs().front(), 2);
  const State parent = initial_state(model);
  State child = parent;
  EXPECT_TRUE(child.wrote_only(parent, 0));
  child.rank_for_write(0);
  EXPECT_TRUE(child.wrote_only(parent, 0));
  EXPECT_FALSE(child.wrote_only(parent, 1));
  State other = parent;
  other.comm_for_write(0);
  EXPECT_FALSE(other.wrote_only(parent, 0));
}

// What the reduction's run-time check guards, as a property: wherever the ample set is one
// rank's transitions and a strict subset, each of them writes that rank only.
TEST(AmpleSets, TransitionsTakenAsLocalWriteTheirRankOnly) {
  for (const dag::Job& job : jobs()) {
    const System model(job, 2);
    std::size_t reduced = 0;
    walk_states(model, 20, 9, [&](const State& state) {
      const std::vector<dag::Transition> enabled = enabled_transitions(model, state);
      const std::vector<dag::Transition> ample = ample_transitions(model, state, enabled);
      if (ample.size() == enabled.size()) return;
      ++reduced;
      for (const dag::Transition& t : ample) {
        State child = state;
        EXPECT_FALSE(apply(model, child, t).has_value());
        EXPECT_TRUE(child.wrote_only(state, t.rank)) << dag::to_string(t.kind) << " " << t.op;
      }
    });
    EXPECT_GT(reduced, 10u);
  }
}

}  // namespace
}  // namespace ordo::checker::testing
