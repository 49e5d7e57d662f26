#include "runtime/io/atomic_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <optional>
#include <string_view>
#include <system_error>

namespace ordo::io {

namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path) {
  throw std::system_error(errno, std::generic_category(), what + " '" + path + "'");
}

}  // namespace

void sync_directory(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail("cannot open directory", dir);
  const int rc = ::fsync(fd);
  const int saved = errno;
  ::close(fd);
  errno = saved;
  if (rc != 0) fail("cannot flush directory", dir);
}

namespace {

// The file a rename must replace: a symbolic link's target (the link stays a link).
std::string target_of(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_symlink(path, error)) return path;
  const std::filesystem::path target = std::filesystem::weakly_canonical(path, error);
  return error ? path : target.string();
}

// The descriptor a path names by itself (/dev/stdout, /dev/fd/N, /proc/self/fd/N), or -1. Such
// a path is a link into /proc: renaming onto it would replace the link itself (in /dev, as
// root), or the file the shell redirected to, under the feet of the process writing to it.
int descriptor_named(const std::string& path) {
  if (path == "/dev/stdout") return STDOUT_FILENO;
  if (path == "/dev/stderr") return STDERR_FILENO;
  for (const std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (path.size() <= prefix.size() || path.compare(0, prefix.size(), prefix) != 0) continue;
    int fd = 0;
    for (std::size_t i = prefix.size(); i < path.size(); ++i) {
      if (path[i] < '0' || path[i] > '9' || fd > 1'000'000) return -1;
      fd = fd * 10 + (path[i] - '0');
    }
    return fd;
  }
  return -1;
}

constexpr std::string_view temporary_infix = ".tmp.";

std::string temporary_of(const std::string& path, long pid) {
  return path + std::string(temporary_infix) + std::to_string(pid);
}

// The process id that ends `name` after `prefix`, if it is a temporary's name of that prefix.
std::optional<long> temporary_pid(std::string_view name, std::string_view prefix) {
  if (name.size() <= prefix.size() || name.substr(0, prefix.size()) != prefix) return std::nullopt;
  long pid = 0;
  for (const char c : name.substr(prefix.size())) {
    if (c < '0' || c > '9' || pid > 1'000'000'000) return std::nullopt;
    pid = pid * 10 + (c - '0');
  }
  return pid;
}

bool names_a_special_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

}  // namespace

AtomicWriter::AtomicWriter(std::string path) : path_(std::move(path)) {
  // A descriptor of this process is written through a duplicate of it, which shares its offset,
  // so that the bytes follow what was written there before.
  if (const int named = descriptor_named(path_); named >= 0) {
    fd_ = ::fcntl(named, F_DUPFD_CLOEXEC, 0);
    if (fd_ < 0) fail("cannot write to the descriptor of", path_);
    return;
  }
  if (names_a_special_file(path_)) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd_ < 0) fail("cannot open", path_);
    return;
  }
  path_ = target_of(path_);
  // The process id keeps two processes writing one path (ranks sharing a directory) apart; the
  // last rename wins, and each rename is whole.
  temp_ = temporary_of(path_, ::getpid());
  fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) fail("cannot create", temp_);
}

AtomicWriter::~AtomicWriter() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
}

void AtomicWriter::write(std::string_view bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("cannot write", temp_.empty() ? path_ : temp_);
    }
    done += static_cast<std::size_t>(n);
  }
}

void AtomicWriter::commit() {
  if (temp_.empty()) {  // a device or a pipe: nothing to flush or rename, but the close may fail
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) fail("cannot close", path_);
    committed_ = true;
    return;
  }
  if (::fsync(fd_) != 0) fail("cannot flush", temp_);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail("cannot close", temp_);
  if (::rename(temp_.c_str(), path_.c_str()) != 0) fail("cannot rename onto", path_);
  committed_ = true;
  std::filesystem::path dir = std::filesystem::path(path_).parent_path();
  if (dir.empty()) dir = ".";
  sync_directory(dir.string());
}

std::size_t remove_stale_temporaries(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path target(target_of(path));
  fs::path dir = target.parent_path();
  if (dir.empty()) dir = ".";
  const std::string prefix = target.filename().string() + std::string(temporary_infix);
  std::size_t removed = 0;
  std::error_code error;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    const std::optional<long> pid = temporary_pid(it->path().filename().string(), prefix);
    if (!pid || *pid == ::getpid() || !it->is_regular_file(error)) continue;
    // A process that exists (or that this one may not signal) may still rename its file.
    if (*pid > 0 && ::kill(static_cast<pid_t>(*pid), 0) == 0) continue;
    if (*pid > 0 && errno != ESRCH) continue;
    std::error_code ignored;
    if (fs::remove(it->path(), ignored)) ++removed;
  }
  return removed;
}

void write_file_atomically(const std::string& path, std::string_view bytes) {
  AtomicWriter file(path);
  file.write(bytes);
  file.commit();
}

}  // namespace ordo::io
