// The reader's contract on arbitrary text: it returns a job or throws DumpError, nothing else,
// and whatever it returns can be validated and, when valid, written back exactly. Seeded
// mutations of the examples and every prefix of one stand in for a fuzzer here.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "runtime/dag/dump_reader.hpp"
#include "runtime/dag/dump_writer.hpp"
#include "runtime/dag/validate.hpp"
#include "tests/dag/test_support.hpp"

namespace ordo::dag {
namespace {

constexpr std::uint32_t mutation_seed = 20240611;
constexpr int mutations_per_example = 600;

std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Bytes that JSON gives meaning to, plus a few that it forbids.
constexpr std::string_view mutation_bytes = "{}[]\",:0123456789-+.eE \n\\tfnu\x01\xff\xc3";

std::string mutate(std::string text, std::mt19937& random) {
  std::uniform_int_distribution<std::size_t> position(0, text.size() - 1);
  std::uniform_int_distribution<std::size_t> byte(0, mutation_bytes.size() - 1);
  switch (random() % 4) {
    case 0:
      text[position(random)] = mutation_bytes[byte(random)];
      break;
    case 1:
      text.insert(position(random), 1, mutation_bytes[byte(random)]);
      break;
    case 2: {
      const std::size_t at = position(random);
      text.erase(at, std::min<std::size_t>(1 + random() % 16, text.size() - at));
      break;
    }
    default: {
      const std::size_t at = position(random);
      text.insert(position(random), text.substr(at, 1 + random() % 32));
      break;
    }
  }
  return text;
}

// Reads `text` under the contract; counts how it went.
struct Outcome {
  int rejected = 0;
  int invalid = 0;
  int valid = 0;
};

void read_under_contract(const std::string& text, Outcome& outcome) {
  Job job;
  try {
    job = read_dump(text);
  } catch (const DumpError& error) {
    EXPECT_FALSE(error.where().empty());
    EXPECT_FALSE(error.problem().empty());
    outcome.rejected += 1;
    return;
  }
  if (!validate(job).empty()) {
    outcome.invalid += 1;
    return;
  }
  EXPECT_EQ(read_dump(write_dump(job)), job) << text;
  outcome.valid += 1;
}

TEST(DagReaderRobustness, MutatedExamplesReadOrFailCleanly) {
  std::mt19937 random(mutation_seed);
  Outcome outcome;
  for (const std::filesystem::path& path : testing::example_files()) {
    const std::string text = file_text(path);
    for (int i = 0; i < mutations_per_example; ++i) {
      read_under_contract(mutate(text, random), outcome);
    }
  }
  // The mutations must exercise both sides of the contract to mean anything.
  EXPECT_GT(outcome.rejected, 0);
  EXPECT_GT(outcome.valid + outcome.invalid, 0);
}

TEST(DagReaderRobustness, EveryPrefixOfADumpIsRejected) {
  const std::string text = file_text(testing::example_files().at(0));
  for (std::size_t size = 0; size + 1 < text.size(); ++size) {
    try {
      read_dump(std::string_view(text).substr(0, size));
      ADD_FAILURE() << "a prefix of " << size << " bytes was read";
    } catch (const DumpError& error) {
      EXPECT_EQ(error.where().rfind("line ", 0), 0u) << error.what();
    }
  }
}

}  // namespace
}  // namespace ordo::dag
