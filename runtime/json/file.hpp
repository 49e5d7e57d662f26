// Reading a JSON input file (a dump, a trace, a network description) under the bounds every
// reader of user files shares: not a directory, at most `bytes_max` bytes (and no more read
// from a pipe or a device, whose size is not known before), and no NUL byte, which JSON text
// never holds, so that a device like /dev/zero is refused in its first chunk instead of after
// half a gigabyte.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "runtime/json/limits.hpp"

namespace ordo::json {

// The file's text. Throws errors::InputError whose where() is the path (escaped) and whose problem
// names `what` ("dump", "trace", "network description"). A machine out of memory is
// std::bad_alloc, not bad input.
std::string read_json_file(const std::filesystem::path& path, std::string_view what,
                           std::uint64_t bytes_max = limits::text_bytes_max);

}  // namespace ordo::json
