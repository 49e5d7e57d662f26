// Helpers shared by the dag test files.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/dag/dump_error.hpp"
#include "runtime/dag/validate.hpp"

namespace ordo::dag::testing {

// specs/examples/*.json, sorted by name.
std::vector<std::filesystem::path> example_files();

// The DumpError that read_dump(text) throws; when it reads without error, a stand-in error whose
// where() is "<no error>", so that assertions on it fail readably.
DumpError error_reading(std::string_view text);

bool contains(std::string_view text, std::string_view fragment);

// "where: message" per line, for failure output.
std::string describe(const std::vector<Diagnostic>& diagnostics);

// Asserts that `job` has exactly one problem, at `where`, whose message holds `fragment`.
void expect_one_diagnostic(const Job& job, std::string_view where, std::string_view fragment);

}  // namespace ordo::dag::testing
