// Where subcommands put what they produce: a file named with -o (or --trace, --dot), or
// standard output when no file is named. A file is written atomically (io/atomic_file.hpp):
// an interrupted command leaves the old file or none, never half a new one. Output paths are
// checked before any work, against each other and against every input, by the front end
// (path_options.hpp), so that a search of an hour does not end in "cannot write".
#pragma once

#include <string>
#include <string_view>

namespace ordo::tools {

// Writes `text` to `path`, or to standard output when `path` is empty. A file that cannot be
// written, or standard output that fails (a full disk, /dev/full), is reported on standard
// error, naming `command`, and gives false.
bool write_output(const std::string& path, const std::string& text, std::string_view command);

// Flushes standard output; false, with the reason on standard error, when it failed, so that
// `ordo step-dag > /dev/full` does not exit 0 having written nothing.
bool flush_standard_output(std::string_view command);

}  // namespace ordo::tools
