// A file that appears whole or not at all: written under a temporary name beside it, synced,
// then renamed over the target (rename is atomic within a file system), and the folder synced so
// the new name survives a crash. A writer that fails or is interrupted leaves the old file, if
// any, and no temporary behind.
#pragma once

#include <string>
#include <string_view>

namespace ordo::data {

class AtomicFile {
 public:
  // Creates PATH.tmp-XXXXXX beside `path`. Throws std::runtime_error naming it on failure.
  explicit AtomicFile(std::string path);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  // Removes the temporary unless commit() succeeded.
  ~AtomicFile();

  void write(std::string_view bytes);
  // fsync, rename to the target, fsync the folder. Throws std::runtime_error on failure.
  void commit();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::string temp_;
  int fd_ = -1;
  bool committed_ = false;
};

}  // namespace ordo::data
