// The atomic writer: a file is replaced whole, nothing is left beside it, and a write that cannot
// happen throws naming the path and leaves the old file as it was.
#include "runtime/io/atomic_file.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace ordo::io {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(AtomicFile, ReplacesWholeAndLeavesNothingBeside) {
  const fs::path dir = fs::temp_directory_path() / ("ordo_atomic_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path file = dir / "out.bin";
  write_file_atomically(file.string(), std::string("first\0bytes", 11));
  EXPECT_EQ(slurp(file), std::string("first\0bytes", 11));
  write_file_atomically(file.string(), "second");
  EXPECT_EQ(slurp(file), "second");
  write_file_atomically(file.string(), "");
  EXPECT_EQ(slurp(file), "");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  fs::remove_all(dir);
}

TEST(AtomicFile, AFailedWriteNamesThePathAndKeepsTheOldFile) {
  const fs::path dir = fs::temp_directory_path() / ("ordo_atomic_f_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "target");
  // Renaming a file onto a directory fails after the bytes are written and flushed.
  const fs::path onto = dir / "target";
  try {
    write_file_atomically(onto.string(), "data");
    FAIL() << "wrote onto a directory";
  } catch (const std::system_error& e) {
    EXPECT_NE(std::string(e.what()).find(onto.string()), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fs::is_directory(onto));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  EXPECT_THROW(write_file_atomically((dir / "no" / "such" / "dir").string(), "x"),
               std::system_error);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ordo::io
