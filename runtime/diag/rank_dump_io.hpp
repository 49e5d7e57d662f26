// A rank's hang dump as JSON text, format "ordo-flight" version 1 (docs/diagnostics.md), and back.
// The reader is strict, as every ordo reader is: a file that is not a whole, well-formed dump is
// refused with an errors::InputError saying where, what and what was expected, and nothing in it
// can make the reader allocate beyond the file's own (bounded) size.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "runtime/diag/rank_dump.hpp"
#include "runtime/errors/input_error.hpp"

namespace ordo::diag {

// A dump larger than this is refused before it is parsed.
inline constexpr std::uint64_t dump_bytes_max = 64ull << 20;

std::string write_rank_dump(const RankDump& dump);
// Throws errors::InputError.
RankDump read_rank_dump(std::string_view text);

// "DIR/rank-K.json".
std::string rank_dump_path(const std::string& dir, dag::Rank rank);
// Creates `dir` if needed and writes the dump there atomically (io/atomic_file.hpp); returns the
// path. Throws std::system_error.
std::string write_rank_dump_file(const std::string& dir, const RankDump& dump);
// Throws errors::InputError naming the file (an unreadable file, or a bad dump in it).
RankDump read_rank_dump_file(const std::string& path);

// The ranks' step program beside their dumps (a DAG dump, docs/dag-format.md), when the job
// knew it: `ordo analyze DIR` reads it unless given --program.
inline constexpr const char* program_file_name = "program.json";
// Creates `dir` if needed and writes `program_dump` there atomically; returns the path. Throws
// std::system_error.
std::string write_program_file(const std::string& dir, const std::string& program_dump);

}  // namespace ordo::diag
