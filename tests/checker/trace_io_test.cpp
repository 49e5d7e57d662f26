// The trace format: what write_trace writes, read_trace reads back transition for transition;
// malformed traces fail with the place and the expectation; a trace for another job is caught
// before it runs.
#include "checker/witness/trace_io.hpp"

#include <gtest/gtest.h>

#include "checker/search/explore.hpp"
#include "runtime/errors/input_error.hpp"
#include "tests/checker/jobs.hpp"

namespace ordo::checker::testing {
namespace {

Result naive_witness(const System& model) {
  Result r = explore(model, {100'000, 60.0});
  EXPECT_EQ(r.verdict, Verdict::unsafe);
  return r;
}

TEST(TraceIo, AWitnessRoundTrips) {
  const System model(step_job(branches(), config(designs::DesignKind::naive, 1)), 2);
  const Result result = naive_witness(model);
  const Trace trace = read_trace(write_trace(model, result));
  EXPECT_EQ(trace.ranks, 2u);
  ASSERT_TRUE(trace.property);
  EXPECT_EQ(*trace.property, short_name(*result.property));
  EXPECT_EQ(trace.transitions, result.witness);
  EXPECT_FALSE(trace_mismatch(model, trace));
}

void expect_error(const std::string& text, const std::string& where, const std::string& words) {
  try {
    read_trace(text);
    ADD_FAILURE() << "accepted: " << text;
  } catch (const errors::InputError& e) {
    EXPECT_EQ(e.where(), where) << e.what();
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

TEST(TraceIo, MalformedTracesNameThePlaceAndTheExpectation) {
  const std::string head =
      R"({"format": "ordo-trace", "version": 3, "ranks": 2, "transitions": )";
  expect_error("{", "line 1, column 2", "");
  expect_error(R"({"format": "ordo-dag", "version": 2, "ranks": 2, "transitions": []})",
               "/format", "ordo-trace");
  // Version 1 traces took a collective op's claim and issue as one transition (S3), version 2
  // called the transitions "steps": both refused, with the version expected.
  expect_error(R"({"format": "ordo-trace", "version": 1, "ranks": 2, "steps": []})", "/version",
               "unsupported version 1; expected version 3");
  expect_error(R"({"format": "ordo-trace", "version": 2, "ranks": 2, "steps": []})", "/version",
               "unsupported version 2; expected version 3");
  expect_error(R"({"format": "ordo-trace", "version": 3, "ranks": 2, "steps": []})", "/steps",
               "unknown field");
  expect_error(R"({"format": "ordo-trace", "version": 3, "ranks": 0, "transitions": []})",
               "/ranks", "at least 1");
  expect_error(head + R"([{"rank": 2, "event": "main"}]})", "/transitions/0", "below 2");
  expect_error(head + R"([{"rank": 0, "event": "begin"}]})", "/transitions/0/event", "main");
  expect_error(head + R"([{"rank": 0, "event": "claim", "op": 1}]})", "/transitions/0", "thread");
  expect_error(head + R"([{"rank": 0, "event": "start", "op": 1}]})", "/transitions/0/event",
               "claim");
  expect_error(head + R"([{"rank": 0, "event": "complete"}]})", "/transitions/0", "op");
  expect_error(head + R"([{"rank": 0, "event": "issue"}]})", "/transitions/0", "op");
  expect_error(head + R"([{"rank": 0, "event": "issue", "op": 1, "thread": 0}]})",
               "/transitions/0/thread", "claim");
  expect_error(head + R"([{"rank": 0, "event": "main", "op": 3}]})", "/transitions/0/op", "main");
  expect_error(head + R"([{"rank": 0, "event": "main", "colour": 3}]})", "/transitions/0/colour",
               "unknown field");
}

TEST(TraceIo, ATraceForAnotherJobIsCaught) {
  const System model(step_job(branches(), config(designs::DesignKind::naive, 1)), 2);
  Trace trace = read_trace(write_trace(model, naive_witness(model)));
  Trace renamed = trace;
  for (std::size_t i = 0; i < renamed.op_names.size(); ++i) {
    if (renamed.op_names[i]) {
      renamed.op_names[i] = "something.else";
      break;
    }
  }
  ASSERT_TRUE(trace_mismatch(model, renamed));
  EXPECT_NE(trace_mismatch(model, renamed)->find("something.else"), std::string::npos);
  const System three(step_job(branches(), config(designs::DesignKind::naive, 1)), 3);
  ASSERT_TRUE(trace_mismatch(three, trace));
  EXPECT_NE(trace_mismatch(three, trace)->find("3"), std::string::npos);
}

}  // namespace
}  // namespace ordo::checker::testing
