#include "fuzz/lib/report_text.hpp"

#include <cstdio>
#include <sstream>

namespace ordo::fuzz {

namespace {

std::string indented(const std::string& text, const std::string& indent) {
  std::string out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) out += indent + line + "\n";
  return out;
}

std::string plural(std::uint64_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string seconds(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", s);
  return text;
}

std::string heading(const Record& r) {
  const std::string property = r.property.empty() ? "" : " (" + r.property + ")";
  switch (r.kind) {
    case RecordKind::finding:
      return "FINDING in " + r.case_name + property;
    case RecordKind::note:
      return "note on " + r.case_name + property;
    case RecordKind::disagreement:
      // Loud on purpose: this is a bug in ordo, or a job whose model is not what the runtime runs.
      return "DISAGREEMENT between the checker and the runtime on " + r.case_name +
             " (a bug in ordo, or in how the job models the runtime; please report it with the "
             "files below)";
  }
  return r.case_name;
}

std::string record_text(const Record& r, bool with_witness) {
  std::string out = heading(r) + "\n" + indented(r.message, "  ");
  if (with_witness && !r.witness.empty()) {
    out += "  witness (" + plural(r.witness.size(), "transition", "transitions") + "):\n";
    for (const std::string& line : r.witness) out += "    " + line + "\n";
  }
  out += "  written: " + r.dump_path;
  if (!r.trace_path.empty()) out += ", " + r.trace_path;
  out += "\n  reproduce with:\n";
  for (const std::string& command : r.reproduce) out += "    " + command + "\n";
  return out;
}

// Which bound stopped the checker, and the option that raises it.
std::string bound_words(const checker::Result& r) {
  if (!r.bound) return "no bound reached, nothing proven";
  switch (*r.bound) {
    case checker::Bound::seconds_max:
      return "its share of --timeout ran out; raise --timeout";
    case checker::Bound::states_max:
      return "it reached --states-max; raise it";
    case checker::Bound::bytes_max:
      return "it reached its memory bound";
  }
  return "";
}

std::string job_words(const CampaignSummary& s) {
  const CaseOutcome& job = s.job;
  const std::string runs = plural(job.schedules_run, "schedule", "schedules");
  switch (job.verdict) {
    case CaseVerdict::safe:
      return "the job is safe: the checker proved it, and " + runs + " on the runtime finished";
    case CaseVerdict::unsafe: {
      std::string words = "the job is UNSAFE";
      if (job.failing_index) {
        words += "; the runtime failed in schedule " + std::to_string(*job.failing_index) +
                 ", after " + seconds(job.failing_seconds);
      } else {
        words += " (the checker's witness); none of " + runs + " met it on the runtime";
      }
      return words;
    }
    case CaseVerdict::unknown:
      return "the checker could not decide the job (" + bound_words(job.checked.result) + "); " +
             runs + " on the runtime finished";
    case CaseVerdict::disagreement:
      return "the checker and the runtime DISAGREE on the job";
  }
  return "";
}

std::string mutant_words(const CampaignSummary& s) {
  std::string words = plural(s.mutants_checked, "mutant", "mutants") + " checked";
  if (s.mutants_checked > 0) {
    words += " (" + std::to_string(s.mutants_safe) + " safe, " + std::to_string(s.mutants_unsafe) +
             " unsafe, " + std::to_string(s.mutants_unknown) + " undecided";
    if (s.mutants_disagree > 0) words += ", " + std::to_string(s.mutants_disagree) + " DISAGREE";
    words += ")";
    if (s.mutants_unsafe > 0 && s.job.verdict != CaseVerdict::safe) {
      words += ", the unsafe ones not reported since the job itself is not proven safe";
    }
  }
  if (s.mutants_invalid > 0) {
    words +=
        "; " + plural(s.mutants_invalid, "candidate", "candidates") + " skipped as invalid jobs";
  }
  if (s.mutants_left_out > 0) {
    words += "; " + plural(s.mutants_left_out, "mutant", "mutants") +
             " left unchecked when the time ran out (raise --timeout)";
  }
  return words;
}

std::string generated_words(const CampaignSummary& s) {
  const std::uint32_t checked =
      s.generated_safe + s.generated_unsafe + s.generated_unknown + s.generated_disagree;
  std::string words = plural(checked, "job", "jobs") + " checked (" +
                      std::to_string(s.generated_safe) + " safe, " +
                      std::to_string(s.generated_unsafe) + " UNSAFE, " +
                      std::to_string(s.generated_unknown) + " undecided";
  if (s.generated_disagree > 0) words += ", " + std::to_string(s.generated_disagree) + " DISAGREE";
  words += ")";
  if (s.generated_left_out > 0) {
    words += "; " + plural(s.generated_left_out, "job", "jobs") +
             " left unchecked when the time ran out (raise --timeout)";
  }
  return words;
}

}  // namespace

std::string text_report(const CampaignSummary& s) {
  std::string out;
  for (const Record& r : s.records) {
    out += record_text(r, r.kind != RecordKind::note) + "\n";
  }
  if (s.generated) {
    return out + s.job_name + " under " + std::string(comm::to_string(s.backend)) + ": " +
           generated_words(s) + "; " + plural(s.schedules, "schedule", "schedules") + " in all, " +
           seconds(s.seconds) + ".\n";
  }
  out += s.job_name + " at " + std::to_string(s.ranks) + " rank(s) under " +
         std::string(comm::to_string(s.backend)) + ": " + job_words(s) + "; " + mutant_words(s) +
         "; " + plural(s.schedules, "schedule", "schedules") + " in all, " + seconds(s.seconds) +
         ".\n";
  return out;
}

}  // namespace ordo::fuzz
