#include "checker/verify/verify_junit.hpp"

#include <array>
#include <filesystem>

#include "checker/verify/undecided.hpp"
#include "checker/witness/trace_io.hpp"

namespace ordo::checker {

namespace {

constexpr std::array<Property, 5> properties = {Property::p1_order, Property::p2_thread_rule,
                                                Property::p3_deadlock, Property::p4_termination,
                                                Property::p5_buffers};

std::string suite_name(const JobSource& source, std::uint32_t ranks, std::string_view backend) {
  std::string s = "ordo verify " + source.name;
  if (ranks != 0) s += " at " + std::to_string(ranks) + " rank(s)";
  if (!backend.empty()) s += " (" + std::string(backend) + ")";
  return s;
}

std::string first_line(std::string_view text) {
  std::string line(text.substr(0, text.find('\n')));
  if (!line.empty() && line.back() == ':') line.pop_back();
  return line;
}

std::vector<report::JunitCase> property_cases(const JobSource& source, std::uint32_t ranks,
                                              std::string_view backend, double seconds) {
  std::vector<report::JunitCase> cases;
  for (const Property p : properties) {
    report::JunitCase c;
    c.suite = suite_name(source, ranks, backend);
    c.classname = junit_classname(source, ranks, backend);
    c.name = std::string(to_string(p));
    // The five are decided together; equal shares keep the suite's total the time to verdict.
    c.seconds = seconds / static_cast<double>(properties.size());
    cases.push_back(std::move(c));
  }
  return cases;
}

}  // namespace

std::string junit_classname(const JobSource& source, std::uint32_t ranks,
                            std::string_view backend) {
  std::string job = source.name;
  if (!source.dump_path.empty()) {
    job = std::filesystem::path(source.dump_path).stem().string();
  }
  return report::junit_classname("verify", job, ranks, backend);
}

std::vector<report::JunitCase> verify_junit(const System& model, const Verification& v,
                                            const JobSource& source) {
  const Result& r = v.result;
  const std::string_view backend = comm::to_string(model.backend());
  std::vector<report::JunitCase> cases = property_cases(source, r.ranks, backend, v.seconds);
  if (r.verdict == Verdict::safe) return cases;
  if (r.verdict == Verdict::unknown) {
    const std::string why = undecided_words(v);
    for (report::JunitCase& c : cases) c.skipped = report::JunitOutcome{why, "", ""};
    return cases;
  }
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (r.property && properties[i] == *r.property && r.violation) {
      cases[i].failure = report::JunitOutcome{
          std::string(to_string(*r.property)) + " fails at " + std::to_string(r.ranks) +
              " rank(s): " + first_line(comm::describe(*r.violation)),
          std::string(short_name(*r.property)), source.name + ": " + human_report(model, v)};
    } else {
      cases[i].skipped = report::JunitOutcome{
          "not decided: the search stops at the first violation, and found " +
              (r.property ? std::string(to_string(*r.property)) : std::string("one")) + " broken",
          "", ""};
    }
  }
  return cases;
}

std::vector<report::JunitCase> verify_junit_unknown(const JobSource& source, std::uint32_t ranks,
                                                    std::string_view backend, std::string_view why,
                                                    double seconds) {
  std::vector<report::JunitCase> cases = property_cases(source, ranks, backend, seconds);
  for (report::JunitCase& c : cases) {
    c.skipped = report::JunitOutcome{"not decided: " + std::string(why), "", ""};
  }
  return cases;
}

std::vector<report::JunitCase> verify_junit_failed(const JobSource& source, std::string_view error,
                                                   double seconds) {
  report::JunitCase c;
  c.suite = suite_name(source, 0, "");
  c.classname = junit_classname(source, 0, "");
  c.name = "input";
  c.seconds = seconds;
  c.error = report::JunitOutcome{std::string(error), "bad input", std::string(error)};
  return {c};
}

}  // namespace ordo::checker
