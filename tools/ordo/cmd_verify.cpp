// `ordo verify`: decide order consistency, the thread rule, deadlock freedom and termination for
// a job (a dump, or a design's step on a network) and say so in words or JSON, with the witness
// as a trace file and the violation as a Graphviz picture on request. --timeout and --memory-max
// bound the whole command (command_guard.hpp).
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <new>
#include <optional>
#include <string>

#include "checker/report/dot.hpp"
#include "checker/report/trace_io.hpp"
#include "checker/search/memory.hpp"
#include "checker/verify.hpp"
#include "runtime/dag/dump_error.hpp"
#include "tools/ordo/command_guard.hpp"
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
  std::uint64_t memory_max = 0;  // 0: default_memory_max()
  std::string method = "auto";
  std::string backend = "mpi";
};

// Three quarters of the machine's memory, at most 8 GiB: enough for any job the default time
// limit can decide, and short of the point where the kernel kills the process without a word.
std::uint64_t default_memory_max() {
  constexpr std::uint64_t cap = std::uint64_t{8} << 30;
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return cap;
  return std::min(cap,
                  static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) / 4 * 3);
}

checker::Method parse_method(const std::string& name) {
  if (name == "auto") return checker::Method::automatic;
  if (name == "explicit") return checker::Method::explicit_search;
  if (name == "symbolic") return checker::Method::symbolic;
  throw std::invalid_argument("unknown method '" + name + "'; expected auto, explicit or symbolic");
}

// The search was given what was left of the bounds; the answer names the bounds as the user gave
// them (whole seconds, as the JSON's value always was).
void bounds_as_given(checker::Verification& v, double timeout, std::uint64_t memory_max) {
  if (v.result.bound == checker::Bound::bytes_max) v.result.bound_value = memory_max;
  if (v.result.bound == checker::Bound::seconds_max) {
    v.result.bound_value = static_cast<std::uint64_t>(timeout);
  }
}

// A trace left from an earlier run must not pass for this run's witness.
bool remove_stale_trace(const std::string& path, checker::Verdict verdict) {
  std::cerr << "ordo verify: no witness to write to " << path << " (verdict "
            << checker::to_string(verdict) << ")";
  std::error_code error;
  if (std::filesystem::is_regular_file(path, error)) {
    if (!std::filesystem::remove(path, error)) {
      std::cerr << "; cannot remove the earlier trace there: " << error.message() << '\n';
      return false;
    }
    std::cerr << "; removed the earlier trace there";
  }
  std::cerr << '\n';
  return true;
}

int verdict_code(checker::Verdict verdict) {
  switch (verdict) {
    case checker::Verdict::safe:
      return exit_ok;
    case checker::Verdict::unsafe:
      return exit_unsafe;
    case checker::Verdict::unknown:
      return exit_unknown;
  }
  return exit_unknown;
}

int run_verify(const VerifyCli& o) {
  const CommandClock& clock = command_clock();
  const checker::Method method = parse_method(o.method);
  const std::string name = o.input.name();
  if (std::optional<std::string> problem =
          output_problem({{"--trace", o.trace_path}, {"--dot", o.dot_path}}, o.input.files())) {
    std::cerr << "ordo verify: error: " << *problem << '\n';
    return exit_bad_input;
  }
  const std::uint64_t memory_max = o.memory_max != 0 ? o.memory_max : default_memory_max();
  CommandGuard guard(clock, {o.timeout, memory_max}, {name, o.method, o.json});

  std::optional<checker::Model> built;
  std::optional<checker::Verification> answer;
  try {
    guard.stage("reading the input");
    dag::Job job;
    try {
      job = o.input.load();
    } catch (const dag::DumpError& e) {
      std::cerr << "ordo verify: error: " << e.what() << '\n';
      return exit_bad_input;
    }
    const bool ranks_defaulted = o.ranks == 0 && !job.ranks;
    const std::uint32_t ranks = o.ranks != 0 ? o.ranks : job.ranks.value_or(2);
    guard.ranks(ranks);
    const std::uint64_t tables = checker::Model::table_bytes_at_least(job, ranks);
    if (tables > memory_max) {
      return guard.refuse_memory("the model of " + std::to_string(job.comms.size()) +
                                 " communicator(s) at " + std::to_string(ranks) +
                                 " ranks needs at least " + std::to_string(tables) +
                                 " bytes (--memory-max), before it is built");
    }
    guard.stage("building the model");
    try {
      built.emplace(std::move(job), ranks, *comm::parse_backend(o.backend));
    } catch (const dag::DumpError& e) {
      // The reader names the file in its errors; validation at the rank count must too.
      std::cerr << "ordo verify: error: " << name << ": " << e.what() << '\n';
      return exit_bad_input;
    } catch (const std::invalid_argument& e) {
      std::cerr << "ordo verify: error: " << name << ": " << e.what() << '\n';
      return exit_bad_input;
    }
    if (ranks_defaulted) {
      std::cerr << "ordo verify: note: the job fixes no rank count; verifying at " << ranks
                << " ranks (give --ranks N for another count)\n";
    }
    guard.stage("deciding");
    checker::VerifyOptions options;
    options.method = method;
    options.limits.seconds_max = std::max(o.timeout - clock.elapsed(), 0.001);
    options.limits.states_max = o.states_max;
    // The search stops itself a little short of the bound, with its figures, before the guard
    // has to.
    const std::uint64_t now = checker::resident_bytes();
    const std::uint64_t soft = memory_max / 10 * 9;
    options.limits.bytes_max = soft > now ? soft - now : 1;
    answer = checker::verify(*built, options);
  } catch (const std::bad_alloc&) {
    return guard.out_of_memory();
  }
  guard.stand_down();
  checker::Verification& v = *answer;
  const checker::Model& model = *built;
  bounds_as_given(v, o.timeout, memory_max);
  v.seconds = clock.elapsed();

  if (o.json) {
    std::cout << checker::json_report(model, v);
  } else {
    std::cout << name << ": " << checker::human_report(model, v);
  }
  bool written = true;
  if (!o.trace_path.empty()) {
    if (v.result.verdict == checker::Verdict::unsafe) {
      written =
          write_output(o.trace_path, checker::write_trace(model, v.result), "verify") && written;
    } else {
      written = remove_stale_trace(o.trace_path, v.result.verdict) && written;
    }
  }
  if (!o.dot_path.empty()) {
    written = write_output(o.dot_path, checker::to_dot(model, v.result), "verify") && written;
  }
  if (!written) return exit_bad_input;
  return verdict_code(v.result.verdict);
}

// Seconds as a number above zero that is finite: "nan" compares false with everything, and
// "inf" never runs out, so either would turn the bound off.
const CLI::Validator seconds_bound(
    [](std::string& text) -> std::string {
      std::size_t used = 0;
      double value = 0.0;
      try {
        value = std::stod(text, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != text.size() || used == 0 || !std::isfinite(value) || value <= 0.0) {
        return "'" + text + "' is not a time limit; expected a finite number of seconds above 0";
      }
      return {};
    },
    "SECONDS");

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
  sub->add_option("--timeout", o->timeout,
                  "seconds the whole command may take (reading and building included) before "
                  "the answer is unknown")
      ->check(seconds_bound)
      ->capture_default_str();
  sub->add_option("--states-max", o->states_max, "states the explicit search may keep")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub->add_option("--memory-max", o->memory_max,
                  "resident memory the whole command may take before the answer is unknown, in "
                  "bytes or with a unit (512M, 4G; default: 3/4 of the machine's, at most 8G)")
      ->transform(CLI::AsSizeValue(false))
      ->check(CLI::PositiveNumber);
  sub->add_option("--method", o->method, "auto, explicit or symbolic")->capture_default_str();
  sub->add_option("--backend", o->backend,
                  "the semantics to verify under: mpi (completion at the match) or nccl (every "
                  "call a launch onto the rank's one stream, docs/semantics.md D1-D3)")
      ->check(CLI::IsMember({"mpi", "nccl"}))
      ->capture_default_str();
  return [o] { return run_verify(*o); };
}

}  // namespace ordo::tools
