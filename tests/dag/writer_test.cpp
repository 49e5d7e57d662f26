// The writer's layout is part of the format's promise: canonical, deterministic, one table entry
// per line, every field written.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "runtime/dag/dump_reader.hpp"
#include "runtime/dag/dump_writer.hpp"
#include "tests/dag/sample_jobs.hpp"
#include "tests/dag/test_support.hpp"

namespace ordo::dag {
namespace {

using testing::contains;

Job tiny_job() {
  Job job{.ranks = 2};
  job.comms = {{.name = "world"}, {.name = "c01", .members = std::vector<Rank>{0, 1}}};
  Program program{.name = "step", .ranks = std::vector<Rank>{0, 1}};
  program.pools = {{.name = "comm", .threads = 1, .kind = PoolKind::priority}};
  program.vars = {{.name = "buf", .kind = VarKind::buffer, .bytes = 8, .dtype = DType::f64}};
  program.ops = {{.name = "bc",
                  .writes = {0},
                  .pool = 0,
                  .priority = -1,
                  .kind = OpKind::async_collective,
                  .cost_us = 2.5,
                  .collective = Collective{.kind = CollectiveKind::bcast,
                                           .comm = 1,
                                           .key = 3,
                                           .count = 1,
                                           .dtype = DType::f64,
                                           .root = 0}}};
  program.main = {SubmitAction{0}, WaitToReadAction{0}, WaitForAllAction{}};
  job.programs = {program};
  return job;
}

TEST(DagWriter, CanonicalLayout) {
  const std::string expected = R"({
  "format": "ordo-dag",
  "version": 6,
  "ranks": 2,
  "comms": [
    {"name": "world"},
    {"name": "c01", "members": [0, 1]}
  ],
  "programs": [
    {
      "name": "step",
      "ranks": [0, 1],
      "pools": [
        {"name": "comm", "threads": 1, "kind": "priority"}
      ],
      "vars": [
        {"name": "buf", "kind": "buffer", "bytes": 8, "dtype": "f64"}
      ],
      "ops": [
        {"name": "bc", "kind": "async_collective", "pool": "comm", "reads": [], "writes": ["buf"], "priority": -1, "cost_us": 2.5, "collective": {"kind": "bcast", "comm": "c01", "key": 3, "count": 1, "dtype": "f64", "reduction": "none", "root": 0}}
      ],
      "main": [
        {"action": "submit", "op": "bc"},
        {"action": "wait_to_read", "var": "buf"},
        {"action": "wait_for_all"}
      ]
    }
  ]
}
)";
  EXPECT_EQ(write_dump(tiny_job()), expected);
}

TEST(DagWriter, EmptyTablesAndSpmd) {
  Job job;
  job.programs = {Program{.name = "idle"}};
  EXPECT_EQ(write_dump(job), R"({
  "format": "ordo-dag",
  "version": 6,
  "comms": [],
  "programs": [
    {
      "name": "idle",
      "ranks": "all",
      "pools": [],
      "vars": [],
      "ops": [],
      "main": []
    }
  ]
}
)");
  EXPECT_EQ(write_dump(Job{}),
            "{\n  \"format\": \"ordo-dag\",\n  \"version\": 6,\n"
            "  \"comms\": [],\n  \"programs\": []\n}\n");
}

TEST(DagWriter, DeterministicAndAFixpoint) {
  const Job job = testing::every_construct_job();
  const std::string text = write_dump(job);
  EXPECT_EQ(write_dump(job), text);
  EXPECT_EQ(write_dump(read_dump(text)), text);
}

TEST(DagWriter, ReferenceOutOfRangeThrowsWithItsLocation) {
  Job job = tiny_job();
  job.programs[0].ops[0].writes = {0, 5};
  try {
    write_dump(job);
    FAIL() << "an unnamed reference was written";
  } catch (const std::invalid_argument& error) {
    EXPECT_TRUE(contains(error.what(), "/programs/0/ops/0/writes/1: var index 5 is out of range"))
        << error.what();
  }
  job = tiny_job();
  job.programs[0].ops[0].collective->comm = 2;
  EXPECT_THROW(write_dump(job), std::invalid_argument);
}

TEST(DagWriter, UnwritableValuesComeOutAsTextTheReaderRejects) {
  Job job = tiny_job();
  job.programs[0].ops[0].cost_us = std::nan("");
  EXPECT_TRUE(contains(write_dump(job), "\"cost_us\": null"));
  EXPECT_THROW(read_dump(write_dump(job)), DumpError);
  job = tiny_job();
  job.programs[0].vars[0].name = "bad\xff";
  EXPECT_TRUE(contains(write_dump(job), "\"bad\xEF\xBF\xBD\""));
}

}  // namespace
}  // namespace ordo::dag
