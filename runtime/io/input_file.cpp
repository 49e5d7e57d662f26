#include "runtime/io/input_file.hpp"

#include <atomic>
#include <system_error>

namespace ordo::io {

namespace {

namespace fs = std::filesystem;

// How many StreamsUnderABound are held; a count, so that nesting is harmless.
std::atomic<int> bounds_held{0};

std::string kind_of(fs::file_type type) {
  switch (type) {
    case fs::file_type::fifo:
      return "a named pipe (FIFO)";
    case fs::file_type::socket:
      return "a socket";
    case fs::file_type::character:
      return "a character device";
    case fs::file_type::block:
      return "a block device";
    default:
      return "not a regular file";
  }
}

}  // namespace

StreamsUnderABound::StreamsUnderABound() { ++bounds_held; }
StreamsUnderABound::~StreamsUnderABound() { --bounds_held; }

std::optional<InputProblem> input_file_problem(const fs::path& path, std::string_view what) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);  // through symbolic links
  if (error || !fs::exists(status)) return std::nullopt;   // the open says why, with errno
  const std::string a_file = "a " + std::string(what);
  if (fs::is_directory(status)) return InputProblem{"is a directory", a_file};
  if (fs::is_regular_file(status)) return std::nullopt;
  if (bounds_held.load() > 0) return std::nullopt;
  return InputProblem{"is " + kind_of(status.type()) + ", whose reading may wait for ever",
                      a_file +
                          " that is a regular file (a stream is read only under a "
                          "--timeout: ordo verify, fuzz, simulate)"};
}

}  // namespace ordo::io
