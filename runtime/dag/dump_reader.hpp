// Reading a job from its dump (docs/dag-format.md). The reader checks structure: JSON syntax,
// types, required and unknown fields, integer ranges, the limits in limits.hpp, and that every
// name a dump refers to exists. What the job means is validate()'s business.
#pragma once

#include <filesystem>
#include <string_view>

#include "runtime/dag/program.hpp"

namespace ordo::dag {

// Throws DumpError, and nothing else, for any text that is not a well-formed dump; returns for
// every other text. Never reads past `text`, never recurses on its nesting. A machine out of
// memory is std::bad_alloc, which is no fault of the text.
Job read_dump(std::string_view text);

// read_dump on a file's contents, read under json_file.hpp's bounds. Errors name the file:
// where() starts with its path.
Job read_dump_file(const std::filesystem::path& path);

}  // namespace ordo::dag
