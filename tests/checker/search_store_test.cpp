// The explicit search's storage: the visited set must answer exactly as a set of strings would
// (a wrong "seen" skips a state and can turn unsafe into safe), copy-on-write state parts must
// never let a write through to a sharer, even when nodes are recycled, and the reusable state
// keys must be equal exactly when the plain encodings are, on every state a random walk reaches.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "checker/search/state_keys.hpp"
#include "checker/search/transition_memo.hpp"
#include "checker/search/visited_set.hpp"
#include "checker/system/cow_box.hpp"
#include "checker/system/encoding.hpp"
#include "checker/system/state.hpp"
#include "checker/system/transitions.hpp"
#include "runtime/designs/step_builder.hpp"
#include "tests/checker/jobs.hpp"

namespace ordo::checker::testing {
namespace {

std::string random_bytes(std::mt19937_64& rng, std::size_t max_length) {
  std::uniform_int_distribution<std::size_t> length(0, max_length);
  std::uniform_int_distribution<int> byte(0, 3);  // few symbols: many near-equal strings
  std::string s(length(rng), '\0');
  for (char& c : s) c = static_cast<char>(byte(rng));
  return s;
}

// Strings up to 20 bytes: without numbers, some kept in the table itself (up to 15), some stored,
// and strings that differ only in length or in their last byte on either side of that line.
TEST(VisitedSet, AnswersAsASetOfStringsDoes) {
  for (const bool numbered : {false, true}) {
    std::mt19937_64 rng(7);
    VisitedSet visited(numbered);
    std::unordered_set<std::string> model;
    for (int i = 0; i < 200'000; ++i) {  // several table growths and chunks
      const std::string s = random_bytes(rng, 20);
      EXPECT_EQ(visited.insert(s), model.insert(s).second) << "insert " << i;
    }
    EXPECT_EQ(visited.size(), model.size());
    for (const std::string& s : model) EXPECT_FALSE(visited.insert(s));
  }
}

// A numbered set numbers encodings 0, 1, 2, ... in the order they were first added, and gives
// an encoding its number again whenever it is added again: the state keys rely on a number
// standing for exactly one encoding.
TEST(VisitedSet, NumbersEachEncodingOnceInTheOrderAdded) {
  std::mt19937_64 rng(3);
  VisitedSet numbered(true);
  VisitedSet plain;
  std::map<std::string, VisitedSet::Place> number_of;
  for (int i = 0; i < 50'000; ++i) {
    const std::string s = random_bytes(rng, 10);
    const VisitedSet::Found found = numbered.find_or_insert(s);
    const auto [it, inserted] = number_of.emplace(s, number_of.size());
    EXPECT_EQ(found.inserted, inserted);
    EXPECT_EQ(found.place, it->second) << "insert " << i;
    EXPECT_EQ(plain.find_or_insert(s).place, 0u);
  }
  EXPECT_EQ(numbered.size(), number_of.size());
}

TEST(VisitedSet, KeepsEncodingsLargerThanAChunkAndTheEmptyOne) {
  for (const bool numbered : {false, true}) {
    VisitedSet visited(numbered);
    const std::string big(3u << 20, 'x');
    std::string big_other = big;
    big_other.back() = 'y';
    EXPECT_TRUE(visited.insert(big));
    EXPECT_TRUE(visited.insert(big_other));
    EXPECT_TRUE(visited.insert(""));
    EXPECT_TRUE(visited.insert(std::string(1, '\0')));  // the empty one's bits but its length
    EXPECT_TRUE(visited.insert(std::string(15, '\0')));
    EXPECT_TRUE(visited.insert(std::string(16, '\0')));
    EXPECT_FALSE(visited.insert(big));
    EXPECT_FALSE(visited.insert(big_other));
    EXPECT_FALSE(visited.insert(""));
    EXPECT_FALSE(visited.insert(std::string(15, '\0')));
    EXPECT_FALSE(visited.insert(std::string(16, '\0')));
    EXPECT_EQ(visited.size(), 6u);
  }
}

TEST(CowBox, AWriteNeverReachesASharerEvenWithRecycledNodes) {
  std::vector<CowBox<std::vector<int>>> boxes;
  boxes.emplace_back(std::vector<int>{1, 2, 3});
  for (int round = 0; round < 100; ++round) {
    CowBox<std::vector<int>> copy = boxes.back();
    copy.write().push_back(round);
    EXPECT_EQ(boxes.back().get().size() + 1, copy.get().size());
    {
      CowBox<std::vector<int>> dropped = copy;  // shared, then written and released
      dropped.write().assign(50, -1);
    }
    EXPECT_EQ(copy.get().back(), round);
    boxes.push_back(copy);
  }
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    ASSERT_EQ(boxes[i].get().size(), 3 + i);
    for (std::size_t k = 3; k < boxes[i].get().size(); ++k) {
      EXPECT_EQ(boxes[i].get()[k], static_cast<int>(k - 3));
    }
  }
}

// States from random walks through a design, with older states kept alive and shared with their
// successors: two states must get equal keys exactly when their plain encodings are equal, both
// with and without the renaming of ranks, and a state's key must not change between calls.
TEST(StateKeys, AreEqualExactlyWhenThePlainEncodingsAre) {
  const System model(step_job(networks::mlp(2, 2, 1.0), config(designs::DesignKind::depcha, 2)), 3);
  ASSERT_TRUE(model.ranks_interchangeable());
  for (const bool symmetry : {false, true}) {
    StateKeys keys(model, symmetry);
    std::map<std::string, std::string> plain_of_key;
    std::map<std::string, std::string> key_of_plain;
    std::vector<std::pair<State, std::string>> kept;
    std::mt19937_64 rng(11);
    const auto check = [&](const State& state) {
      const std::string key(keys.key(state));
      const std::string plain =
          symmetry ? encode_up_to_rank_renaming(model, state) : encode(model, state);
      const auto [k, new_key] = plain_of_key.emplace(key, plain);
      EXPECT_EQ(k->second, plain) << "one key for two different states";
      const auto [p, new_plain] = key_of_plain.emplace(plain, key);
      EXPECT_EQ(p->second, key) << "two keys for one state";
      return key;
    };
    for (int walk = 0; walk < 40; ++walk) {
      State state = initial_state(model);
      for (;;) {
        kept.emplace_back(state, check(state));
        const std::vector<dag::Transition> enabled = enabled_transitions(model, state);
        if (enabled.empty()) break;
        std::uniform_int_distribution<std::size_t> pick(0, enabled.size() - 1);
        ASSERT_FALSE(apply(model, state, enabled[pick(rng)]).has_value());
      }
      EXPECT_TRUE(finished(model, state));
    }
    for (const auto& [state, key] : kept) EXPECT_EQ(std::string(keys.key(state)), key);
    // Walks meet (at least at the initial and the final state), so equal keys were compared.
    EXPECT_LT(plain_of_key.size() + 2 * 39, kept.size());
  }
}

// A key made from the parent's parts, for a child that wrote one rank only, must be the key made
// afresh, with and without symmetry; and so must its parts, which the child's own children use.
TEST(StateKeys, MadeFromTheParentsPartsEqualTheKeysMadeAfresh) {
  const System model(step_job(networks::mlp(2, 2, 1.0), config(designs::DesignKind::depcha, 2)), 3);
  for (const bool symmetry : {false, true}) {
    StateKeys keys(model, symmetry);
    std::mt19937_64 rng(23);
    std::size_t compared = 0;
    for (int walk = 0; walk < 20; ++walk) {
      State state = initial_state(model);
      StateKeys::Parts parts;
      keys.key(state, parts);
      for (;;) {
        const std::vector<dag::Transition> enabled = enabled_transitions(model, state);
        if (enabled.empty()) break;
        for (const dag::Transition& t : enabled) {
          State child = state;
          ASSERT_FALSE(apply(model, child, t).has_value());
          if (!child.wrote_only(state, t.rank)) continue;
          StateKeys::Parts after;
          const std::string from_parent(keys.key_after(child, t.rank, parts, after));
          StateKeys::Parts fresh;
          EXPECT_EQ(from_parent, std::string(keys.key(child, fresh)));
          EXPECT_EQ(after.ranks, fresh.ranks);
          EXPECT_EQ(after.views, fresh.views);
          EXPECT_EQ(after.comms, fresh.comms);
          ++compared;
        }
        std::uniform_int_distribution<std::size_t> pick(0, enabled.size() - 1);
        ASSERT_FALSE(apply(model, state, enabled[pick(rng)]).has_value());
        keys.key(state, parts);
      }
    }
    EXPECT_GT(compared, 1000u);
  }
}

// What the encoding rests on (checker/system/encoding.hpp): two states with equal encodings have
// the same future. Checked here one transition deep on the states random walks reach, over jobs
// that exercise every phase: the transitions enabled in both must be the same (thread names aside,
// which the encoding leaves out on purpose), and so must the encodings after each.
TEST(Encoding, EqualEncodingsHaveTheSameTransitions) {
  const std::vector<dag::Job> jobs = {
      step_job(networks::mlp(2, 2, 1.0), config(designs::DesignKind::depcha, 2)),
      step_job(networks::mlp(1, 2, 1.0), config(designs::DesignKind::funnel, 2)),
      step_job(branches(), config(designs::DesignKind::naive, 2))};
  for (const dag::Job& job : jobs) {
    const System model(job, 2);
    // The transitions with their thread left out, and the encoding each leads to.
    const auto future = [&](const State& state) {
      std::vector<std::string> transitions;
      for (const dag::Transition& transition : enabled_transitions(model, state)) {
        State next = state;
        const bool violates = apply(model, next, transition).has_value();
        transitions.push_back(std::string(dag::to_string(transition.kind)) + " " +
                              std::to_string(transition.rank) + " " +
                              std::to_string(transition.op) +
                              (violates ? " violates" : " -> " + encode(model, next)));
      }
      std::sort(transitions.begin(), transitions.end());
      return transitions;
    };
    std::map<std::string, std::vector<std::string>> future_of;
    std::mt19937_64 rng(5);
    std::size_t compared = 0;
    for (int walk = 0; walk < 60; ++walk) {
      State state = initial_state(model);
      for (;;) {
        const auto [it, inserted] = future_of.emplace(encode(model, state), future(state));
        if (!inserted) {
          ++compared;
          EXPECT_EQ(it->second, future(state));
        }
        const std::vector<dag::Transition> enabled = enabled_transitions(model, state);
        if (enabled.empty()) break;
        std::uniform_int_distribution<std::size_t> pick(0, enabled.size() - 1);
        if (apply(model, state, enabled[pick(rng)])) break;
      }
    }
    EXPECT_GT(compared, 60u);
  }
}

// The memo answers for exactly the (rank, piece, transition) it was given, and keeps one part per
// rank and successor piece, so that every state reached by it shares that part; a claim's thread
// is part of the transition. That the successor's piece is a function of those three is the
// encoding's promise, which Encoding.EqualEncodingsHaveTheSameTransitions checks.
TEST(TransitionMemo, AnswersForWhatItKeptAndSharesOnePartPerPiece) {
  const System model(step_job(networks::mlp(1, 2, 1.0), config(designs::DesignKind::depcha, 2)), 2);
  const State state = initial_state(model);
  TransitionMemo memo;
  const dag::Transition submit{dag::Transition::Kind::main, 0, 0, std::nullopt};
  const dag::Transition claim0{dag::Transition::Kind::claim, 0, 3, 0u};
  const dag::Transition claim1{dag::Transition::Kind::claim, 0, 3, 1u};
  EXPECT_FALSE(memo.find(0, 7, submit).has_value());
  const TransitionMemo::Successor first = memo.add(0, 7, submit, 9, state.rank_part(0));
  const TransitionMemo::Successor second = memo.add(0, 8, claim0, 9, state.rank_part(1));
  EXPECT_EQ(first.part, second.part);  // one part for rank 0's piece 9
  EXPECT_TRUE(memo.part(second.part).shares(state.rank_part(0)));
  const TransitionMemo::Successor other_rank = memo.add(1, 8, claim0, 9, state.rank_part(1));
  EXPECT_NE(other_rank.part, first.part);
  ASSERT_TRUE(memo.find(0, 7, submit).has_value());
  EXPECT_EQ(memo.find(0, 7, submit)->piece, 9u);
  EXPECT_FALSE(memo.find(0, 7, claim0).has_value());  // another transition
  EXPECT_FALSE(memo.find(1, 7, submit).has_value());  // another rank
  EXPECT_FALSE(memo.find(0, 8, claim1).has_value());  // another thread
  EXPECT_TRUE(memo.find(0, 8, claim0).has_value());
  // Many entries: the table grows and still answers every one.
  for (VisitedSet::Place piece = 100; piece < 5100; ++piece) {
    memo.add(0, piece, submit, piece + 1, state.rank_part(0));
  }
  for (VisitedSet::Place piece = 100; piece < 5100; ++piece) {
    const std::optional<TransitionMemo::Successor> s = memo.find(0, piece, submit);
    ASSERT_TRUE(s.has_value());
    EXPECT_EQ(s->piece, piece + 1);
  }
  EXPECT_EQ(memo.size(), 5003u);
}

}  // namespace
}  // namespace ordo::checker::testing
