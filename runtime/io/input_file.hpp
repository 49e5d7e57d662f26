// Whether a path can be read as an input file without waiting for ever. A named pipe with no
// writer blocks its reader in open() until one comes, which may be never; so does a terminal.
// Only a command under a wall-clock bound (ordo verify, fuzz, simulate: their guard ends any wait)
// reads such a stream; every other input must be a regular file. A directory is never a file.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace ordo::io {

// Why `path` is no input file to read now, in the words of an errors::InputError (problem, and
// what was expected), or nullopt when it can be read. `what` names the file ("dump", "model
// file"). A path that does not exist is left to the reader's open, which says so with errno.
struct InputProblem {
  std::string problem;
  std::string expected;
};
std::optional<InputProblem> input_file_problem(const std::filesystem::path& path,
                                               std::string_view what);

// Held for as long as every step of the command is under a wall-clock bound that ends the
// process (tools/ordo/command_guard.hpp): while one is held, a stream (a FIFO, a pipe, a terminal,
// /dev/stdin) is an input too, since the bound ends a wait for a writer that never comes.
class StreamsUnderABound {
 public:
  StreamsUnderABound();
  StreamsUnderABound(const StreamsUnderABound&) = delete;
  StreamsUnderABound& operator=(const StreamsUnderABound&) = delete;
  ~StreamsUnderABound();
};

}  // namespace ordo::io
