#include "fuzz/lib/report_sarif.hpp"

#include "checker/verify/property_rules.hpp"

namespace ordo::fuzz {

namespace {

std::string_view level_of(RecordKind kind) {
  // A mutant's unsafety is what a change would do: worth a look, not a failed check.
  return kind == RecordKind::note ? "note" : "error";
}

std::string verdict_word(CaseVerdict verdict) {
  switch (verdict) {
    case CaseVerdict::safe:
      return "safe";
    case CaseVerdict::unsafe:
      return "unsafe";
    case CaseVerdict::unknown:
      return "unknown";
    case CaseVerdict::disagreement:
      return "disagreement";
  }
  return "?";
}

// A set of generated jobs as one word: the worst that was found.
std::string outcome_word(CampaignOutcome outcome) {
  switch (outcome) {
    case CampaignOutcome::clean:
      return "safe";
    case CampaignOutcome::unsafe:
      return "unsafe";
    case CampaignOutcome::unknown:
      return "unknown";
    case CampaignOutcome::disagreement:
      return "disagreement";
    case CampaignOutcome::not_written:
      return "not written";
  }
  return "?";
}

report::SarifResult result_of(const Record& r) {
  report::SarifResult result;
  if (r.placed) result = *r.placed;
  result.rule_id = r.kind == RecordKind::disagreement || r.property.empty()
                       ? std::string(disagreement_rule)
                       : r.property;
  result.level = std::string(level_of(r.kind));
  result.message = r.case_name + ": " + r.message;
  if (!r.reproduce.empty()) {
    result.message += "\nreproduce with:";
    for (const std::string& command : r.reproduce) result.message += "\n  " + command;
  }
  if (!result.location) {
    // No witness to place (the checker failed, or a run ended in what no property names): the
    // case's dump as a whole.
    result.location = report::whole_file(r.dump_path, r.case_name);
  }
  return result;
}

}  // namespace

report::SarifRun campaign_sarif(const CampaignSummary& s) {
  report::SarifRun run;
  run.rules = checker::property_rules();
  run.rules.push_back({std::string(disagreement_rule), "CheckerRuntimeAgreement",
                       "The checker's verdict and the runtime's schedules agree.",
                       "The checker's verdict and the runtime's schedules agree: safe means every "
                       "schedule on the runtime finishes, unsafe means the checker's witness ends "
                       "on the runtime in the violation it names, and every schedule that fails "
                       "on the runtime fails the same way on the checker's model. A disagreement "
                       "is a bug in ordo, or a job whose model is not what the runtime runs.",
                       "error"});
  for (const Record& r : s.records) run.results.push_back(result_of(r));
  if (s.generated) {
    run.properties = {
        {"verdict", outcome_word(s.outcome)},
        {"backend", std::string(comm::to_string(s.backend))},
        {"schedules", static_cast<std::int64_t>(s.schedules)},
        {"generated_safe", std::int64_t{s.generated_safe}},
        {"generated_unsafe", std::int64_t{s.generated_unsafe}},
        {"generated_unknown", std::int64_t{s.generated_unknown}},
        {"generated_disagree", std::int64_t{s.generated_disagree}},
        {"generated_left_out", std::int64_t{s.generated_left_out}},
        {"seconds", s.seconds},
    };
    if (s.generated_unknown + s.generated_left_out > 0) {
      run.notifications.push_back(
          {"warning", std::to_string(s.generated_unknown) + " job(s) undecided and " +
                          std::to_string(s.generated_left_out) +
                          " not drawn when the time ran out (raise --timeout)"});
    }
    return run;
  }
  run.properties = {
      {"verdict", verdict_word(s.job.verdict)},
      {"ranks", std::int64_t{s.ranks}},
      {"backend", std::string(comm::to_string(s.backend))},
      {"schedules", static_cast<std::int64_t>(s.schedules)},
      {"mutants_checked", std::int64_t{s.mutants_checked}},
      {"mutants_unsafe", std::int64_t{s.mutants_unsafe}},
      {"mutants_disagree", std::int64_t{s.mutants_disagree}},
      {"mutants_invalid", std::int64_t{s.mutants_invalid}},
      {"mutants_left_out", std::int64_t{s.mutants_left_out}},
      {"seconds", s.seconds},
  };
  if (s.job.verdict == CaseVerdict::unknown) {
    run.notifications.push_back({"warning", s.job.message});
  }
  return run;
}

}  // namespace ordo::fuzz
