// A case's files: its job as a dump (dag::write_dump) and its witness as a trace
// (checker::write_trace), named after the case in the campaign's output directory, and the two
// commands that reproduce them, `ordo verify` on the dump and `ordo replay` of the trace.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "checker/search/verdict.hpp"
#include "checker/system/system.hpp"
#include "fuzz/lib/fuzz_case.hpp"

namespace ordo::fuzz {

struct CaseFiles {
  std::string dump_path;
  std::string dump_text;   // what was written there
  std::string trace_path;  // empty when there is no witness
  std::vector<std::string> reproduce;
  bool written = true;  // false when a file could not be written
};

using FileWriter = std::function<bool(const std::string& path, const std::string& text)>;

// Writes `fuzz_case`'s dump and, when given, `witness` as its trace into `out_dir` through
// `write` (nothing when `write` is empty; the paths and commands are given all the same).
CaseFiles write_case_files(const std::string& out_dir, const FuzzCase& fuzz_case,
                           const checker::System& model,
                           const std::optional<checker::Result>& witness, const FileWriter& write);

// The witness's transitions in words, one line each, numbered as `ordo verify` numbers them.
std::vector<std::string> witness_lines(const checker::System& model, const checker::Result& result);

}  // namespace ordo::fuzz
