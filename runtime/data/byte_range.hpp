// Bytes read at an offset, from memory or from a file, so that one RecordIO parser serves both a
// .rec file of a hundred gigabytes (read a record at a time, never whole) and the fuzz harness's
// input (in memory). Every read is checked against the size first: a claim past the end is the
// caller's error to report, never a short read or an allocation.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ordo::data {

class ByteRange {
 public:
  virtual ~ByteRange() = default;
  virtual std::uint64_t size() const = 0;
  // Copies [offset, offset + count) into `out`; the caller has checked it lies within size().
  // A file read that fails throws DataError naming the file.
  virtual void read(std::uint64_t offset, std::size_t count, char* out) const = 0;
};

// Bytes held by the caller, which must outlive the range.
class MemoryRange final : public ByteRange {
 public:
  explicit MemoryRange(std::string_view bytes) : bytes_(bytes) {}
  std::uint64_t size() const override { return bytes_.size(); }
  void read(std::uint64_t offset, std::size_t count, char* out) const override;

 private:
  std::string_view bytes_;
};

// A file opened for reading with pread, so readers on several threads can share it. Its size is
// taken once, when it is opened. Throws DataError naming the file when it cannot be opened.
class FileRange final : public ByteRange {
 public:
  explicit FileRange(std::string path);
  FileRange(const FileRange&) = delete;
  FileRange& operator=(const FileRange&) = delete;
  ~FileRange() override;
  std::uint64_t size() const override { return size_; }
  void read(std::uint64_t offset, std::size_t count, char* out) const override;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

}  // namespace ordo::data
