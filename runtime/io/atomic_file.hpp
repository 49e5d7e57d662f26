// Writing a file so that, whatever happens, a reader sees either the old file or the whole new
// one: the bytes go to a temporary file beside it, are flushed to the disk (fsync), the temporary
// file is renamed over the path (atomic on POSIX file systems), and the directory is flushed so
// that the rename itself survives a power cut.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ordo::io {

// Throws std::system_error naming the path and the step that failed (create, write, fsync,
// rename); the temporary file is removed then and the old file, if any, is untouched.
//
// A path that names something other than a regular file (a device such as /dev/full or
// /dev/stdout, a pipe) cannot be replaced by a rename, and must not be: it is written in place,
// every write and the close checked. So is a descriptor of the process named as a path
// (/dev/stdout, /dev/fd/N, /proc/self/fd/N), through a duplicate of it. A symbolic link is
// followed, so the link stays and its target is replaced.
void write_file_atomically(const std::string& path, std::string_view bytes);

// The same guarantee for a file written in pieces, one too large to hold in memory (a RecordIO pack
// of ImageNet is 140 GB): write() appends to the temporary file, commit() flushes it, renames it
// over the path and flushes the directory. Destroyed before commit() (an error, an exception on
// the way), it removes the temporary file and leaves the old file as it was. Throws
// std::system_error as write_file_atomically does.
class AtomicWriter {
 public:
  explicit AtomicWriter(std::string path);
  AtomicWriter(const AtomicWriter&) = delete;
  AtomicWriter& operator=(const AtomicWriter&) = delete;
  ~AtomicWriter();

  void write(std::string_view bytes);
  void commit();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::string temp_;  // empty when written in place
  int fd_ = -1;
  bool committed_ = false;
};

// Removes the temporary files that writers of `path` left beside it when they were killed between
// creating and renaming them: PATH.tmp.PID whose process no longer exists on this machine (a
// live one, or one of another machine sharing the directory, may still rename its file). Only
// names of that pattern are touched. Best effort: what cannot be listed or removed stays.
// Returns how many were removed.
std::size_t remove_stale_temporaries(const std::string& path);

// Flushes a directory's entries (the renames and removals done in it) to the disk. Throws
// std::system_error naming the directory.
void sync_directory(const std::string& dir);

}  // namespace ordo::io
