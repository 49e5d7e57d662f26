// Test results as JUnit XML, the form Jenkins, GitLab and most CI systems read (Ant's and
// Maven Surefire's: testsuites > testsuite > testcase, with failure, error or skipped inside a
// case). A command that checks properties reports each property as a test case, so that a CI
// page lists what held, what failed and what was not decided. Every string may be arbitrary
// bytes: they are escaped (xml_text.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ordo::report {

// What a case that did not pass says: a one-line message (an attribute), an optional type (an
// attribute of failure and error) and the details as the element's text.
struct JunitOutcome {
  std::string message;
  std::string type;
  std::string text;
};

struct JunitCase {
  std::string suite;      // the testsuite it belongs to; suites appear in the order first named
  std::string classname;  // dotted: CI systems group cases by its parts
  std::string name;
  double seconds = 0.0;
  // At most one is written, the first set of error, failure, skipped; none: the case passed.
  std::optional<JunitOutcome> failure;  // the property checked does not hold
  std::optional<JunitOutcome> error;    // the check itself could not run (bad input)
  std::optional<JunitOutcome> skipped;  // not decided; never counted as passed
};

// The whole document: an XML declaration, one <testsuites name=...> with the totals (tests,
// failures, errors, skipped, time), one <testsuite> per suite with its own, and the cases.
std::string junit_xml(const std::vector<JunitCase>& cases, std::string_view name = "ordo");

// "ordo.<command>.<job>.ranks<N>.<backend>": every character of `job` other than a letter, a
// digit, `-` and `_` turned into `_` (a dot would split the class name), runs of `_` made one;
// ranks 0 and an empty backend leave their parts out.
std::string junit_classname(std::string_view command, std::string_view job, std::uint32_t ranks,
                            std::string_view backend);

}  // namespace ordo::report
