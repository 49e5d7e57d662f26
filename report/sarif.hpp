// Results as SARIF 2.1.0 (OASIS), the JSON form code-scanning services and CI systems read: one
// log with one run of one tool, its rules, one result per finding with where it is and, for a
// finding that a sequence of events leads to, that sequence as a code flow. Generic: the caller
// states rules, results and places in these structs; what a finding of ordo's means lives in the
// code that fills them (verify_sarif.hpp for `ordo verify`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace ordo::report {

// Lines and columns from 1, columns in UTF-16 code units (the log says so: run.columnKind);
// 0 leaves a field out. end_column is one past the last character.
struct SarifRegion {
  std::uint64_t start_line = 0;
  std::uint64_t start_column = 0;
  std::uint64_t end_line = 0;
  std::uint64_t end_column = 0;
};

// A place: in a file, and/or by name in the tool's own terms (a logical location), which is the
// only place there is for an input that is no file. Empty fields are left out.
struct SarifLocation {
  std::string path;  // the file as the user named it: relative paths stay relative (%SRCROOT%)
  std::optional<SarifRegion> region;
  std::string logical_name;       // "allreduce.w0"
  std::string logical_full_name;  // "depcha on mlp: program 'mlp.depcha', op 'allreduce.w0'"
  std::string logical_kind;       // one of SARIF's well-known kinds: "function", "module", ...
  std::string message;            // what is or happens there
};

// A file as a whole, for a result with no place in it to point at: named `name`, of kind
// "module".
SarifLocation whole_file(std::string path, std::string name);

// One event of a code flow (SARIF's threadFlowLocation). `importance` is "essential",
// "important" or "unimportant"; empty leaves SARIF's default, important.
struct SarifStep {
  SarifLocation location;
  std::string importance;
};

struct SarifResult {
  std::string rule_id;
  std::string level = "error";  // "error", "warning", "note" or "none"
  std::string message;
  std::optional<SarifLocation> location;  // where the finding is
  std::vector<SarifLocation> related;     // other places it names, each with its message
  std::vector<SarifStep> steps;           // codeFlows[0].threadFlows[0].locations; none: no flow
};

struct SarifRule {
  std::string id;
  std::string name;  // a short identifier, "OrderConsistency"
  std::string short_description;
  std::string full_description;
  std::string level = "error";  // defaultConfiguration.level
};

// A condition of the run itself (SARIF's toolExecutionNotification), not a finding.
struct SarifNotification {
  std::string level = "error";
  std::string message;
};

using SarifValue = std::variant<std::string, std::int64_t, double, bool>;

struct SarifRun {
  std::string tool_name = "ordo";
  std::string tool_version;  // empty: the project's (tool_version.hpp)
  std::vector<SarifRule> rules;
  std::vector<SarifResult> results;
  // false: the tool could not analyse its input (bad input, bad usage); results stay empty.
  bool execution_successful = true;
  std::optional<int> exit_code;
  std::vector<SarifNotification> notifications;
  // The directory relative paths are relative to, written as %SRCROOT%'s value; empty leaves
  // %SRCROOT% for the reader of the log to resolve.
  std::string source_root;
  std::vector<std::pair<std::string, SarifValue>> properties;  // the run's property bag
};

// The whole log, as indented JSON ending in a newline. Invalid UTF-8 in any string is replaced
// (U+FFFD), never a reason to fail.
std::string sarif_log(const SarifRun& run);
// A run of "ordo" with these rules and results.
std::string sarif_log(const std::vector<SarifResult>& results, bool execution_successful,
                      const std::vector<SarifRule>& rules = {},
                      const std::vector<SarifNotification>& notifications = {});

// A path as a URI reference: every byte but RFC 3986's unreserved characters and '/'
// percent-encoded, so spaces, '%', '#' and a ':' that would read as a scheme are safe. An
// absolute path becomes a file URI ("file:///jobs/a%20b.json"); a relative one stays relative.
std::string path_uri(std::string_view path);

}  // namespace ordo::report
