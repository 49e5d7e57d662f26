#include "tests/dag/test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "runtime/dag/dump_reader.hpp"

namespace ordo::dag::testing {

std::vector<std::filesystem::path> example_files() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(ORDO_DAG_EXAMPLES_DIR)) {
    if (entry.path().extension() == ".json") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

DumpError error_reading(std::string_view text) {
  try {
    read_dump(text);
  } catch (const DumpError& error) {
    return error;
  }
  return DumpError("<no error>", "the dump was read without error", "an error");
}

bool contains(std::string_view text, std::string_view fragment) {
  return text.find(fragment) != std::string_view::npos;
}

std::string describe(const std::vector<Diagnostic>& diagnostics) {
  std::string out = std::to_string(diagnostics.size()) + " diagnostics:\n";
  for (const Diagnostic& diagnostic : diagnostics) {
    out += "  " + diagnostic.where + ": " + diagnostic.message + "\n";
  }
  return out;
}

void expect_one_diagnostic(const Job& job, std::string_view where, std::string_view fragment) {
  const std::vector<Diagnostic> diagnostics = validate(job);
  ASSERT_EQ(diagnostics.size(), 1u) << describe(diagnostics);
  EXPECT_EQ(diagnostics[0].where, where) << describe(diagnostics);
  EXPECT_TRUE(contains(diagnostics[0].message, fragment))
      << "no '" << fragment << "' in " << describe(diagnostics);
}

}  // namespace ordo::dag::testing
