// What a campaign found, one record per case that has something to say, in a shape every output
// format can take: plain text today (report_text.hpp), SARIF results or JUnit test cases
// tomorrow. Each record carries its own files and the commands that reproduce it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report/sarif.hpp"

namespace ordo::fuzz {

enum class RecordKind : std::uint8_t {
  finding,       // the user's job is unsafe
  note,          // a mutant is unsafe: what a small change to the job would do
  disagreement,  // the checker and the runtime contradict each other: a bug in ordo or the model
};

struct Record {
  RecordKind kind = RecordKind::finding;
  std::string case_name;               // "job", "mutant-03-drop-read"
  std::string change;                  // for a mutant, what was changed in words; empty for the job
  std::string property;                // "P1".."P4", or empty when none applies (a runtime fault)
  std::string message;                 // what was found, in words, one or more lines
  std::string dump_path;               // the case's job (dag::write_dump); empty when not written
  std::string trace_path;              // the witness (checker::write_trace); empty when not written
  std::vector<std::string> reproduce;  // `ordo verify ...`, `ordo replay ...`
  std::vector<std::string> witness;    // the witness's transitions, one line each
  // How the runtime met it: the 1-based index of the first failing schedule among those run.
  std::optional<std::uint64_t> found_by_schedule;
  std::string schedule;  // that schedule's name ("pct depth 2 seed S"), when there is one
  // The witness placed in the written dump as `ordo verify --format sarif` places it: the party
  // that broke the property, the others, and the transitions as a code flow. Made while the
  // case's model exists, for report_sarif.hpp; nullopt when there is no witness.
  std::optional<report::SarifResult> placed;
};

std::string_view to_string(RecordKind kind);  // "finding", "note", "disagreement"

// A report's or message's first line, without the colon that introduces the lines it leaves out:
// what a one-line summary of it shows.
std::string first_line(const std::string& text);

}  // namespace ordo::fuzz
