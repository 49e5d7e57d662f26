// Names that refer to nothing: every kind of reference is resolved in its own table and an
// unknown one is reported where it is used, naming the table it was looked up in.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "runtime/dag/dump_writer.hpp"
#include "tests/dag/sample_jobs.hpp"
#include "tests/dag/test_support.hpp"

namespace ordo::dag {
namespace {

using nlohmann::json;

json reader_reference_document() { return json::parse(write_dump(testing::small_valid_job())); }

DumpError reader_reference_error(const json& document) {
  return testing::error_reading(document.dump());
}

json& program(json& document) { return document["programs"][0]; }

TEST(DagReaderReference, UnknownVarInAnOp) {
  json document = reader_reference_document();
  program(document)["ops"][1]["reads"] = json::array({"g9"});
  const DumpError error = reader_reference_error(document);
  EXPECT_EQ(error.where(), "/programs/0/ops/1/reads/0");
  EXPECT_EQ(error.problem(), "no var named 'g9' in /programs/0/vars");
  EXPECT_EQ(error.expected(), "the name of a var declared there (did you mean 'g0'?)");
}

TEST(DagReaderReference, UnknownPool) {
  json document = reader_reference_document();
  program(document)["ops"][2]["pool"] = "network";
  const DumpError error = reader_reference_error(document);
  EXPECT_EQ(error.where(), "/programs/0/ops/2/pool");
  EXPECT_EQ(error.problem(), "no pool named 'network' in /programs/0/pools");
  EXPECT_EQ(error.expected(), "the name of a pool declared there");
}

TEST(DagReaderReference, UnknownOpInASubmit) {
  json document = reader_reference_document();
  program(document)["main"][3]["op"] = "ar1";
  const DumpError error = reader_reference_error(document);
  EXPECT_EQ(error.where(), "/programs/0/main/3/op");
  EXPECT_EQ(error.problem(), "no op named 'ar1' in /programs/0/ops");
  EXPECT_EQ(error.expected(), "the name of an op declared there (did you mean 'ar0'?)");
}

TEST(DagReaderReference, UnknownVarInAWaitAndABuffer) {
  json document = reader_reference_document();
  program(document)["main"][2]["var"] = "buf";
  EXPECT_EQ(reader_reference_error(document).where(), "/programs/0/main/2/var");
  document = reader_reference_document();
  program(document)["main"][4]["buffer"] = "nothing";
  EXPECT_EQ(reader_reference_error(document).where(), "/programs/0/main/4/buffer");
}

TEST(DagReaderReference, UnknownCommunicator) {
  json document = reader_reference_document();
  program(document)["main"][4]["collective"]["comm"] = "wrold";
  const DumpError error = reader_reference_error(document);
  EXPECT_EQ(error.where(), "/programs/0/main/4/collective/comm");
  EXPECT_EQ(error.problem(), "no communicator named 'wrold' in /comms");
  EXPECT_EQ(error.expected(), "the name of a communicator declared there (did you mean 'world'?)");
}

TEST(DagReaderReference, ReferenceThatIsNotAString) {
  json document = reader_reference_document();
  program(document)["ops"][0]["writes"] = json::array({0});
  const DumpError error = reader_reference_error(document);
  EXPECT_EQ(error.where(), "/programs/0/ops/0/writes/0");
  EXPECT_EQ(error.problem(), "found the number 0");
  EXPECT_EQ(error.expected(), "the name of a var (a string)");
}

TEST(DagReaderReference, NamesAreLookedUpInTheirOwnProgram) {
  json document = reader_reference_document();
  document["ranks"] = 2;
  program(document)["ranks"] = json::array({0});
  json other = program(document);
  other["name"] = "other";
  other["ranks"] = json::array({1});
  other["vars"][0]["name"] = "h0";
  other["ops"][0]["writes"] = json::array({"g0"});
  document["programs"].push_back(other);
  const DumpError error = reader_reference_error(document);
  EXPECT_EQ(error.where(), "/programs/1/ops/0/writes/0");
  EXPECT_EQ(error.problem(), "no var named 'g0' in /programs/1/vars");
}

TEST(DagReaderReference, HostileNamesAreQuotedSafely) {
  json document = reader_reference_document();
  program(document)["ops"][0]["writes"] =
      json::array({std::string("a'\n\x1b[2J") + std::string(200, 'x')});
  const DumpError error = reader_reference_error(document);
  EXPECT_EQ(error.problem(),
            "no var named 'a\\'\\n\\x1b[2J" + std::string(57, 'x') + "...' in /programs/0/vars");
}

}  // namespace
}  // namespace ordo::dag
