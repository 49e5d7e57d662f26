// The names the libraries give the files they keep in a folder, as the path check matches them
// (path_options.hpp): read off the libraries' own functions, so that each name is written once,
// where the files are written. Header only: each command that uses one links its library.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "runtime/checkpoint/checkpoint_dir.hpp"
#include "runtime/diag/rank_dump_io.hpp"
#include "runtime/diag/timeline_writer.hpp"
#include "runtime/paths/name_pattern.hpp"

namespace ordo::tools {

inline std::string file_name(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

// A dump folder: the ranks' dumps and the program beside them (rank-K.json, program.json).
inline std::vector<paths::NamePattern> rank_dump_names() {
  return {paths::NamePattern::numbered_as([](std::uint64_t rank) {
            return file_name(diag::rank_dump_path("", static_cast<dag::Rank>(rank)));
          }),
          paths::NamePattern::exact(diag::program_file_name)};
}

// A checkpoint folder: `latest` and the step folders, which a commit removes (step-K).
inline std::vector<paths::NamePattern> checkpoint_names() {
  return {paths::NamePattern::exact(file_name(checkpoint::latest_path(""))),
          paths::NamePattern::numbered_as(
              [](std::uint64_t step) { return file_name(checkpoint::step_dir("", step)); })};
}

// What a timeline FILE is written from: each rank's part beside it (FILE.rank-K.json).
inline std::vector<paths::NamePattern> timeline_part_names(const std::string& path) {
  return {paths::NamePattern::numbered_as([&path](std::uint64_t rank) {
    return file_name(diag::timeline_rank_path(path, static_cast<dag::Rank>(rank)));
  })};
}

}  // namespace ordo::tools
