// Whether an output can be written where it is named: a file's folder must exist and be
// writable and the file must be no folder; a folder must be one, or be makeable.
#include "runtime/paths/writable.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace ordo::paths {
namespace {

namespace fs = std::filesystem;

class Writable : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ordo_writable_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string at(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

TEST_F(Writable, AFileInAFolderThatIsThere) {
  EXPECT_EQ(unwritable({"-o", at("x.json"), Role::output_file, {}}), std::nullopt);
}

TEST_F(Writable, AFolderIsNoFileToWrite) {
  EXPECT_EQ(unwritable({"-o", dir_.string(), Role::output_file, {}}),
            "-o '" + dir_.string() + "' is a directory; expected a file to write");
}

TEST_F(Writable, AFileInAFolderThatIsNotThere) {
  EXPECT_EQ(unwritable({"-o", at("no/x.json"), Role::output_file, {}}),
            "-o '" + at("no/x.json") + "': the directory '" + at("no") + "' does not exist");
}

TEST_F(Writable, ADeviceIsWrittenInPlace) {
  EXPECT_EQ(unwritable({"-o", "/dev/null", Role::output_file, {}}), std::nullopt);
}

TEST_F(Writable, AFolderMadeWithTheFoldersAboveIt) {
  EXPECT_EQ(unwritable({"--out", at("a/b/c"), Role::output_folder, {}}), std::nullopt);
  EXPECT_EQ(unwritable({"--out", dir_.string(), Role::output_folder, {}}), std::nullopt);
}

TEST_F(Writable, AFileIsNoFolderToWriteIn) {
  std::ofstream(at("f")) << "x";
  EXPECT_EQ(unwritable({"--out", at("f"), Role::output_folder, {}}),
            "--out '" + at("f") + "' is not a directory; expected a folder to write in");
  EXPECT_EQ(unwritable({"--out", at("f/sub"), Role::output_folder, {}}),
            "--out '" + at("f/sub") + "': '" + at("f") +
                "' is not a directory; expected a folder to make it in");
}

TEST_F(Writable, InputsAreNotWritten) {
  EXPECT_EQ(unwritable({"INPUT", at("no/x.json"), Role::input_file, {}}), std::nullopt);
}

}  // namespace
}  // namespace ordo::paths
