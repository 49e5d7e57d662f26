// One path a command uses, as the command line gave it, with its role: what the command does
// with it decides what may not lie on it, in it or around it (path_conflicts.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/paths/name_pattern.hpp"

namespace ordo::paths {

enum class Role : std::uint8_t {
  // A file read.
  input_file,
  // A folder read: every file in it at any depth, or only the entries `names` match (the ranks'
  // dumps of `ordo analyze DIR`, the data files of `--data-dir`).
  input_folder,
  // A file written: whole (io/atomic_file.hpp), or in place where it is no regular file (a
  // device, a pipe). `names`: files written beside it whose names derive from its own (the
  // per-rank parts FILE.rank-K.json of a timeline).
  output_file,
  // A folder written, made when missing: every entry in it, or only the entries `names` match.
  // A folder the command also reads back (the checkpoints `--resume` reads) has this role too:
  // what it reads there is its own writing, so nothing else it reads or writes may lie there.
  output_folder,
};

struct PathUse {
  std::string option;  // how the command line names it: "--dot", "DIR"
  std::string path;    // as given; empty: not used by this run (standard output)
  Role role = Role::input_file;
  // Folders: the entries directly inside it the command reads or writes, each with everything
  // below it; empty: the whole folder. Output files: the files beside it it writes too.
  std::vector<NamePattern> names;
};

bool is_output(Role role);
bool is_folder(Role role);

// A path as every message writes it: 'PATH'.
std::string quoted(const std::string& path);

}  // namespace ordo::paths
