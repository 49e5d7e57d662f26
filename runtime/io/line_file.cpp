#include "runtime/io/line_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace ordo::io {

namespace {

[[noreturn]] void fail(int error, const std::string& what, const std::string& path) {
  throw std::system_error(error, std::generic_category(), what + " '" + path + "'");
}

}  // namespace

LineFile::LineFile(std::string path, bool append) : path_(std::move(path)) {
  fd_ = ::open(path_.c_str(),
               O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY | (append ? O_APPEND : O_TRUNC), 0644);
  if (fd_ < 0) fail(errno, "cannot open", path_);
  struct stat st {};
  regular_ = ::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode);
}

LineFile::~LineFile() {
  if (fd_ >= 0) ::close(fd_);
}

void LineFile::write(std::string_view line) {
  std::string whole(line);
  whole.push_back('\n');
  // Where the line starts: the file's end, since this process is its one writer.
  const off_t start = regular_ ? ::lseek(fd_, 0, SEEK_END) : 0;
  std::size_t done = 0;
  while (done < whole.size()) {
    const ssize_t n = ::write(fd_, whole.data() + done, whole.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = n < 0 ? errno : ENOSPC;
      // A half line would be read as a line; the lines before it are whole.
      if (regular_ && start >= 0 && done != 0) (void)::ftruncate(fd_, start);
      fail(error, "cannot write", path_);
    }
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace ordo::io
