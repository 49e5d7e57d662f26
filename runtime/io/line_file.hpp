// A file of lines that a reader (or a crash, or a disk that fills) never leaves with half a line
// at its end: each line goes to the file in one write(2), and a write that fails part way is cut
// back to the last whole line before the error is reported. What `ordo train --metrics` writes.
#pragma once

#include <string>
#include <string_view>

namespace ordo::io {

class LineFile {
 public:
  // Opens (creating) `path`, emptied unless `append`. Throws std::system_error naming the path
  // and why (errno) when it cannot.
  LineFile(std::string path, bool append);
  LineFile(const LineFile&) = delete;
  LineFile& operator=(const LineFile&) = delete;
  ~LineFile();

  // Appends `line` and a newline. Throws std::system_error naming the path and why when the
  // write fails; the file then ends where it ended before (where it is a regular file: a device
  // or a pipe cannot be cut back).
  void write(std::string_view line);

  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int fd_ = -1;
  bool regular_ = false;
};

}  // namespace ordo::io
