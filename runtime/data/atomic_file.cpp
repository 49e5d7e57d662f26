#include "runtime/data/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

namespace ordo::data {

namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path) {
  throw std::runtime_error(path + ": " + what + ": " + std::strerror(errno));
}

}  // namespace

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)), temp_(path_ + ".tmp-XXXXXX") {
  std::vector<char> name(temp_.begin(), temp_.end());
  name.push_back('\0');
  fd_ = ::mkstemp(name.data());
  if (fd_ < 0) fail("cannot create a temporary file beside it", path_);
  temp_ = name.data();
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) ::unlink(temp_.c_str());
}

void AtomicFile::write(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("write failed", temp_);
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

void AtomicFile::commit() {
  // mkstemp creates 0600; a data set is for everyone who may read the folder.
  if (::fchmod(fd_, 0644) != 0) fail("chmod failed", temp_);
  if (::fsync(fd_) != 0) fail("fsync failed", temp_);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail("close failed", temp_);
  if (::rename(temp_.c_str(), path_.c_str()) != 0) fail("rename from " + temp_ + " failed", path_);
  committed_ = true;
  std::string folder = std::filesystem::path(path_).parent_path().string();
  if (folder.empty()) folder = ".";
  const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) fail("cannot open its folder to sync it", path_);
  const int synced = ::fsync(dir);
  ::close(dir);
  if (synced != 0) fail("fsync of its folder failed", path_);
}

}  // namespace ordo::data
