// The example dumps in specs/examples/ read, validate, survive a write-then-read, and say what
// their names promise. The format doc's complete example is one of them, checked the same way.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <variant>

#include "runtime/dag/dump_reader.hpp"
#include "runtime/dag/dump_writer.hpp"
#include "runtime/dag/validate.hpp"
#include "tests/dag/test_support.hpp"

namespace ordo::dag {
namespace {

using testing::describe;

Job example(const std::string& name) {
  return read_dump_file(std::filesystem::path(ORDO_DAG_EXAMPLES_DIR) / name);
}

std::size_t count_collective_ops(const Program& program) {
  return static_cast<std::size_t>(std::count_if(program.ops.begin(), program.ops.end(),
                                                [](const Op& op) { return op.collective; }));
}

TEST(DagExamples, EveryExampleReadsValidatesAndRoundTrips) {
  const std::vector<std::filesystem::path> files = testing::example_files();
  ASSERT_GE(files.size(), 5u);
  for (const std::filesystem::path& path : files) {
    SCOPED_TRACE(path.filename().string());
    const Job job = read_dump_file(path);
    EXPECT_TRUE(validate(job).empty()) << describe(validate(job));
    EXPECT_NO_THROW(validate_or_throw(job));
    EXPECT_EQ(read_dump(write_dump(job)), job);
  }
}

TEST(DagExamples, NaiveAllreduceIsSpmdWithTwoKeysOnWorld) {
  const Job job = example("naive_allreduce.json");
  ASSERT_EQ(job.programs.size(), 1u);
  EXPECT_FALSE(job.ranks.has_value());
  EXPECT_FALSE(job.programs[0].ranks.has_value());
  EXPECT_EQ(count_collective_ops(job.programs[0]), 2u);
}

TEST(DagExamples, FunnelCallsItsAllreducesFromTheMainThread) {
  const Job job = example("funnel.json");
  const Program& program = job.programs.at(0);
  EXPECT_EQ(count_collective_ops(program), 0u);
  std::vector<std::int64_t> keys;
  for (const Action& action : program.main) {
    if (const auto* call = std::get_if<CollectiveAction>(&action)) {
      EXPECT_TRUE(call->buffer.has_value());
      keys.push_back(call->collective.key);
    }
  }
  EXPECT_EQ(keys, (std::vector<std::int64_t>{0, 1}));
}

TEST(DagExamples, ExtraAllreduceHasRankZeroIssueOneMore) {
  const Job job = example("extra_allreduce.json");
  ASSERT_EQ(job.ranks, 2u);
  ASSERT_NE(program_of(job, 0), nullptr);
  ASSERT_NE(program_of(job, 1), nullptr);
  EXPECT_EQ(count_collective_ops(*program_of(job, 0)),
            count_collective_ops(*program_of(job, 1)) + 1);
}

TEST(DagExamples, CommRingHasThreePairwiseCommunicators) {
  const Job job = example("comm_ring.json");
  ASSERT_EQ(job.ranks, 3u);
  ASSERT_EQ(job.comms.size(), 3u);
  for (const Communicator& comm : job.comms) {
    ASSERT_TRUE(comm.members.has_value());
    EXPECT_EQ(comm.members->size(), 2u);
  }
  for (Rank rank = 0; rank < 3; ++rank) {
    EXPECT_EQ(count_collective_ops(*program_of(job, rank)), 2u);
  }
}

// The complete example in docs/dag-format.md is the first ```json block after its heading.
TEST(DagExamples, FormatDocExampleIsTheConcomExample) {
  std::ifstream in(std::filesystem::path(ORDO_DAG_DOCS_DIR) / "dag-format.md");
  std::ostringstream doc;
  doc << in.rdbuf();
  const std::string text = doc.str();
  const std::size_t heading = text.find("## Complete example");
  ASSERT_NE(heading, std::string::npos);
  const std::size_t open = text.find("```json\n", heading);
  ASSERT_NE(open, std::string::npos);
  const std::size_t begin = open + 8;
  const std::size_t end = text.find("```", begin);
  ASSERT_NE(end, std::string::npos);
  const Job job = read_dump(std::string_view(text).substr(begin, end - begin));
  EXPECT_TRUE(validate(job).empty()) << describe(validate(job));
  EXPECT_EQ(job, example("concom_barrier.json"));
}

}  // namespace
}  // namespace ordo::dag
