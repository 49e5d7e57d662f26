// Files of lines and messages written whole: a line file that a full disk stops keeps only whole
// lines and says why; a message reaches its reader as one write.
#include "runtime/io/line_file.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>

#include "runtime/io/message_line.hpp"

namespace ordo::io {
namespace {

namespace fs = std::filesystem;

std::string read_back(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path scratch_file(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("ordo_lines_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

TEST(LineFile, WritesLinesAndAppendsWhenAsked) {
  const fs::path file = scratch_file("m.jsonl");
  {
    LineFile f(file.string(), false);
    f.write("one");
    f.write("two");
  }
  EXPECT_EQ(read_back(file), "one\ntwo\n");
  LineFile(file.string(), true).write("three");
  EXPECT_EQ(read_back(file), "one\ntwo\nthree\n");
  LineFile(file.string(), false).write("fresh");
  EXPECT_EQ(read_back(file), "fresh\n");
  fs::remove_all(file.parent_path());
}

TEST(LineFile, AFileThatCannotBeOpenedSaysWhy) {
  try {
    LineFile f("/no/such/dir/m.jsonl", false);
    FAIL() << "opened a file in no directory";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code().value(), ENOENT) << e.what();
    EXPECT_NE(std::string(e.what()).find("'/no/such/dir/m.jsonl'"), std::string::npos) << e.what();
  }
}

// A disk that fills mid-run, as the file-size limit makes one: the write that does not fit is cut
// back, so the file ends with the last whole line, and the error says why.
TEST(LineFile, AFullDiskLeavesOnlyWholeLines) {
  const fs::path file = scratch_file("full.jsonl");
  rlimit saved{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = saved;
  small.rlim_cur = 950;  // 9 lines of 100 bytes, and half of a tenth
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  int lines = 0;
  int error = 0;
  {
    LineFile f(file.string(), false);
    try {
      for (; lines < 100; ++lines) f.write(std::string(99, static_cast<char>('a' + lines % 26)));
    } catch (const std::system_error& e) {
      error = e.code().value();
    }
  }
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_EQ(lines, 9);
  EXPECT_EQ(error, EFBIG);
  const std::string text = read_back(file);
  EXPECT_EQ(text.size(), 900u);
  EXPECT_EQ(text.back(), '\n');
  fs::remove_all(file.parent_path());
}

// Every message is one write: a datagram socket hands the reader each write as one message, so
// a message written in pieces would arrive as several.
TEST(MessageLine, AMessageIsOneWrite) {
  int fds[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_SEQPACKET, 0, fds), 0);
  const std::string long_one(3000, 'x');
  write_line("ordo train: rank 1: error: a message", fds[0]);
  write_line(long_one, fds[0]);
  char buf[8192];
  ssize_t n = ::recv(fds[1], buf, sizeof buf, 0);
  EXPECT_EQ(std::string(buf, static_cast<std::size_t>(n)),
            "ordo train: rank 1: error: a message\n");
  n = ::recv(fds[1], buf, sizeof buf, 0);
  EXPECT_EQ(std::string(buf, static_cast<std::size_t>(n)), long_one + "\n");
  ::close(fds[0]);
  ::close(fds[1]);
}

}  // namespace
}  // namespace ordo::io
