// The atomic writer: a file is replaced whole, nothing is left beside it, and a write that cannot
// happen throws naming the path and leaves the old file as it was.
#include "runtime/io/atomic_file.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
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

bool is_char_device(const char* path) {
  struct stat st {};
  return ::lstat(path, &st) == 0 && S_ISCHR(st.st_mode);
}

// A device cannot be replaced by a rename, and renaming a file over /dev/full (which root may do)
// would lose the output and the device both: it is written in place, and its errors are errors.
TEST(AtomicFile, ADeviceIsWrittenInPlaceAndItsErrorsReported) {
  ASSERT_TRUE(is_char_device("/dev/full"));
  write_file_atomically("/dev/null", "into nothing");
  EXPECT_TRUE(is_char_device("/dev/null"));
  try {
    write_file_atomically("/dev/full", "a picture");
    FAIL() << "wrote to /dev/full";
  } catch (const std::system_error& e) {
    EXPECT_NE(std::string(e.what()).find("'/dev/full'"), std::string::npos) << e.what();
    EXPECT_EQ(e.code().value(), ENOSPC) << e.what();
  }
  EXPECT_TRUE(is_char_device("/dev/full"));
  EXPECT_FALSE(fs::exists("/dev/full.tmp." + std::to_string(::getpid())));
}

// A full disk, as the file-size limit makes one: the write fails part way, and the old file is
// still whole with nothing left beside it.
TEST(AtomicFile, AFullDiskKeepsTheOldFile) {
  const fs::path dir = fs::temp_directory_path() / ("ordo_atomic_d_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path file = dir / "out.json";
  write_file_atomically(file.string(), "old");
  rlimit saved{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = saved;
  small.rlim_cur = 4096;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  bool threw = false;
  try {
    write_file_atomically(file.string(), std::string(1 << 20, 'x'));
  } catch (const std::system_error& e) {
    threw = true;
    EXPECT_EQ(e.code().value(), EFBIG) << e.what();
  }
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_TRUE(threw);
  EXPECT_EQ(slurp(file), "old");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  fs::remove_all(dir);
}

// A symbolic link stays a link; its target is what gets replaced.
TEST(AtomicFile, ALinkIsFollowed) {
  const fs::path dir = fs::temp_directory_path() / ("ordo_atomic_l_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  write_file_atomically((dir / "target.json").string(), "old");
  fs::create_symlink("target.json", dir / "link.json");
  write_file_atomically((dir / "link.json").string(), "new");
  EXPECT_TRUE(fs::is_symlink(dir / "link.json"));
  EXPECT_EQ(slurp(dir / "target.json"), "new");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ordo::io
