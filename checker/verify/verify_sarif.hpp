// `ordo verify`'s answer as a SARIF run (docs/checker.md, "SARIF"): P1-P5 as the rules; an
// unsafe answer is one result of its property, placed at the party that broke it, with the other
// parties as related locations and the witness as the code flow; safe and unknown have no result.
// The run's properties say the verdict, since an empty result list is both.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "checker/verify/job_places.hpp"
#include "checker/verify/verify.hpp"
#include "report/sarif.hpp"

namespace ordo::checker {

report::SarifRun verify_sarif(const System& model, const Verification& verification,
                              const JobSource& source);

// An unknown answer that no Verification carries: a bound of the whole command passed before
// the search could answer for itself (`why` says which, and where). `ranks` 0: not known yet.
report::SarifRun verify_sarif_unknown(std::string_view why, std::uint32_t ranks);

// Input that could not be verified (a file that is no dump, a job invalid at the rank count, a
// bad option): no results, executionSuccessful false, `error` as an error notification.
report::SarifRun verify_sarif_failed(std::string_view error);

}  // namespace ordo::checker
