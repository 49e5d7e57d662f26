// The conflicts among a command's paths, each on real files: an output over an input (by path, a
// symbolic link, a hard link), in an input folder or among the entries it reads, an input in an
// output folder, two outputs on one file, and the files an output writes beside it.
#include "runtime/paths/path_conflicts.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace ordo::paths {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;

// A folder of the test's own, made empty.
class PathConflicts : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ordo_paths_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string at(const std::string& name) const { return (dir_ / name).string(); }
  std::string file(const std::string& name) const {
    fs::create_directories(fs::path(at(name)).parent_path());
    std::ofstream(at(name)) << "x";
    return at(name);
  }

  fs::path dir_;
};

PathUse in(const std::string& path) { return {"INPUT", path, Role::input_file, {}}; }
PathUse out(const std::string& option, const std::string& path) {
  return {option, path, Role::output_file, {}};
}

TEST_F(PathConflicts, NoneAmongPathsApart) {
  EXPECT_THAT(path_conflicts({in(file("job.json")), out("--dot", at("job.dot")),
                              out("--trace", at("t.json"))}),
              IsEmpty());
}

TEST_F(PathConflicts, OutputOnTheInputIsRefused) {
  const std::string job = file("job.json");
  EXPECT_THAT(path_conflicts({in(job), out("--trace", job)}),
              ElementsAre("--trace '" + job +
                          "' is the input file (INPUT); expected another path (writing it would "
                          "replace the input)"));
}

TEST_F(PathConflicts, SymbolicAndHardLinksAreTheFileTheyName) {
  const std::string job = file("job.json");
  fs::create_symlink(job, at("soft.json"));
  fs::create_hard_link(job, at("hard.json"));
  EXPECT_THAT(path_conflicts({in(job), out("--trace", at("soft.json"))}),
              ElementsAre(HasSubstr("is the input file '" + job + "' (INPUT)")));
  EXPECT_THAT(path_conflicts({in(at("hard.json")), out("--dot", job)}),
              ElementsAre(HasSubstr("is the input file")));
}

TEST_F(PathConflicts, PathsNotYetThereAreComparedResolved) {
  fs::create_directories(at("sub"));
  EXPECT_THAT(path_conflicts({in(at("sub/../x.json")), out("-o", at("./x.json"))}),
              ElementsAre(HasSubstr("is the input file")));
}

TEST_F(PathConflicts, InputsMayShareAFile) {
  const std::string job = file("job.json");
  EXPECT_THAT(path_conflicts({in(job), {"--program", job, Role::input_file, {}}}), IsEmpty());
}

TEST_F(PathConflicts, OutputInsideAWholeInputFolderIsRefused) {
  file("jpegs/cat/1.jpg");
  const PathUse root{"ROOT", at("jpegs"), Role::input_folder, {}};
  EXPECT_THAT(path_conflicts({root, out("PREFIX", at("jpegs/cat/train.rec"))}),
              ElementsAre("PREFIX '" + at("jpegs/cat/train.rec") +
                          "' is inside the input folder ROOT '" + at("jpegs") +
                          "'; expected a path outside it (writing there would change what the "
                          "command reads)"));
  EXPECT_THAT(path_conflicts({root, out("PREFIX", at("train.rec"))}), IsEmpty());
}

TEST_F(PathConflicts, OutputAmongTheEntriesAnInputFolderReadsIsRefused) {
  file("dumps/rank-0.json");
  const PathUse dumps{
      "DIR",
      at("dumps"),
      Role::input_folder,
      {NamePattern::numbered("rank-", ".json"), NamePattern::exact("program.json")}};
  // The dump there, one not there yet that the next run would read, and the program.
  for (const char* name : {"dumps/rank-0.json", "dumps/rank-9.json", "dumps/program.json"}) {
    EXPECT_THAT(path_conflicts({dumps, out("--dot", at(name))}),
                ElementsAre(HasSubstr("is among the entries the input folder DIR '" + at("dumps") +
                                      "' reads (rank-K.json, program.json)")))
        << name;
  }
  // The job's other files there are not read.
  EXPECT_THAT(path_conflicts({dumps, out("--dot", at("dumps/waits.dot"))}), IsEmpty());
}

TEST_F(PathConflicts, HardLinkIntoAnInputFolderIsRefused) {
  const std::string inside = file("jpegs/cat/1.jpg");
  fs::create_hard_link(inside, at("elsewhere.jpg"));
  EXPECT_THAT(path_conflicts({{"ROOT", at("jpegs"), Role::input_folder, {}},
                              out("PREFIX", at("elsewhere.jpg"))}),
              ElementsAre(HasSubstr("is inside the input folder ROOT")));
  fs::create_directories(at("dumps"));
  fs::create_hard_link(inside, at("dumps/rank-1.json"));
  EXPECT_THAT(
      path_conflicts(
          {{"DIR", at("dumps"), Role::input_folder, {NamePattern::numbered("rank-", ".json")}},
           out("--dot", at("elsewhere.jpg"))}),
      ElementsAre(HasSubstr("is among the entries the input folder DIR")));
}

TEST_F(PathConflicts, InputInsideAnOutputFolderIsRefused) {
  const std::string finding = file("findings/case-1.dump.json");
  EXPECT_THAT(
      path_conflicts({in(finding), {"--out", at("findings"), Role::output_folder, {}}}),
      ElementsAre("the input INPUT '" + finding + "' is inside the output folder --out '" +
                  at("findings") + "'; expected a path outside it (the command writes there)"));
}

TEST_F(PathConflicts, AFolderWrittenByNamesLeavesItsOtherEntriesAlone) {
  fs::create_directories(at("ckpt"));
  const PathUse checkpoints{"--checkpoint-dir",
                            at("ckpt"),
                            Role::output_folder,
                            {NamePattern::exact("latest"), NamePattern::numbered("step-", "")}};
  EXPECT_THAT(path_conflicts({checkpoints, out("--metrics", at("ckpt/metrics.jsonl"))}), IsEmpty());
  EXPECT_THAT(path_conflicts({checkpoints, out("--metrics", at("ckpt/latest"))}),
              ElementsAre(HasSubstr("is among the entries the output folder --checkpoint-dir '" +
                                    at("ckpt") + "' writes (latest, step-K)")));
  EXPECT_THAT(path_conflicts({in(file("ckpt/step-3/model.onnx")), checkpoints}),
              ElementsAre(HasSubstr("the input INPUT '" + at("ckpt/step-3/model.onnx") +
                                    "' is among the entries the output folder")));
}

TEST_F(PathConflicts, TwoOutputsOnOneFileAreRefused) {
  EXPECT_THAT(path_conflicts({out("--trace", at("same")), out("--dot", at("same"))}),
              ElementsAre("--dot and --trace name the same file '" + at("same") +
                          "'; expected a file for each"));
}

TEST_F(PathConflicts, FilesWrittenBesideAnOutputAreItsToo) {
  const PathUse timeline{"--timeline",
                         at("t.json"),
                         Role::output_file,
                         {NamePattern::numbered("t.json.rank-", ".json")}};
  EXPECT_THAT(path_conflicts({in(file("t.json.rank-1.json")), timeline}),
              ElementsAre(HasSubstr("is among the files --timeline '" + at("t.json") +
                                    "' writes beside it (t.json.rank-K.json)")));
  EXPECT_THAT(path_conflicts({in(file("t.json.rank-1.txt")), timeline}), IsEmpty());
  // The timeline itself is a file like any other.
  EXPECT_THAT(path_conflicts({in(file("t.json")), timeline}),
              ElementsAre(HasSubstr("is the input file")));
}

TEST_F(PathConflicts, UnwritableOutputsComeFirst) {
  EXPECT_THAT(path_conflicts({in(file("job.json")), out("--trace", at("no/such/t.json")),
                              out("--dot", at("job.json"))}),
              ElementsAre(HasSubstr("--trace '" + at("no/such/t.json") + "': the directory '" +
                                    at("no/such") + "' does not exist"),
                          HasSubstr("--dot '" + at("job.json") + "' is the input file")));
}

TEST_F(PathConflicts, EmptyPathsAreNotUsed) {
  EXPECT_THAT(path_conflicts({in(""), out("-o", ""), out("--dot", "")}), IsEmpty());
}

TEST_F(PathConflicts, EveryConflictIsSaid) {
  const std::string job = file("job.json");
  EXPECT_THAT(path_conflicts({in(job), out("--trace", job), out("--dot", job)}), SizeIs(3));
}

}  // namespace
}  // namespace ordo::paths
