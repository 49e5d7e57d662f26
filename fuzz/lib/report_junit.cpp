#include "fuzz/lib/report_junit.hpp"

#include "fuzz/lib/record.hpp"

namespace ordo::fuzz {

namespace {

const Record* record_of(const CampaignSummary& s, const std::string& name) {
  for (const Record& r : s.records) {
    if (r.case_name == name) return &r;
  }
  return nullptr;
}

// The details a failed case carries: the message, the files and the commands.
std::string details(const CaseLine& line, const Record* r) {
  std::string text = line.message + "\n";
  if (r == nullptr) return text;
  text += "written: " + r->dump_path + (r->trace_path.empty() ? "" : ", " + r->trace_path) + "\n";
  for (const std::string& command : r->reproduce) text += "reproduce with: " + command + "\n";
  return text;
}

report::JunitCase case_of(const CampaignSummary& s, const CaseLine& line, bool job) {
  report::JunitCase c;
  c.suite = "ordo fuzz " + s.job_name +
            (s.ranks != 0 ? " at " + std::to_string(s.ranks) + " rank(s)" : std::string()) + " (" +
            std::string(comm::to_string(s.backend)) + ")";
  c.classname = report::junit_classname("fuzz", s.junit_job.empty() ? s.job_name : s.junit_job,
                                        s.ranks, comm::to_string(s.backend));
  if (s.generated) {
    c.name = line.name + ": P1-P5 hold and the checker and the runtime agree (" + line.change + ")";
  } else {
    c.name = job ? "job: P1-P5 hold and the checker and the runtime agree"
                 : line.name + ": the checker and the runtime agree (" + line.change + ")";
  }
  c.seconds = line.seconds;
  const Record* r = record_of(s, line.name);
  if (!line.checked) {
    c.skipped = report::JunitOutcome{"not checked: the time ran out (raise --timeout)", "", ""};
    return c;
  }
  switch (line.verdict) {
    case CaseVerdict::safe:
      break;
    case CaseVerdict::unsafe:
      if (job)
        c.failure = report::JunitOutcome{first_line(line.message), line.property, details(line, r)};
      break;
    case CaseVerdict::unknown:
      c.skipped = report::JunitOutcome{"not decided: " + first_line(line.message), "", ""};
      break;
    case CaseVerdict::disagreement:
      c.failure =
          report::JunitOutcome{"the checker and the runtime disagree: " + first_line(line.message),
                               "disagreement", details(line, r)};
      break;
  }
  return c;
}

}  // namespace

std::vector<report::JunitCase> campaign_junit(const CampaignSummary& s) {
  std::vector<report::JunitCase> cases;
  // A generated job is a job of its own: its case fails when it is unsafe.
  for (std::size_t i = 0; i < s.cases.size(); ++i) {
    cases.push_back(case_of(s, s.cases[i], s.generated || i == 0));
  }
  return cases;
}

std::vector<report::JunitCase> campaign_junit_unfinished(const std::string& job_name) {
  report::JunitCase c;
  c.suite = "ordo fuzz " + job_name;
  c.classname = report::junit_classname("fuzz", job_name, 0, "");
  c.name = "job";
  c.skipped = report::JunitOutcome{"not finished: ordo fuzz ended before it answered", "", ""};
  return {c};
}

std::vector<report::JunitCase> campaign_junit_failed(const std::string& job_name,
                                                     const std::string& error) {
  report::JunitCase c;
  c.suite = "ordo fuzz " + job_name;
  c.classname = report::junit_classname("fuzz", job_name, 0, "");
  c.name = "input";
  c.error = report::JunitOutcome{error, "bad input", error};
  return {c};
}

}  // namespace ordo::fuzz
