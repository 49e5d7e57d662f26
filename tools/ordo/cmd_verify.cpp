// `ordo verify`: decide order consistency, the thread rule, deadlock freedom and termination for
// a job (a dump, or a design's step on a network) and say so in words or JSON, with the witness
// as a trace file and the violation as a Graphviz picture on request.
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "checker/report/dot.hpp"
#include "checker/report/trace_io.hpp"
#include "checker/verify.hpp"
#include "runtime/dag/dump_error.hpp"
#include "tools/ordo/commands.hpp"
#include "tools/ordo/job_input.hpp"
#include "tools/ordo/output.hpp"

namespace ordo::tools {

namespace {

struct VerifyCli {
  JobInput input;
  std::uint32_t ranks = 0;  // 0: the job's own, or 2 for a job valid at any rank count
  bool json = false;
  std::string trace_path;
  std::string dot_path;
  double timeout = 60.0;
  std::uint64_t states_max = 5'000'000;
  std::string method = "auto";
};

checker::Method parse_method(const std::string& name) {
  if (name == "auto") return checker::Method::automatic;
  if (name == "explicit") return checker::Method::explicit_search;
  if (name == "symbolic") return checker::Method::symbolic;
  throw std::invalid_argument("unknown method '" + name + "'; expected auto, explicit or symbolic");
}

int run_verify(const VerifyCli& o) {
  dag::Job job;
  try {
    job = o.input.load();
  } catch (const dag::DumpError& e) {
    std::cerr << "ordo verify: error: " << e.what() << '\n';
    return exit_bad_input;
  }
  const bool ranks_defaulted = o.ranks == 0 && !job.ranks;
  const std::uint32_t ranks = o.ranks != 0 ? o.ranks : job.ranks.value_or(2);
  std::optional<checker::Model> built;
  try {
    built.emplace(std::move(job), ranks);
  } catch (const dag::DumpError& e) {
    // The reader names the file in its errors; validation at the rank count must too.
    std::cerr << "ordo verify: error: " << o.input.name() << ": " << e.what() << '\n';
    return exit_bad_input;
  }
  const checker::Model& model = *built;
  if (ranks_defaulted) {
    std::cerr << "ordo verify: note: the job fixes no rank count; verifying at " << ranks
              << " ranks (give --ranks N for another count)\n";
  }
  checker::VerifyOptions options;
  options.method = parse_method(o.method);
  options.limits.seconds_max = o.timeout;
  options.limits.states_max = o.states_max;
  const checker::Verification v = checker::verify(model, options);

  if (o.json) {
    std::cout << checker::json_report(model, v);
  } else {
    std::cout << o.input.name() << ": " << checker::human_report(model, v);
  }
  bool written = true;
  if (!o.trace_path.empty()) {
    if (v.result.verdict == checker::Verdict::unsafe) {
      written =
          write_output(o.trace_path, checker::write_trace(model, v.result), "verify") && written;
    } else {
      std::cerr << "ordo verify: no witness to write to " << o.trace_path << " (verdict "
                << checker::to_string(v.result.verdict) << ")\n";
    }
  }
  if (!o.dot_path.empty()) {
    written = write_output(o.dot_path, checker::to_dot(model, v.result), "verify") && written;
  }
  if (!written) return exit_bad_input;
  switch (v.result.verdict) {
    case checker::Verdict::safe:
      return exit_ok;
    case checker::Verdict::unsafe:
      return exit_unsafe;
    case checker::Verdict::unknown:
      return exit_unknown;
  }
  return exit_unknown;
}

}  // namespace

Command add_verify(CLI::App& app) {
  auto o = std::make_shared<VerifyCli>();
  CLI::App* sub = app.add_subcommand(
      "verify", "Prove a job's collectives safe in every schedule, or show one that breaks them");
  o->input.add_options(sub, "DAG dump (JSON, docs/dag-format.md)");
  sub->add_option("--ranks", o->ranks, "rank count (default: the job's, or 2)")
      ->check(CLI::Range(1u, 1u << 20));
  sub->add_flag("--json", o->json, "stable JSON on standard output (docs/checker.md)");
  sub->add_option("--trace", o->trace_path,
                  "write the witness schedule here (ordo replay reads it)");
  sub->add_option("--dot", o->dot_path, "write a Graphviz picture of the violation here");
  sub->add_option("--timeout", o->timeout, "seconds before the answer is unknown")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub->add_option("--states-max", o->states_max, "states the explicit search may keep")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub->add_option("--method", o->method, "auto, explicit or symbolic")->capture_default_str();
  return [o] { return run_verify(*o); };
}

}  // namespace ordo::tools
