// Errors found before the dump's structure is looked at: JSON syntax, nesting depth, size, and
// the format and version fields. Syntax errors are located by line and column.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <string>

#include "runtime/dag/dump_reader.hpp"
#include "runtime/dag/limits.hpp"
#include "tests/dag/test_support.hpp"

namespace ordo::dag {
namespace {

using testing::contains;
using testing::error_reading;

TEST(DagReaderSyntax, BadJsonIsReportedAtLineAndColumn) {
  const std::string text =
      "{\n"
      "  \"format\": \"ordo-dag\",\n"
      "  \"version\": 2,\n"
      "  \"comms\": [,],\n"
      "  \"programs\": []\n"
      "}\n";
  const DumpError error = error_reading(text);
  EXPECT_EQ(error.where(), "line 4, column 13");
  EXPECT_TRUE(contains(error.problem(), "unexpected ','")) << error.what();
  EXPECT_TRUE(contains(error.what(), "line 4, column 13: syntax error")) << error.what();
}

TEST(DagReaderSyntax, TruncatedTextEndsAfterTheLastByte) {
  const DumpError error = error_reading("{\"format\": \"ordo-dag\"");
  EXPECT_EQ(error.where(), "line 1, column 22");
  EXPECT_TRUE(contains(error.problem(), "unexpected end of input")) << error.what();
  EXPECT_EQ(error_reading("").where(), "line 1, column 1");
}

TEST(DagReaderSyntax, TrailingTextAfterTheDocument) {
  const DumpError error = error_reading("{}\n[]");
  EXPECT_EQ(error.where(), "line 2, column 1");
  EXPECT_TRUE(contains(error.expected(), "end of input")) << error.what();
}

TEST(DagReaderSyntax, ControlCharacterInAString) {
  const DumpError error = error_reading("{\"format\": \"ordo\ndag\"}");
  EXPECT_EQ(error.where(), "line 1, column 17");
  EXPECT_TRUE(contains(error.problem(), "control character")) << error.what();
}

TEST(DagReaderSyntax, InvalidUtf8InAStringIsEscapedInTheMessage) {
  const DumpError error = error_reading("{\"format\": \"ordo\xff\"}");
  EXPECT_EQ(error.where(), "line 1, column 17");
  EXPECT_TRUE(contains(error.problem(), "\\xff")) << error.what();
}

TEST(DagReaderSyntax, NumberBeyondDoubleRange) {
  const DumpError error = error_reading("{\"ranks\": 1e400}");
  EXPECT_EQ(error.where(), "line 1, column 15");
  EXPECT_TRUE(contains(error.problem(), "number overflow")) << error.what();
  EXPECT_TRUE(contains(error.expected(), "range of a double")) << error.what();
}

TEST(DagReaderSyntax, DuplicateKeyIsReportedWhereItRepeats) {
  const DumpError error = error_reading(
      R"({"format": "ordo-dag", "programs": [{"name": "a", "pools": [], "name": "b"}]})");
  EXPECT_EQ(error.where(), "/programs/0/name");
  EXPECT_TRUE(contains(error.problem(), "duplicate field 'name'")) << error.what();
}

TEST(DagReaderSyntax, NestingDeeperThanTheLimit) {
  const std::size_t depth = json::limits::depth_max + 1;
  const std::string text =
      "{\"comms\":\n" + std::string(depth - 1, '[') + std::string(depth - 1, ']') + "}";
  const DumpError error = error_reading(text);
  EXPECT_EQ(error.where(), "line 2, column " + std::to_string(depth - 1));
  EXPECT_TRUE(contains(error.problem(), "nested deeper than 64 levels")) << error.what();
}

TEST(DagReaderSyntax, NestingAtTheLimitParses) {
  const std::size_t depth = json::limits::depth_max;
  const std::string text = std::string(depth, '[') + std::string(depth, ']');
  const DumpError error = error_reading(text);
  EXPECT_EQ(error.where(), "/");
  EXPECT_TRUE(contains(error.problem(), "found an array")) << error.what();
}

TEST(DagReaderSyntax, VeryDeepNestingStopsAtTheLimit) {
  const std::string text = std::string(1'000'000, '[');
  const DumpError error = error_reading(text);
  EXPECT_EQ(error.where(), "line 1, column " + std::to_string(json::limits::depth_max + 1));
}

// The size is checked before the text is read, so a mapping that is never touched stands in for
// a dump over the limit without using the memory.
TEST(DagReaderSyntax, TextLargerThanTheLimit) {
  const std::size_t size = limits::dump_bytes_max + 1;
  void* const pages =
      mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  ASSERT_NE(pages, MAP_FAILED);
  const DumpError error = error_reading(std::string_view(static_cast<const char*>(pages), size));
  munmap(pages, size);
  EXPECT_EQ(error.where(), "/");
  EXPECT_EQ(error.problem(), "dump is " + std::to_string(size) + " bytes");
  EXPECT_EQ(error.expected(), "at most " + std::to_string(limits::dump_bytes_max) + " bytes");
}

TEST(DagReaderSyntax, RootMustBeAnObject) {
  const DumpError error = error_reading("\"ordo-dag\"");
  EXPECT_EQ(error.where(), "/");
  EXPECT_EQ(error.problem(), "found the string 'ordo-dag'");
  EXPECT_EQ(error.expected(), "an ordo-dag dump object");
}

TEST(DagReaderSyntax, WrongFormat) {
  const DumpError error =
      error_reading(R"({"format": "ordo-dug", "version": 1, "comms": [], "programs": []})");
  EXPECT_EQ(error.where(), "/format");
  EXPECT_EQ(error.problem(), "unknown format 'ordo-dug'");
}

TEST(DagReaderSyntax, FormatIsCheckedBeforeOtherFields) {
  const DumpError error = error_reading(R"({"type": "FeatureCollection", "features": []})");
  EXPECT_EQ(error.where(), "/");
  EXPECT_TRUE(contains(error.problem(), "missing field 'format'")) << error.what();
}

TEST(DagReaderSyntax, WrongVersion) {
  const DumpError error =
      error_reading(R"({"format": "ordo-dag", "version": 7, "comms": [], "programs": []})");
  EXPECT_EQ(error.where(), "/version");
  EXPECT_EQ(error.problem(), "unsupported version 7");
  EXPECT_EQ(error.expected(), "a version from 1 to 6");
  EXPECT_EQ(error_reading(R"({"format": "ordo-dag", "version": 1.0})").where(), "/version");
}

TEST(DagReaderSyntax, WhatIsWhereProblemAndExpected) {
  const DumpError error =
      error_reading(R"({"format": "ordo-dag", "version": 7, "comms": [], "programs": []})");
  EXPECT_STREQ(error.what(), "/version: unsupported version 7; expected a version from 1 to 6");
}

}  // namespace
}  // namespace ordo::dag
