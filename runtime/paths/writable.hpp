// Whether an output can be written where the command line puts it, before any work, so that a
// search of an hour does not end in "cannot write": a file must not be a folder and its folder
// must exist and be writable (the new file is made beside the old one and renamed over it); a
// folder must be one, or be makeable in the nearest folder above it that exists.
#pragma once

#include <optional>
#include <string>

#include "runtime/paths/path_use.hpp"

namespace ordo::paths {

// Why `use` (an output) cannot be written, naming its option and path; nullopt when it can.
std::optional<std::string> unwritable(const PathUse& use);

}  // namespace ordo::paths
