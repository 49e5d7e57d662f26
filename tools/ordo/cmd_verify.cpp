// `ordo verify`: decide order consistency, the thread rule, deadlock freedom and termination for
// a job (a dump, or a design's step on a network) and say so in words, JSON or SARIF, with the
// witness as a trace file, the violation as a Graphviz picture and the properties as JUnit test
// cases on request. --timeout and --memory-max bound the whole command (command_guard.hpp).
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <new>
#include <optional>
#include <string>

#include "checker/search/memory.hpp"
#include "checker/verify/verify.hpp"
#include "checker/verify/verify_junit.hpp"
#include "checker/verify/verify_sarif.hpp"
#include "checker/witness/dot.hpp"
#include "checker/witness/trace_io.hpp"
#include "report/junit.hpp"
#include "report/sarif.hpp"
#include "runtime/errors/input_error.hpp"
#include "runtime/json/file.hpp"
#include "tools/ordo/bound_options.hpp"
#include "tools/ordo/command_guard.hpp"
#include "tools/ordo/commands.hpp"
#include "tools/ordo/job_input.hpp"
#include "tools/ordo/output.hpp"

namespace ordo::tools {

namespace {

struct VerifyCli {
  JobInput input;
  bool json = false;        // --json, the same as --format json
  std::string format;       // text, json or sarif; empty: text, or json with --json
  std::string junit_path;
  std::string trace_path;
  std::string dot_path;
  double timeout = 60.0;
  std::uint64_t states_max = 5'000'000;
  std::uint64_t memory_max = 0;  // 0: default_memory_max()
  std::string method = "auto";
  std::string backend = "mpi";
};

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

enum class Format : std::uint8_t { text, json, sarif };

Format format_of(const VerifyCli& o) {
  if (o.json && !o.format.empty() && o.format != "json") {
    throw std::invalid_argument("--json and --format " + o.format +
                                " ask for two formats; expected one of them");
  }
  if (o.format == "sarif") return Format::sarif;
  return o.json || o.format == "json" ? Format::json : Format::text;
}

// How the outputs a CI system reads (--format sarif, --junit) name the job: the dump as given, or
// the design on its network. A design that does not parse still needs a name for its error.
checker::JobSource job_source(const VerifyCli& o) {
  checker::JobSource source;
  source.dump_path = o.input.design.empty() ? o.input.path : "";
  try {
    source.name = o.input.name();
  } catch (const std::exception&) {
    source.name = o.input.design.empty() ? o.input.path : "design '" + o.input.design + "'";
  }
  return source;
}

// The SARIF log and the JUnit file for answers that no Verification carries (bad input, a bound
// of the whole command passed before the search could answer), and the JUnit file written before
// the work, so that a run the guard ends leaves "not decided" there, never an earlier run's file.
class CiOutputs {
 public:
  CiOutputs(const VerifyCli& o, Format format)
      : o_(o),
        sarif_(format == Format::sarif),
        json_(format == Format::json),
        source_(job_source(o)) {}

  const checker::JobSource& source() const { return source_; }
  bool sarif() const { return sarif_; }
  // Standard output holds the answer: a later error must not add a second log there.
  void answered() { answered_ = true; }

  // The message on standard error as every bad input of ordo verify says it, and the same in the
  // SARIF log and the JUnit file (whose path the front end has checked before the command ran).
  int bad_input(const std::string& message) {
    std::cerr << "ordo verify: error: " << message << '\n';
    if (sarif_ && !answered_) {
      report::SarifRun run = checker::verify_sarif_failed(message);
      run.exit_code = exit_bad_input;
      std::cout << report::sarif_log(run);
    }
    if (json_ && !answered_) std::cout << checker::json_error_report(message);
    if (!o_.junit_path.empty()) {
      write_output(o_.junit_path,
                   report::junit_xml(
                       checker::verify_junit_failed(source_, message, command_clock().elapsed())),
                   "verify");
    }
    return exit_bad_input;
  }

  // Before the work: the answer the file gives should the guard end the process.
  bool junit_until_answered(std::uint32_t ranks) {
    if (o_.junit_path.empty()) return true;
    // A device, a pipe or a link (/dev/stdout is one) could receive this and the answer both.
    std::error_code error;
    const auto status = std::filesystem::symlink_status(o_.junit_path, error);
    if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) return true;
    return write_junit_unknown(
        "ordo verify stopped before it answered: --timeout or --memory-max ran out in a stage "
        "that cannot stop by itself (its answer is on standard output)",
        ranks);
  }

  bool write_junit_unknown(const std::string& why, std::uint32_t ranks) {
    if (o_.junit_path.empty()) return true;
    return write_output(o_.junit_path,
                        report::junit_xml(checker::verify_junit_unknown(
                            source_, ranks, o_.backend, why, command_clock().elapsed())),
                        "verify");
  }

  // An unknown answer that the guard would give, in SARIF (the guard writes words or JSON).
  int unknown(CommandGuard& guard, const std::string& why, std::uint32_t ranks) {
    guard.stand_down();
    std::cout << report::sarif_log(checker::verify_sarif_unknown(why, ranks));
    std::cerr << "ordo verify: " << why << '\n';
    return write_junit_unknown(why, ranks) ? exit_unknown : exit_bad_input;
  }

 private:
  const VerifyCli& o_;
  bool sarif_;
  bool json_;
  bool answered_ = false;
  checker::JobSource source_;
};

// The dump's text, for the SARIF regions: read again, since the reader keeps no text. A dump
// that cannot be read now gives locations without lines, not an error.
std::string dump_text(const std::string& path) {
  try {
    return json::read_json_file(path, "dump");
  } catch (const errors::InputError&) {
    return {};
  }
}

int run_verify(const VerifyCli& o, Format format, CiOutputs& ci) {
  const CommandClock& clock = command_clock();
  const checker::Method method = parse_method(o.method);
  const std::string name = o.input.name();
  if (!ci.junit_until_answered(o.input.ranks)) return exit_bad_input;
  const std::uint64_t memory_max = o.memory_max != 0 ? o.memory_max : default_memory_max();
  const GuardFormat guard_format = format == Format::json    ? GuardFormat::json
                                   : format == Format::sarif ? GuardFormat::sarif
                                                             : GuardFormat::text;
  CommandGuard guard(clock, {o.timeout, memory_max},
                     {"ordo verify", name, o.method, guard_format,
                      comm::parse_backend(o.backend).value_or(comm::Backend::mpi)});

  std::optional<checker::System> built;
  std::optional<checker::Verification> answer;
  const char* stage = "reading the input";
  const auto enter = [&guard, &stage](const char* what) {
    stage = what;
    guard.stage(what);
  };
  std::uint32_t ranks = o.input.ranks;
  try {
    enter("reading the input");
    dag::Job job;
    try {
      job = o.input.load();
    } catch (const errors::InputError& e) {
      return ci.bad_input(e.what());
    }
    const bool ranks_defaulted = o.input.ranks == 0 && !job.ranks;
    ranks = o.input.ranks != 0 ? o.input.ranks : job.ranks.value_or(default_ranks);
    guard.ranks(ranks);
    if (o.input.ranks == 0 && !ci.junit_until_answered(ranks)) return exit_bad_input;
    const std::uint64_t tables = checker::System::table_bytes_at_least(job, ranks);
    if (tables > memory_max) {
      const std::string why = "the model of " + std::to_string(job.comms.size()) +
                              " communicator(s) at " + std::to_string(ranks) +
                              " ranks needs at least " + std::to_string(tables) +
                              " bytes (--memory-max), before it is built";
      if (ci.sarif()) return ci.unknown(guard, why, ranks);
      const int code = guard.refuse_memory(why);
      return ci.write_junit_unknown(why, ranks) ? code : exit_bad_input;
    }
    enter("building the model");
    try {
      built.emplace(std::move(job), ranks, *comm::parse_backend(o.backend));
    } catch (const errors::InputError& e) {
      // The reader names the file in its errors; validation at the rank count must too.
      return ci.bad_input(name + ": " + e.what());
    } catch (const std::invalid_argument& e) {
      return ci.bad_input(name + ": " + e.what());
    }
    if (ranks_defaulted) {
      std::cerr << "ordo verify: note: the job fixes no rank count; verifying at " << ranks
                << " ranks (give --ranks N for another count)\n";
    }
    enter("deciding");
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
    const std::string why =
        std::string("the machine's memory ran out (std::bad_alloc) while ") + stage;
    if (ci.sarif()) return ci.unknown(guard, why, ranks);
    const int code = guard.out_of_memory();
    return ci.write_junit_unknown(why, ranks) ? code : exit_bad_input;
  }
  guard.stand_down();
  checker::Verification& v = *answer;
  const checker::System& model = *built;
  bounds_as_given(v, o.timeout, memory_max);
  v.seconds = clock.elapsed();

  switch (format) {
    case Format::json:
      std::cout << checker::json_report(model, v);
      break;
    case Format::sarif: {
      checker::JobSource source = ci.source();
      if (!source.dump_path.empty()) source.dump_text = dump_text(source.dump_path);
      std::cout << report::sarif_log(checker::verify_sarif(model, v, source));
      break;
    }
    case Format::text:
      std::cout << name << ": " << checker::human_report(model, v);
      break;
  }
  ci.answered();
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
  if (!o.junit_path.empty()) {
    const std::string xml = report::junit_xml(checker::verify_junit(model, v, ci.source()));
    written = write_output(o.junit_path, xml, "verify") && written;
  }
  if (!written) return exit_bad_input;
  return verdict_code(v.result.verdict);
}

// What the front end would report as an error (an unknown design or method, a model file it
// cannot import) is reported in the SARIF log and the JUnit file too, with the same words on
// standard error and the same exit code. Running out of memory stays the front end's: unknown.
int run_verify(const VerifyCli& o) {
  Format format = Format::text;
  try {
    format = format_of(o);
  } catch (const std::invalid_argument& e) {
    // Two formats asked for: when SARIF is one of them, a CI that saves the log still gets one.
    CiOutputs ci(o, o.format == "sarif" ? Format::sarif : Format::text);
    return ci.bad_input(e.what());
  }
  CiOutputs ci(o, format);
  try {
    return run_verify(o, format, ci);
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    return ci.bad_input(e.what());
  }
}

}  // namespace

Command add_verify(CLI::App& app) {
  auto o = std::make_shared<VerifyCli>();
  auto paths = std::make_shared<PathOptions>();
  CLI::App* sub = app.add_subcommand(
      "verify", "Prove a job's collectives safe in every schedule, or show one that breaks them");
  o->input.add_options(sub, *paths, "DAG dump (JSON, docs/dag-format.md)");
  sub->add_option("--ranks", o->input.ranks,
                  "rank count (default: the job's, or 2); sharded shards over it unless --shards "
                  "says otherwise")
      ->check(CLI::Range(1u, 1u << 20));
  sub->add_flag("--json", o->json, "stable JSON on standard output (the same as --format json)");
  paths->not_a_path(
      sub->add_option("--format", o->format,
                      "the answer on standard output: text, json (docs/checker.md) or sarif "
                      "(SARIF 2.1.0, for code scanning) (default: text)")
          ->check(CLI::IsMember({"text", "json", "sarif"})));
  paths->output_file(
      sub->add_option("--junit", o->junit_path,
                      "write P1-P5 as JUnit XML test cases here (passed, failed or not decided)"),
      o->junit_path);
  paths->output_file(sub->add_option("--trace", o->trace_path,
                                     "write the witness schedule here (ordo replay reads it)"),
                     o->trace_path);
  paths->output_file(
      sub->add_option("--dot", o->dot_path, "write a Graphviz picture of the violation here"),
      o->dot_path);
  sub->add_option("--timeout", o->timeout,
                  "seconds the whole command may take (reading and building included) before "
                  "the answer is unknown")
      ->check(seconds_bound())
      ->capture_default_str();
  sub->add_option("--states-max", o->states_max, "states the explicit search may keep")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  add_memory_max(sub, o->memory_max);
  paths->not_a_path(
      sub->add_option("--method", o->method, "auto, explicit or symbolic")->capture_default_str());
  paths->not_a_path(
      sub->add_option("--backend", o->backend,
                      "the semantics to verify under: mpi (completion at the match) or nccl "
                      "(every call a launch onto the rank's one stream, docs/semantics.md D1-D3)")
          ->check(CLI::IsMember({"mpi", "nccl"}))
          ->capture_default_str());
  return {[o] { return run_verify(*o); }, paths};
}

}  // namespace ordo::tools
