#include "runtime/data/byte_range.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include "runtime/data/data_error.hpp"
#include "runtime/io/input_file.hpp"

namespace ordo::data {

void MemoryRange::read(std::uint64_t offset, std::size_t count, char* out) const {
  std::memcpy(out, bytes_.data() + offset, count);
}

FileRange::FileRange(std::string path) : path_(std::move(path)) {
  // Before the open: opening a FIFO no one writes waits for ever (the fstat below comes too late).
  if (std::optional<io::InputProblem> problem = io::input_file_problem(path_, "data file")) {
    throw DataError(path_, problem->problem, problem->expected);
  }
  fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) {
    throw DataError(path_, std::string("cannot open: ") + std::strerror(errno),
                    "a readable data file");
  }
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd_);
    throw DataError(path_, "is not a regular file", "a regular file");
  }
  size_ = static_cast<std::uint64_t>(st.st_size);
}

FileRange::~FileRange() {
  if (fd_ >= 0) ::close(fd_);
}

void FileRange::read(std::uint64_t offset, std::size_t count, char* out) const {
  std::size_t done = 0;
  while (done < count) {
    const ssize_t n = ::pread(fd_, out + done, count - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      // The file shrank under us, or the disk failed: either way the bytes are not there.
      throw DataError(path_ + ": byte " + std::to_string(offset + done),
                      n == 0 ? std::string("the file ended early (was it truncated while open?)")
                             : std::string("a read failed: ") + std::strerror(errno),
                      std::to_string(count) + " readable bytes at " + std::to_string(offset));
    }
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace ordo::data
