#include "report/junit.hpp"

#include <cmath>
#include <cstdio>
#include <map>

#include "report/fixed_text.hpp"
#include "report/xml_text.hpp"

namespace ordo::report {

namespace {

std::string attribute(std::string_view name, std::string_view value) {
  return " " + std::string(name) + "=\"" + xml_escaped(value, XmlContext::attribute) + "\"";
}

// Seconds as JUnit readers parse them: a plain decimal, never "nan" or an exponent.
std::string seconds_text(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0.0) seconds = 0.0;
  return fixed_text(seconds, 3);
}

enum class Kind { passed, error, failure, skipped };

Kind kind_of(const JunitCase& c) {
  if (c.error) return Kind::error;
  if (c.failure) return Kind::failure;
  if (c.skipped) return Kind::skipped;
  return Kind::passed;
}

struct Totals {
  std::size_t tests = 0;
  std::size_t failures = 0;
  std::size_t errors = 0;
  std::size_t skipped = 0;
  double seconds = 0.0;

  void add(const JunitCase& c) {
    ++tests;
    const Kind kind = kind_of(c);
    failures += kind == Kind::failure;
    errors += kind == Kind::error;
    skipped += kind == Kind::skipped;
    if (std::isfinite(c.seconds) && c.seconds > 0.0) seconds += c.seconds;
  }

  std::string attributes() const {
    return attribute("tests", std::to_string(tests)) +
           attribute("failures", std::to_string(failures)) +
           attribute("errors", std::to_string(errors)) +
           attribute("skipped", std::to_string(skipped)) + attribute("time", seconds_text(seconds));
  }
};

std::string outcome_xml(std::string_view element, const JunitOutcome& o, bool typed) {
  std::string s = "      <" + std::string(element) + attribute("message", o.message);
  if (typed && !o.type.empty()) s += attribute("type", o.type);
  if (o.text.empty()) return s + "/>\n";
  return s + ">" + xml_escaped(o.text, XmlContext::text) + "</" + std::string(element) + ">\n";
}

std::string case_xml(const JunitCase& c) {
  std::string s = "    <testcase" + attribute("name", c.name) +
                  attribute("classname", c.classname) + attribute("time", seconds_text(c.seconds));
  switch (kind_of(c)) {
    case Kind::passed:
      return s + "/>\n";
    case Kind::error:
      s += ">\n" + outcome_xml("error", *c.error, true);
      break;
    case Kind::failure:
      s += ">\n" + outcome_xml("failure", *c.failure, true);
      break;
    case Kind::skipped:
      s += ">\n" + outcome_xml("skipped", *c.skipped, false);
      break;
  }
  return s + "    </testcase>\n";
}

}  // namespace

std::string junit_xml(const std::vector<JunitCase>& cases, std::string_view name) {
  // Suites in the order first named, each with its cases in their order.
  std::map<std::string_view, std::size_t> index;
  std::vector<std::vector<const JunitCase*>> suites;
  for (const JunitCase& c : cases) {
    const auto [at, added] = index.emplace(c.suite, suites.size());
    if (added) suites.emplace_back();
    suites[at->second].push_back(&c);
  }
  Totals all;
  std::string body;
  for (const std::vector<const JunitCase*>& suite : suites) {
    Totals totals;
    std::string members;
    for (const JunitCase* c : suite) {
      totals.add(*c);
      all.add(*c);
      members += case_xml(*c);
    }
    body += "  <testsuite" + attribute("name", suite.front()->suite) + totals.attributes() + ">\n" +
            members + "  </testsuite>\n";
  }
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites" + attribute("name", name) +
         all.attributes() + ">\n" + body + "</testsuites>\n";
}

std::string junit_classname(std::string_view command, std::string_view job, std::uint32_t ranks,
                            std::string_view backend) {
  std::string part;
  for (const char c : job) {
    const auto byte = static_cast<unsigned char>(c);
    const bool keep = byte >= 0x80 || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                      (c >= '0' && c <= '9') || c == '-' || c == '_';
    const char out = keep ? c : '_';
    if (out == '_' && !part.empty() && part.back() == '_') continue;
    part += out;
  }
  while (!part.empty() && part.back() == '_') part.pop_back();
  if (part.empty()) part = "job";
  std::string name = "ordo." + std::string(command) + "." + part;
  if (ranks != 0) name += ".ranks" + std::to_string(ranks);
  if (!backend.empty()) name += "." + std::string(backend);
  return name;
}

}  // namespace ordo::report
