// The manifest of a folder of hand-derived cases (tests/checker/semantics_cases,
// tests/exec/adversarial_cases): per case the dump's file, the rank count to verify at (none: the
// job's own, or 2), the expected answer and property, a theme where the folder groups them, and
// the backend whose semantics the answer is for (mpi where the manifest names none).
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ordo::testing {

// The wall-clock bound a hand-derived case is verified under. A case's answer must not depend on
// how loaded the machine is: the states bound, which is deterministic, is the only one that may
// end a search early. So the time bound sits above the tests' ctest timeout (300 s) and never
// falls first: a search still running then is a hang, which ctest reports as one (the slowest
// case is a search of 33,000 states, 8.5 s under ASan).
inline constexpr double case_seconds_max = 3600.0;

struct ManifestCase {
  std::string file;
  std::string theme;  // empty where the manifest has none
  std::optional<std::uint32_t> ranks;
  std::string expect;  // "safe", "unsafe" or "bad_input"
  std::optional<std::string> property;
  std::string backend = "mpi";  // the semantics the answer is derived for: mpi or nccl
};

inline std::vector<ManifestCase> read_case_manifest(const std::string& dir) {
  std::ifstream in(dir + "/manifest.json");
  const nlohmann::json m = nlohmann::json::parse(in);
  std::vector<ManifestCase> out;
  for (const nlohmann::json& c : m) {
    ManifestCase k;
    k.file = c.at("file").get<std::string>();
    if (c.contains("theme")) k.theme = c.at("theme").get<std::string>();
    if (!c.at("ranks").is_null()) k.ranks = c.at("ranks").get<std::uint32_t>();
    k.expect = c.at("expect").get<std::string>();
    if (!c.at("property").is_null()) k.property = c.at("property").get<std::string>();
    if (c.contains("backend")) k.backend = c.at("backend").get<std::string>();
    out.push_back(std::move(k));
  }
  return out;
}

// GoogleTest names a failing case by this, not by the bytes of the struct.
inline void PrintTo(const ManifestCase& c, std::ostream* os) { *os << c.file; }

// The test's name: the file without its extension, in the characters a test name may hold.
inline std::string case_test_name(const ::testing::TestParamInfo<ManifestCase>& info) {
  std::string name = info.param.file.substr(0, info.param.file.rfind('.'));
  for (char& ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
}

}  // namespace ordo::testing
