// Where subcommands put what they produce: a file named with -o (or --trace, --dot), or
// standard output when no file is named. A file is written atomically (io/atomic_file.hpp):
// an interrupted command leaves the old file or none, never half a new one.
#pragma once

#include <string>
#include <string_view>

namespace ordo::tools {

// Writes `text` to `path`, or to standard output when `path` is empty. A file that cannot be
// written is reported on standard error, naming `command`, and gives false.
bool write_output(const std::string& path, const std::string& text, std::string_view command);

}  // namespace ordo::tools
