// Every way the paths of one run get in each other's way, found before the command does any
// work. The command line describes each command's paths with their roles (path_use.hpp) and
// refuses the run on any of these, so that no command can leave one out.
#pragma once

#include <string>
#include <vector>

#include "runtime/paths/path_use.hpp"

namespace ordo::paths {

// How many files below a folder are looked at for a hard link of an output (folder_holds): a
// folder of a million images is not read whole for a link that is almost never there.
inline constexpr std::uint64_t hard_link_search_max = 1u << 18;

// Each problem in words that name the option, the path and what was expected; empty when there
// is none. First every output that cannot be written where it is (writable.hpp), then each pair
// of paths of which one is written:
// - an output on an input: the same file (the same device and inode where both exist, so that a
//   symbolic or a hard link is the file it names; else the same resolved path), in an input
//   folder, or among the entries of one the command reads;
// - an input in an output folder, or among the entries the command writes there, or among the
//   files an output writes beside it (a timeline's FILE.rank-K.json);
// - two outputs on one file, or one output in another's folder.
// Inputs may lie on each other: reading twice destroys nothing. Empty paths are not used.
std::vector<std::string> path_conflicts(const std::vector<PathUse>& uses);

}  // namespace ordo::paths
