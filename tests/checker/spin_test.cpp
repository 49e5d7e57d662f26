// SPIN and ordo's explicit checker must agree: every instance is exported to Promela, searched
// exhaustively by SPIN, and SPIN's verdict (no error, an assertion naming P1 or P2, or an invalid
// end state for P3/P4) must be the one checker::explore gives. The instances cover every design,
// safe and unsafe, the paper's Fig. 4 init and the hand-written deadlocks; each also has the
// verdict its design predicts, so two checkers that were wrong the same way would still fail.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "checker/promela/export.hpp"
#include "checker/promela/signatures.hpp"
#include "checker/promela/spin_run.hpp"
#include "checker/search/explore.hpp"
#include "runtime/comm/rules/call.hpp"
#include "runtime/designs/step_builder.hpp"
#include "tests/checker/jobs.hpp"
#include "tests/checker/spin_test_jobs.hpp"

namespace ordo::checker::testing {
namespace {

using designs::DesignKind;
using promela::SpinVerdict;

struct Instance {
  std::string name;
  std::function<dag::Job()> job;
  std::uint32_t ranks = 2;
  // The properties the design can break; empty: safe. Where several are reachable, which one a
  // search meets first depends on its order, so any of them is a right first answer.
  std::vector<Property> breaks;
  comm::Backend backend = comm::Backend::mpi;
};

void PrintTo(const Instance& instance, std::ostream* out) { *out << instance.name; }

dag::Job concom(std::uint32_t ncomm, std::uint32_t outstanding, std::uint32_t threads) {
  designs::DesignConfig c = config(DesignKind::concom, threads);
  c.ncomm = ncomm;
  c.outstanding = outstanding;
  return step_job(networks::mlp(1, 2, 1.0), c);
}

// The paper's init: broadcast ops that write nothing, on a two-thread comm pool.
dag::Job fig4_init() {
  designs::DesignConfig c = config(DesignKind::depcha, 2);
  c.init = designs::InitKind::fig4;
  designs::StepOptions options;
  options.include_init = true;
  return designs::build_step_job(networks::mlp(1, 2, 1.0), c, options);
}

// Two allreduces that a compute op releases in the same event, on a one-thread comm pool. Rank 0's
// pool is FIFO (submit order: key 0 first); rank 1's is a priority pool that prefers key 1. With
// `rank1_priority` false both are FIFO and the order agrees.
dag::Job released_together(bool rank1_priority) {
  dag::Job job;
  job.ranks = 2;
  job.comms = {{"world", std::nullopt}};
  for (dag::Rank rank = 0; rank < 2; ++rank) {
    dag::Program p;
    p.name = "rank" + std::to_string(rank);
    p.ranks = std::vector<dag::Rank>{rank};
    const bool priority = rank == 1 && rank1_priority;
    p.pools = {{"compute", 1, dag::PoolKind::fifo},
               {"comm", 1, priority ? dag::PoolKind::priority : dag::PoolKind::fifo}};
    p.vars = {{"grad", dag::VarKind::tensor, 16, dag::DType::f32},
              {"buf0", dag::VarKind::buffer, 16, dag::DType::f32},
              {"buf1", dag::VarKind::buffer, 16, dag::DType::f32}};
    dag::Op backward;
    backward.name = "backward";
    backward.writes = {0};
    p.ops.push_back(backward);
    for (std::int64_t key = 0; key < 2; ++key) {
      dag::Op op;
      op.name = "allreduce" + std::to_string(key);
      op.kind = dag::OpKind::collective;
      op.pool = 1;
      op.priority = static_cast<std::int32_t>(key);
      op.reads = {0};
      op.writes = {static_cast<dag::VarId>(1 + key)};
      op.collective = dag::Collective{dag::CollectiveKind::allreduce,
                                      0,
                                      key,
                                      4,
                                      dag::DType::f32,
                                      dag::Reduction::sum,
                                      std::nullopt};
      p.ops.push_back(op);
    }
    for (dag::OpId op = 0; op < 3; ++op) p.main.emplace_back(dag::SubmitAction{op});
    p.main.emplace_back(dag::WaitForAllAction{});
    job.programs.push_back(p);
  }
  return job;
}

std::vector<Instance> instances() {
  using enum Property;
  constexpr comm::Backend nccl = comm::Backend::nccl;
  const auto design = [](DesignKind kind, std::uint32_t threads) {
    return [=] { return step_job(networks::mlp(1, 2, 1.0), config(kind, threads)); };
  };
  return {
      {"naive_branches",
       [] { return step_job(branches(), config(DesignKind::naive, 1)); },
       2,
       {p1_order}},
      // Two comm threads: both allreduces in flight on one rank (P2), or in different orders.
      {"naive_two_threads", design(DesignKind::naive, 2), 2, {p1_order, p2_thread_rule}},
      {"funnel", design(DesignKind::funnel, 2), 2, {}},
      {"funnel_three_ranks", design(DesignKind::funnel, 2), 3, {}},
      {"depcha", design(DesignKind::depcha, 2), 2, {}},
      {"depcha_one_key_three_ranks",
       [] { return step_job(one_key(), config(DesignKind::depcha, 2)); },
       3,
       {}},
      {"concom_two_comms", [] { return concom(2, 2, 2); }, 2, {}},
      // One comm thread runs the allreduces in submit order on every rank.
      {"concom_two_comms_one_thread", [] { return concom(2, 2, 1); }, 2, {}},
      {"concom_one_comm", [] { return concom(1, 2, 2); }, 2, {p2_thread_rule}},
      {"fig4_init_two_threads", fig4_init, 2, {p1_order, p2_thread_rule}},
      {"barrier_cycle", barrier_cycle, 3, {p3_deadlock}},
      {"barrier_chain", barrier_chain, 3, {}},
      {"extra_allreduce", [] { return allreduce_counts(2, 1); }, 2, {p3_deadlock}},
      {"fifo_pools_agree", [] { return released_together(false); }, 2, {}},
      {"priority_pool_reorders", [] { return released_together(true); }, 2, {p1_order}},
      // The rules of docs/semantics.md S3 and C2 that the model states on its own.
      {"async_pair_two_threads", async_pair_two_threads, 2, {p1_order}},
      {"blocking_meets_non_blocking", blocking_meets_non_blocking, 2, {p1_order}},
      {"barriers_of_different_keys", barriers_of_different_keys, 2, {}},
      {"reduce_roots_differ", reduce_roots_differ, 2, {p1_order}},
      // The NCCL semantics (docs/semantics.md, D1-D4), which the model states with its streams:
      // two comm threads launch onto two communicators in either order, and the streams' heads
      // wait for each other; one thread launches in one order; a blocking call meets a launch
      // without a mismatch, since NCCL has no blocking form; main threads' cycles stay cycles.
      {"nccl_concom_two_comms", [] { return concom(2, 2, 2); }, 2, {p3_deadlock}, nccl},
      {"nccl_concom_two_comms_one_thread", [] { return concom(2, 2, 1); }, 2, {}, nccl},
      {"nccl_depcha",
       [] { return step_job(branches(), config(DesignKind::depcha, 2)); },
       2,
       {},
       nccl},
      {"nccl_blocking_meets_non_blocking", blocking_meets_non_blocking, 2, {}, nccl},
      {"nccl_barrier_cycle", barrier_cycle, 3, {p3_deadlock}, nccl},
      {"nccl_barrier_chain", barrier_chain, 3, {}, nccl},
  };
}

// What SPIN must report for the checker's property.
SpinVerdict spin_kind(std::optional<Property> property) {
  if (!property) return SpinVerdict::safe;
  switch (*property) {
    case Property::p1_order:
    case Property::p2_thread_rule:
      return SpinVerdict::assertion;
    case Property::p3_deadlock:
    case Property::p4_termination:
      break;
    case Property::p5_buffers:  // the export refuses a job whose buffers may race
      ADD_FAILURE() << "a P5 case among the SPIN cases";
      break;
  }
  return SpinVerdict::invalid_end_state;
}

std::string spin_assertion(std::optional<Property> property) {
  if (property == Property::p1_order) return "p1_order_consistent";
  if (property == Property::p2_thread_rule) return "p2_thread_rule_kept";
  return "";
}

// Small instances: compiling pan.c dominates, so it is compiled without optimisation, and a
// small hash table is enough.
promela::SpinOptions spin_options() {
  promela::SpinOptions o;
  o.seconds_max = 120;
  o.optimization = "-O0";
  o.hash_bits = 20;
  return o;
}

// SPIN reporting only the kind of violation `property` is.
promela::SpinOptions targeting(Property property) {
  promela::SpinOptions o = spin_options();
  o.report_p1 = property == Property::p1_order;
  o.report_p2 = property == Property::p2_thread_rule;
  o.report_deadlocks = property == Property::p3_deadlock || property == Property::p4_termination;
  return o;
}

std::string summary(const promela::SpinResult& spin) {
  std::ostringstream out;
  out << promela::to_string(spin.verdict) << (spin.assertion.empty() ? "" : " ") << spin.assertion
      << ", " << spin.states_stored << " states, compile " << spin.compile_seconds << " s, search "
      << spin.search_seconds << " s";
  return out.str();
}

// Searches `model` with SPIN and requires the checker's verdict `ordo`: no error when it is safe;
// otherwise a violation of the same kind, met first or, when SPIN meets another kind first,
// reachable when SPIN reports that kind alone.
void expect_spin_agrees(const System& model, const Result& ordo) {
  const std::string text = promela::export_promela(model);
  const promela::SpinHints hints = promela::spin_hints(model);
  const promela::SpinResult spin = promela::run_spin(text, hints, spin_options());
  std::cout << "ordo: " << to_string(ordo.verdict) << ' '
            << (ordo.property ? to_string(*ordo.property) : "") << ", " << ordo.stats.states
            << " states, " << ordo.stats.seconds << " s; SPIN: " << summary(spin) << '\n';
  ASSERT_NE(spin.verdict, SpinVerdict::incomplete) << spin.incomplete_why << '\n'
                                                   << spin.pan_output;
  ASSERT_NE(spin.verdict, SpinVerdict::model_error) << spin.pan_output;
  if (ordo.verdict == Verdict::safe) {
    EXPECT_EQ(spin.verdict, SpinVerdict::safe) << spin.pan_output;
    // Every execution was searched to its end: none is longer than the depth SPIN allowed.
    EXPECT_LT(spin.depth_reached, hints.depth_max);
    return;
  }
  const Property property = *ordo.property;
  ASSERT_NE(spin.verdict, SpinVerdict::safe) << report(model, ordo);
  if (spin.verdict == spin_kind(property) && spin.assertion == spin_assertion(property)) return;
  const promela::SpinResult targeted = promela::run_spin(text, hints, targeting(property));
  std::cout << "SPIN for " << to_string(property) << " alone: " << summary(targeted) << '\n';
  EXPECT_EQ(targeted.verdict, spin_kind(property)) << targeted.pan_output << '\n'
                                                   << report(model, ordo);
  EXPECT_EQ(targeted.assertion, spin_assertion(property)) << targeted.pan_output;
}

constexpr ExploreLimits limits{2'000'000, 120.0};

class SpinAgreement : public ::testing::TestWithParam<Instance> {};

TEST_P(SpinAgreement, SameVerdictAsTheExplicitChecker) {
  const Instance& instance = GetParam();
  const System model(instance.job(), instance.ranks, instance.backend);
  const Result ordo = explore(model, limits);
  ASSERT_NE(ordo.verdict, Verdict::unknown) << report(model, ordo);
  if (instance.breaks.empty()) {
    EXPECT_EQ(ordo.verdict, Verdict::safe) << report(model, ordo);
  } else {
    ASSERT_EQ(ordo.verdict, Verdict::unsafe) << report(model, ordo);
    EXPECT_NE(std::find(instance.breaks.begin(), instance.breaks.end(), *ordo.property),
              instance.breaks.end())
        << report(model, ordo);
  }
  expect_spin_agrees(model, ordo);
}

class SpinAgreementRandom : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(SpinAgreementRandom, SameVerdictAsTheExplicitChecker) {
  const System model(random_small_job(GetParam()), 2);
  const Result ordo = explore(model, limits);
  ASSERT_NE(ordo.verdict, Verdict::unknown) << report(model, ordo);
  expect_spin_agrees(model, ordo);
}

INSTANTIATE_TEST_SUITE_P(Seeds, SpinAgreementRandom, ::testing::Range<std::uint64_t>(1, 17));

// The same random jobs under the NCCL semantics: the streams are stated in the model apart from
// comm::settle_streams, so the two must agree on them too.
class SpinAgreementRandomNccl : public ::testing::TestWithParam<std::uint64_t> {};

// The random job with each call NCCL has no collective for (comm::unsupported_reason) made an
// allreduce of the same key and count, so the draw stays the MPI test's otherwise.
dag::Job with_nccl_kinds(dag::Job job) {
  const auto swap = [](dag::Collective& c) {
    if (comm::unsupported_reason(comm::Backend::nccl, c.kind).empty()) return;
    c.kind = dag::CollectiveKind::allreduce;
    c.reduction = dag::Reduction::sum;
    c.root.reset();
  };
  for (dag::Program& p : job.programs) {
    for (dag::Op& op : p.ops) {
      if (op.collective) swap(*op.collective);
    }
    for (dag::Action& a : p.main) {
      if (auto* c = std::get_if<dag::CollectiveAction>(&a)) swap(c->collective);
    }
  }
  return job;
}

TEST_P(SpinAgreementRandomNccl, SameVerdictAsTheExplicitChecker) {
  const System model(with_nccl_kinds(random_small_job(GetParam())), 2, comm::Backend::nccl);
  const Result ordo = explore(model, limits);
  ASSERT_NE(ordo.verdict, Verdict::unknown) << report(model, ordo);
  expect_spin_agrees(model, ordo);
}

INSTANTIATE_TEST_SUITE_P(Seeds, SpinAgreementRandomNccl, ::testing::Range<std::uint64_t>(1, 9));

INSTANTIATE_TEST_SUITE_P(Instances, SpinAgreement, ::testing::ValuesIn(instances()),
                         [](const ::testing::TestParamInfo<Instance>& param) {
                           return param.param.name;
                         });

// The model decides agreement by comparing signature ids, restated in the exporter apart from
// comm::matches: the two must give the same answer for every pair of calls.
TEST(SpinSignatures, EqualIdsExactlyForCallsThatMatch) {
  std::vector<dag::Collective> calls;
  for (const std::int64_t key : {0, 1}) {
    for (const dag::DType dtype : {dag::DType::f32, dag::DType::f64}) {
      calls.push_back(
          {dag::CollectiveKind::barrier, 0, key, 0, dtype, dag::Reduction::none, std::nullopt});
      for (const std::uint64_t count : {std::uint64_t{1}, std::uint64_t{2}}) {
        for (const dag::Reduction reduction : {dag::Reduction::sum, dag::Reduction::max}) {
          calls.push_back(
              {dag::CollectiveKind::allreduce, 0, key, count, dtype, reduction, std::nullopt});
        }
        for (const dag::Rank root : {dag::Rank{0}, dag::Rank{1}}) {
          calls.push_back(
              {dag::CollectiveKind::bcast, 0, key, count, dtype, dag::Reduction::none, root});
          for (const dag::Reduction reduction : {dag::Reduction::sum, dag::Reduction::max}) {
            calls.push_back({dag::CollectiveKind::reduce, 0, key, count, dtype, reduction, root});
          }
        }
        // Counts of 1 and 2 stand for whole arrays here: matching never divides them.
        for (const dag::Reduction reduction : {dag::Reduction::sum, dag::Reduction::max}) {
          calls.push_back(
              {dag::CollectiveKind::reduce_scatter, 0, key, count, dtype, reduction, std::nullopt});
        }
        calls.push_back({dag::CollectiveKind::allgather, 0, key, count, dtype, dag::Reduction::none,
                         std::nullopt});
      }
    }
  }
  promela::Signatures signatures;
  for (const dag::Collective& a : calls) {
    for (const bool a_blocks : {false, true}) {
      for (const dag::Collective& b : calls) {
        for (const bool b_blocks : {false, true}) {
          EXPECT_EQ(signatures.id(a, a_blocks) == signatures.id(b, b_blocks),
                    comm::matches(comm::call_of(a), a_blocks, comm::call_of(b), b_blocks))
              << comm::describe(comm::call_of(a), "c") << (a_blocks ? " blocking" : "") << " vs "
              << comm::describe(comm::call_of(b), "c") << (b_blocks ? " blocking" : "");
        }
      }
    }
  }
}

TEST(Spin, IsInstalled) {
  // setup.sh installs the Debian package; without it every agreement test fails, and this one
  // says why first.
  ASSERT_EQ(std::system("command -v spin > /dev/null 2>&1"), 0)
      << "SPIN is not on the PATH: install the Debian package spin (scripts/setup.sh does)";
}

}  // namespace
}  // namespace ordo::checker::testing
