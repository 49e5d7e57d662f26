// `ordo verify`'s answer as JUnit test cases (docs/checker.md, "JUnit"): one case per property
// P1-P5 for the configuration checked, class name "ordo.verify.<job>.ranks<N>.<backend>". Safe:
// four passing cases. Unsafe: a failure for the property broken, with the violation and the
// witness in words; the others are skipped, since the search stops at the first violation and
// never decided them. Unknown: four skipped cases. Never is a property not decided counted as
// passed.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "checker/verify/job_places.hpp"
#include "checker/verify/verify.hpp"
#include "report/junit.hpp"

namespace ordo::checker {

// "ordo.verify.<job>.ranks<N>.<backend>": the job is the dump's file name without its extension,
// or the job's name, with what would split it into more class-name parts ('.', spaces, brackets)
// turned into '_'. `ranks` 0 (not known) leaves out its part.
std::string junit_classname(const JobSource& source, std::uint32_t ranks, std::string_view backend);

std::vector<report::JunitCase> verify_junit(const System& model, const Verification& verification,
                                            const JobSource& source);

// Four skipped cases, for an unknown answer that no Verification carries (`why`: the bound and
// the stage it stopped).
std::vector<report::JunitCase> verify_junit_unknown(const JobSource& source, std::uint32_t ranks,
                                                    std::string_view backend, std::string_view why,
                                                    double seconds);

// One case "input" in error: the job could not be verified.
std::vector<report::JunitCase> verify_junit_failed(const JobSource& source, std::string_view error,
                                                   double seconds);

}  // namespace ordo::checker
