// Structural errors: each class is rejected with its own message at the JSON pointer of the
// offending value. The dumps are a valid job's dump with one thing broken.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "runtime/dag/dump_reader.hpp"
#include "runtime/dag/dump_writer.hpp"
#include "tests/dag/sample_jobs.hpp"
#include "tests/dag/test_support.hpp"

namespace ordo::dag {
namespace {

using nlohmann::json;
using testing::contains;

json reader_structure_document() { return json::parse(write_dump(testing::small_valid_job())); }

DumpError reader_structure_error(const json& document) {
  return testing::error_reading(document.dump());
}

json& first_op(json& document) { return document["programs"][0]["ops"][0]; }

TEST(DagReaderStructure, ValidDocumentReads) {
  EXPECT_EQ(read_dump(reader_structure_document().dump()), testing::small_valid_job());
}

TEST(DagReaderStructure, WrongType) {
  json document = reader_structure_document();
  first_op(document)["reads"] = "g0";
  const DumpError error = reader_structure_error(document);
  EXPECT_EQ(error.where(), "/programs/0/ops/0/reads");
  EXPECT_EQ(error.problem(), "found the string 'g0'");
  EXPECT_EQ(error.expected(), "an array of var names");
}

TEST(DagReaderStructure, WrongTypeOfAnObject) {
  json document = reader_structure_document();
  document["programs"][0]["pools"][1] = json::array();
  const DumpError error = reader_structure_error(document);
  EXPECT_EQ(error.where(), "/programs/0/pools/1");
  EXPECT_EQ(error.problem(), "found an array");
  EXPECT_EQ(error.expected(), "a pool object");
}

TEST(DagReaderStructure, MissingField) {
  json document = reader_structure_document();
  first_op(document).erase("pool");
  const DumpError error = reader_structure_error(document);
  EXPECT_EQ(error.where(), "/programs/0/ops/0");
  EXPECT_EQ(error.problem(), "missing field 'pool' in an op");
  EXPECT_EQ(error.expected(), "the required fields name, kind, pool");
}

TEST(DagReaderStructure, UnknownFieldWithSpellingHint) {
  json document = reader_structure_document();
  first_op(document)["raeds"] = json::array();
  const DumpError error = reader_structure_error(document);
  EXPECT_EQ(error.where(), "/programs/0/ops/0/raeds");
  EXPECT_EQ(error.problem(), "unknown field 'raeds' in an op");
  EXPECT_EQ(error.expected(),
            "one of: name, kind, pool, reads, writes, priority, cost_us, collective "
            "(did you mean 'reads'?)");
}

TEST(DagReaderStructure, FieldOfAnotherActionKind) {
  json document = reader_structure_document();
  document["programs"][0]["main"][0]["var"] = "g0";
  const DumpError error = reader_structure_error(document);
  EXPECT_EQ(error.where(), "/programs/0/main/0/var");
  EXPECT_EQ(error.problem(), "unknown field 'var' in a submit action");
}

TEST(DagReaderStructure, DuplicateName) {
  json document = reader_structure_document();
  document["programs"][0]["vars"][2]["name"] = "g0";
  const DumpError error = reader_structure_error(document);
  EXPECT_EQ(error.where(), "/programs/0/vars/2/name");
  EXPECT_EQ(error.problem(), "duplicate var name 'g0' (first used at /programs/0/vars/0/name)");
  EXPECT_EQ(error.expected(), "names unique within /programs/0/vars");
}

TEST(DagReaderStructure, DuplicateNamesInEveryTable) {
  const auto duplicate_at = [](const char* table, const char* where) {
    json document = reader_structure_document();
    json& entries =
        std::string(table) == "comms" ? document["comms"] : document["programs"][0][table];
    entries[1]["name"] = entries[0]["name"];
    EXPECT_EQ(reader_structure_error(document).where(), where) << table;
  };
  duplicate_at("comms", "/comms/1/name");
  duplicate_at("pools", "/programs/0/pools/1/name");
  duplicate_at("ops", "/programs/0/ops/1/name");
  json document = reader_structure_document();
  document["programs"].push_back(document["programs"][0]);
  EXPECT_EQ(reader_structure_error(document).where(), "/programs/1/name");
}

TEST(DagReaderStructure, InvalidName) {
  json document = reader_structure_document();
  document["programs"][0]["name"] = "";
  EXPECT_EQ(reader_structure_error(document).where(), "/programs/0/name");
  EXPECT_EQ(reader_structure_error(document).problem(), "name is empty");
  document["programs"][0]["name"] = "bell\a";
  EXPECT_EQ(reader_structure_error(document).problem(),
            "name holds control character U+0007 at byte 4");
  document["programs"][0]["name"] = std::string(4097, 'n');
  EXPECT_EQ(reader_structure_error(document).problem(), "name is 4097 bytes long");
}

TEST(DagReaderStructure, OutOfRangeInteger) {
  json document = reader_structure_document();
  document["programs"][0]["pools"][0]["threads"] = -1;
  DumpError error = reader_structure_error(document);
  EXPECT_EQ(error.where(), "/programs/0/pools/0/threads");
  EXPECT_EQ(error.problem(), "integer -1 is out of range");
  EXPECT_EQ(error.expected(), "an integer from 0 to 4096");
  document["programs"][0]["pools"][0]["threads"] = 4097;
  EXPECT_EQ(reader_structure_error(document).problem(), "integer 4097 is out of range");
  document = reader_structure_document();
  first_op(document)["priority"] = 2147483648;
  error = reader_structure_error(document);
  EXPECT_EQ(error.where(), "/programs/0/ops/0/priority");
  EXPECT_EQ(error.expected(), "an integer from -2147483648 to 2147483647");
  document = reader_structure_document();
  document["ranks"] = 1048577;
  EXPECT_EQ(reader_structure_error(document).where(), "/ranks");
}

TEST(DagReaderStructure, IntegerLiteralBeyond64Bits) {
  std::string text = reader_structure_document().dump();
  const std::string count = "\"count\":1024";
  text.replace(text.find(count), count.size(), "\"count\":18446744073709551616");
  const DumpError error = testing::error_reading(text);
  EXPECT_EQ(error.where(), "/programs/0/ops/2/collective/count");
  EXPECT_TRUE(contains(error.problem(), "is out of range")) << error.what();
  text = reader_structure_document().dump();
  const std::string key = "\"key\":0,\"kind\":\"allreduce\"";
  text.replace(text.find(key), key.size(), "\"key\":-9223372036854775809,\"kind\":\"allreduce\"");
  const DumpError key_error = testing::error_reading(text);
  EXPECT_EQ(key_error.where(), "/programs/0/ops/2/collective/key");
  EXPECT_TRUE(contains(key_error.problem(), "is out of range")) << key_error.what();
}

TEST(DagReaderStructure, NegativeKeyIsInRangeButNegativeCountIsNot) {
  json document = reader_structure_document();
  first_op(document)["priority"] = -5;
  document["programs"][0]["ops"][2]["collective"]["key"] = -9223372036854775807LL - 1;
  EXPECT_NO_THROW(read_dump(document.dump()));
  document["programs"][0]["ops"][2]["collective"]["count"] = -1;
  EXPECT_EQ(reader_structure_error(document).where(), "/programs/0/ops/2/collective/count");
}

TEST(DagReaderStructure, NonIntegerNumber) {
  json document = reader_structure_document();
  document["programs"][0]["pools"][0]["threads"] = 1.0;
  const DumpError error = reader_structure_error(document);
  EXPECT_EQ(error.where(), "/programs/0/pools/0/threads");
  EXPECT_EQ(error.problem(), "number 1.0 is not an integer");
  EXPECT_EQ(error.expected(), "an integer from 0 to 4096");
  document["programs"][0]["pools"][0]["threads"] = 2.5;
  EXPECT_EQ(reader_structure_error(document).problem(), "number 2.5 is not an integer");
}

TEST(DagReaderStructure, NumberFieldsTakeIntegersAndRejectNegatives) {
  json document = reader_structure_document();
  first_op(document)["cost_us"] = 7;
  EXPECT_EQ(read_dump(document.dump()).programs[0].ops[0].cost_us, 7.0);
  first_op(document)["cost_us"] = -0.5;
  const DumpError error = reader_structure_error(document);
  EXPECT_EQ(error.where(), "/programs/0/ops/0/cost_us");
  EXPECT_EQ(error.problem(), "number -0.5 is out of range");
}

TEST(DagReaderStructure, UnknownEnumSpelling) {
  json document = reader_structure_document();
  document["programs"][0]["vars"][0]["dtype"] = "f31";
  const DumpError error = reader_structure_error(document);
  EXPECT_EQ(error.where(), "/programs/0/vars/0/dtype");
  EXPECT_EQ(error.problem(), "unknown dtype 'f31'");
  EXPECT_EQ(error.expected(),
            "dtype, one of: f32, f64, f16, bf16, i8, u8, i32, i64 (did you mean 'f32'?)");
}

TEST(DagReaderStructure, ProgramRanksAreAllOrAList) {
  json document = reader_structure_document();
  document["programs"][0]["ranks"] = "everyone";
  DumpError error = reader_structure_error(document);
  EXPECT_EQ(error.where(), "/programs/0/ranks");
  EXPECT_EQ(error.problem(), "unknown rank selection 'everyone'");
  document["programs"][0]["ranks"] = 3;
  error = reader_structure_error(document);
  EXPECT_EQ(error.problem(), "found the number 3");
  EXPECT_EQ(error.expected(), "\"all\" or an array of ranks");
  document["programs"][0]["ranks"] = json::array({0, 1048576});
  EXPECT_EQ(reader_structure_error(document).where(), "/programs/0/ranks/1");
}

TEST(DagReaderStructure, AbsentFieldsTakeTheirDefaults) {
  const Job job = read_dump(R"({
    "format": "ordo-dag", "version": 2, "comms": [{"name": "world"}],
    "programs": [{"name": "p", "pools": [{"name": "c", "threads": 1}],
                  "vars": [{"name": "v"}],
                  "ops": [{"name": "o", "kind": "compute", "pool": "c"}],
                  "main": [{"action": "submit", "op": "o"}]}]})");
  EXPECT_FALSE(job.ranks.has_value());
  EXPECT_FALSE(job.comms[0].members.has_value());
  const Program& program = job.programs[0];
  EXPECT_FALSE(program.ranks.has_value());
  EXPECT_EQ(program.pools[0].kind, PoolKind::fifo);
  EXPECT_EQ(program.vars[0],
            (Var{.name = "v", .kind = VarKind::tensor, .bytes = 0, .dtype = DType::f32}));
  const Op& op = program.ops[0];
  EXPECT_TRUE(op.reads.empty() && op.writes.empty());
  EXPECT_EQ(op.priority, 0);
  EXPECT_EQ(op.cost_us, 0.0);
  EXPECT_FALSE(op.collective.has_value());
}

}  // namespace
}  // namespace ordo::dag
