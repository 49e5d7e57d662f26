#include "runtime/dag/validate.hpp"

#include <cassert>

#include "runtime/dag/detail/check_parts.hpp"
#include "runtime/dag/dump_error.hpp"

namespace ordo::dag {
namespace {

detail::Findings find_problems(const Job& job) {
  detail::Findings findings;
  detail::check_job(job, findings);
  const detail::JobFacts facts = detail::job_facts(job);
  for (std::size_t i = 0; i < job.programs.size(); ++i) {
    detail::ProgramScope scope(facts, i);
    detail::check_program(scope, findings);
  }
  return findings;
}

}  // namespace

std::vector<Diagnostic> validate(const Job& job) {
  const detail::Findings findings = find_problems(job);
  std::vector<Diagnostic> diagnostics;
  diagnostics.reserve(findings.size());
  for (const detail::Finding& finding : findings) {
    assert(!finding.where.empty() && !finding.problem.empty() && !finding.expected.empty());
    diagnostics.push_back({finding.where, finding.problem + "; expected " + finding.expected});
  }
  return diagnostics;
}

void validate_or_throw(const Job& job) {
  const detail::Findings findings = find_problems(job);
  if (findings.empty()) {
    return;
  }
  const detail::Finding& first = findings.front();
  const std::size_t others = findings.size() - 1;
  const std::string more = others == 0 ? ""
                                       : " (and " + std::to_string(others) + " more problem" +
                                             (others == 1 ? "" : "s") + ")";
  throw DumpError(first.where, first.problem + more, first.expected);
}

}  // namespace ordo::dag
