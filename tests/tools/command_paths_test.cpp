// The subcommands of `ordo` and `ordo-train` as their tables register them: every option that
// takes text is declared a path, with its role, or not a path, so that a new option cannot name a
// file the front end's check does not see; and the paths of a parsed command line are what the
// command reads and writes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "tools/ordo/command_tables.hpp"
#include "tools/ordo/commands.hpp"

namespace ordo::tools {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

char program_name[] = "ordo";
char* no_arguments[] = {program_name, nullptr};

// "COMMAND --option (TYPE)" for every option of the table's commands declared neither way.
std::vector<std::string> undeclared_in(const std::vector<CommandEntry>& table) {
  CLI::App app;
  std::vector<std::string> out;
  for (const CommandEntry& entry : table) {
    const Command command = entry.add(app);
    const PathOptions none;
    const PathOptions& paths = command.paths ? *command.paths : none;
    for (const std::string& option : paths.undeclared(*app.get_subcommand(entry.name))) {
      out.push_back(std::string(entry.name) + " " + option);
    }
  }
  return out;
}

TEST(CommandPaths, EveryTextOptionOfOrdoIsDeclared) {
  EXPECT_THAT(undeclared_in(ordo_commands(no_arguments)), IsEmpty());
}

#ifdef ORDO_HAVE_TORCH
TEST(CommandPaths, EveryTextOptionOfTheTrainerIsDeclared) {
  EXPECT_THAT(undeclared_in(trainer_commands()), IsEmpty());
}
#endif

// The check itself: text needs a word, a number or a flag does not.
TEST(CommandPaths, AnUndeclaredTextOptionIsFound) {
  CLI::App app;
  CLI::App* sub = app.add_subcommand("cmd");
  std::string file;
  std::string format;
  std::string named;
  int count = 0;
  double seconds = 0;
  bool flag = false;
  PathOptions paths;
  sub->add_option("--file", file);
  paths.not_a_path(sub->add_option("--format", format));
  paths.output_file(sub->add_option("-o,--output", named), named);
  sub->add_option("--count", count);
  sub->add_option("--seconds", seconds);
  sub->add_flag("--flag", flag);
  EXPECT_THAT(paths.undeclared(*sub), ElementsAre("--file (TEXT)"));
}

// Parses `line` against the table and gives the paths of the command named first.
std::vector<paths::PathUse> uses_of(const std::vector<CommandEntry>& table,
                                    const std::string& command, const std::string& line) {
  CLI::App app;
  std::map<std::string, Command> commands;
  for (const CommandEntry& entry : table) commands.emplace(entry.name, entry.add(app));
  app.parse(command + " " + line);
  return commands.at(command).paths->uses();
}

std::vector<std::string> words(const std::vector<paths::PathUse>& uses) {
  std::vector<std::string> out;
  for (const paths::PathUse& u : uses) {
    std::string names;
    for (const paths::NamePattern& n : u.names) names += " " + n.words();
    out.push_back(u.option + " " + u.path + " " + std::to_string(static_cast<int>(u.role)) + names);
  }
  return out;
}

constexpr int input_file = static_cast<int>(paths::Role::input_file);
constexpr int input_folder = static_cast<int>(paths::Role::input_folder);
constexpr int output_file = static_cast<int>(paths::Role::output_file);
constexpr int output_folder = static_cast<int>(paths::Role::output_folder);

std::string use(const std::string& option, const std::string& path, int role,
                const std::string& names = "") {
  return option + " " + path + " " + std::to_string(role) + names;
}

TEST(CommandPaths, AnalyzeReadsTheDumpsOfItsFolder) {
  EXPECT_THAT(
      words(uses_of(ordo_commands(no_arguments), "analyze", "d --program p.json --dot w.dot")),
      ElementsAre(use("DIR", "d", input_folder, " rank-K.json program.json"),
                  use("--program", "p.json", input_file), use("--dot", "w.dot", output_file)));
}

TEST(CommandPaths, ABuiltInNetworkIsNoFile) {
  EXPECT_THAT(words(uses_of(ordo_commands(no_arguments), "verify", "mlp --design depcha")),
              IsEmpty());
  EXPECT_THAT(
      words(uses_of(ordo_commands(no_arguments), "simulate",
                    "net.json --design depcha --plot p.png")),
      ElementsAre(use("INPUT", "net.json", input_file), use("--plot", "p.png", output_file)));
}

TEST(CommandPaths, PackRecWritesTwoFilesFromItsPrefix) {
  EXPECT_THAT(
      words(uses_of(ordo_commands(no_arguments), "pack-rec", "jpegs data/train")),
      ElementsAre(use("ROOT", "jpegs", input_folder), use("PREFIX", "data/train.rec", output_file),
                  use("PREFIX", "data/train.idx", output_file)));
}

TEST(CommandPaths, FuzzWritesItsFolderByDefault) {
  EXPECT_THAT(
      words(uses_of(ordo_commands(no_arguments), "fuzz", "job.json")),
      ElementsAre(use("INPUT", "job.json", input_file), use("--out", "ordo-fuzz", output_folder)));
}

#ifdef ORDO_HAVE_TORCH
TEST(CommandPaths, TrainReadsItsDataFilesAndWritesBesideItsTimeline) {
  EXPECT_THAT(
      words(uses_of(trainer_commands(), "train",
                    "--model m.onnx --data-dir data --checkpoint-dir c --timeline t.json "
                    "--metrics m.jsonl")),
      ElementsAre(use("--model", "m.onnx", input_file),
                  use("--data-dir", "data", input_folder,
                      " train-images-idx3-ubyte.gz train-labels-idx1-ubyte.gz "
                      "t10k-images-idx3-ubyte.gz t10k-labels-idx1-ubyte.gz"),
                  use("--checkpoint-dir", "c", output_folder, " latest step-K"),
                  use("--metrics", "m.jsonl", output_file),
                  use("--dump-dir", "ordo-dumps", output_folder, " rank-K.json program.json"),
                  use("--timeline", "t.json", output_file, " t.json.rank-K.json")));
  EXPECT_THAT(
      words(uses_of(trainer_commands(), "train", "--data imagenet")),
      ElementsAre(use("--data-dir", ".", input_folder, " train.rec train.idx val.rec val.idx"),
                  use("--dump-dir", "ordo-dumps", output_folder, " rank-K.json program.json")));
  EXPECT_THAT(words(uses_of(trainer_commands(), "train", "--data synthetic --no-flight-recorder")),
              IsEmpty());
}
#endif

}  // namespace
}  // namespace ordo::tools
