// `ordo fuzz`: the property campaign of fuzz/ as a command for a user's job. The checker's verdict
// is held against the runtime's schedules on the job and on mutants of it
// (fuzz/lib/); each finding is written as a dump and a trace that `ordo verify` and
// `ordo replay` reproduce. This file is the front end: options, files, progress, the report in
// words or SARIF, the JUnit file, and exit codes.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>

#include "checker/verify/verify_sarif.hpp"
#include "fuzz/lib/campaign.hpp"
#include "fuzz/lib/generated_jobs.hpp"
#include "fuzz/lib/report_junit.hpp"
#include "fuzz/lib/report_sarif.hpp"
#include "fuzz/lib/report_text.hpp"
#include "report/junit.hpp"
#include "report/sarif.hpp"
#include "runtime/errors/input_error.hpp"
#include "tools/ordo/bound_options.hpp"
#include "tools/ordo/command_guard.hpp"
#include "tools/ordo/commands.hpp"
#include "tools/ordo/job_input.hpp"
#include "tools/ordo/output.hpp"

namespace ordo::tools {

namespace {

struct FuzzCli {
  JobInput input;
  std::string backend = "mpi";
  std::uint64_t seed = 1;
  std::uint32_t cases = 8;
  std::uint32_t schedules = 100;
  double timeout = 120.0;
  std::uint64_t states_max = 5'000'000;
  std::uint64_t memory_max = 0;  // 0: default_memory_max()
  std::string out_dir = "ordo-fuzz";
  bool no_mutate = false;
  std::string format = "text";
  std::string junit_path;
  // --generate: random jobs from these settings instead of the user's one.
  std::uint32_t generate = 0;
  std::vector<std::string> gen_designs;
  std::string gen_order_guard = "on";
  fuzz::GeneratorSettings gen;
};

bool generating(const FuzzCli& o) { return o.generate > 0; }

// The settings as given, the designs by name; throws std::invalid_argument for an unknown one, or
// for a job given beside --generate.
fuzz::GeneratorSettings generator_settings(const FuzzCli& o) {
  const JobInput& in = o.input;
  if (!in.path.empty() || !in.design.empty() || !in.network.empty() || !in.model.empty()) {
    throw std::invalid_argument(
        "--generate draws its own jobs; expected no dump, --design, --network or --model beside "
        "it (the --gen-* options set what it draws)");
  }
  // The knobs are drawn too: a design option beside --generate would be ignored silently.
  if (!(in.config == designs::DesignConfig{}) || in.step.include_init || in.step.steps != 1 ||
      in.step.overlap || in.init != "safe" || in.layers != 4 || !in.data_shape.empty()) {
    throw std::invalid_argument(
        "--generate draws the designs and their knobs from the --gen-* options; expected no "
        "design option (--comm-threads, --ncomm, --outstanding, --bucket-size, --slice-size, "
        "--credit-size, --shards, --nodes, --node-ranks, --no-order-guard, --prefetch, "
        "--with-init, --init, --steps, --overlap, --layers, --data-shape) beside it");
  }
  fuzz::GeneratorSettings settings = o.gen;
  for (const std::string& name : o.gen_designs) {
    settings.designs.push_back(designs::parse_design(name));
  }
  settings.order_guard = o.gen_order_guard == "off"    ? fuzz::GuardChoice::off
                         : o.gen_order_guard == "both" ? fuzz::GuardChoice::both
                                                       : fuzz::GuardChoice::on;
  fuzz::check_settings(settings);
  return settings;
}

// The directory the findings go to, made if it is missing before any work, so that a campaign
// does not end in "cannot write" (the front end has checked that it can be).
std::optional<std::string> prepare_out_dir(const FuzzCli& o) {
  std::error_code error;
  const std::filesystem::path dir(o.out_dir);
  if (!std::filesystem::exists(dir, error) && !std::filesystem::create_directories(dir, error)) {
    return "--out '" + o.out_dir + "': cannot make the directory: " + error.message();
  }
  return std::nullopt;
}

// On a terminal, one line redrawn in place at most ten times a second; elsewhere (a CI log)
// nothing, since the summary says it all at the end.
class ProgressLine {
 public:
  ProgressLine() : terminal_(::isatty(STDERR_FILENO) == 1) {}
  ~ProgressLine() { clear(); }

  void draw(const fuzz::Progress& p) {
    if (!terminal_ || p.seconds - last_ < 0.1) return;
    last_ = p.seconds;
    std::cerr << "\rordo fuzz: " << p.cases_done << "/" << p.cases_total << " cases done, "
              << p.schedules << " schedule" << (p.schedules == 1 ? "" : "s") << ", " << p.findings
              << " finding" << (p.findings == 1 ? "" : "s") << ", " << static_cast<long>(p.seconds)
              << " s\x1b[K" << std::flush;
    drawn_ = true;
  }

  void clear() {
    if (drawn_) std::cerr << "\r\x1b[K" << std::flush;
    drawn_ = false;
  }

 private:
  bool terminal_;
  bool drawn_ = false;
  double last_ = -1.0;
};

int outcome_code(fuzz::CampaignOutcome outcome) {
  switch (outcome) {
    case fuzz::CampaignOutcome::clean:
      return exit_ok;
    case fuzz::CampaignOutcome::unsafe:
      return exit_unsafe;
    case fuzz::CampaignOutcome::unknown:
      return exit_unknown;
    case fuzz::CampaignOutcome::disagreement:
      return exit_disagreement;
    case fuzz::CampaignOutcome::not_written:
      return exit_bad_input;
  }
  return exit_bad_input;
}

// How the JUnit class names call the job: a dump by its file name without the extension, as
// `ordo verify` does; a design or a set of generated jobs by its name.
std::string junit_job(const FuzzCli& o, const std::string& name) {
  if (o.generate > 0 || !o.input.design.empty() || o.input.path.empty()) return name;
  return std::filesystem::path(o.input.path).stem().string();
}

// Bad input, said on standard error as every command says it, and in the SARIF log and the JUnit
// file when they are asked for (the front end has checked their paths).
int refuse(const FuzzCli& o, const std::string& job_name, const std::string& message) {
  std::cerr << "ordo fuzz: error: " << message << '\n';
  if (o.format == "sarif") {
    report::SarifRun run = checker::verify_sarif_failed(message);
    run.exit_code = exit_bad_input;
    std::cout << report::sarif_log(run);
  }
  if (!o.junit_path.empty()) {
    write_output(o.junit_path,
                 report::junit_xml(fuzz::campaign_junit_failed(junit_job(o, job_name), message)),
                 "fuzz");
  }
  return exit_bad_input;
}

// The findings so far, kept as the campaign records them, so that a bound that ends the command
// in a step that cannot stop (a Z3 call, a model of many ranks) answers with them: exit 1 (or 4)
// with every finding's files and reproduce commands, the JUnit file with their cases, never a bare
// `unknown` that hides what was written.
class FoundSoFar {
 public:
  // Called after every record: the figures are copied and the new records and case lines
  // appended, so that a campaign of many findings is not copied whole each time.
  void keep(const fuzz::CampaignSummary& s) {
    const std::lock_guard<std::mutex> lock(mutex_);
    static_cast<fuzz::CampaignFigures&>(kept_) = s;
    kept_.records.insert(kept_.records.end(),
                         s.records.begin() + static_cast<std::ptrdiff_t>(kept_.records.size()),
                         s.records.end());
    kept_.cases.insert(kept_.cases.end(),
                       s.cases.begin() + static_cast<std::ptrdiff_t>(kept_.cases.size()),
                       s.cases.end());
  }

  std::optional<GuardPartial> answer(const FuzzCli& o, const std::string& why, double seconds) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (kept_.records.empty()) return std::nullopt;
    fuzz::CampaignSummary s = kept_;
    s.junit_job = junit_job(o, s.job_name);
    bool finding = false;
    bool disagreement = false;
    for (const fuzz::Record& r : s.records) {
      finding = finding || r.kind == fuzz::RecordKind::finding;
      disagreement = disagreement || r.kind == fuzz::RecordKind::disagreement;
    }
    // Notes on mutants of a safe job alone leave the job's answer where it was: unknown.
    if (!finding && !disagreement) return std::nullopt;
    s.outcome = disagreement ? fuzz::CampaignOutcome::disagreement : fuzz::CampaignOutcome::unsafe;
    s.seconds = seconds;
    const std::string stopped = "stopped early: " + why + "; the rest was not checked";
    fuzz::CaseLine rest;
    rest.name = "the rest";
    rest.change = "not checked: " + why;
    rest.checked = false;
    s.cases.push_back(std::move(rest));
    GuardPartial partial;
    partial.code = outcome_code(s.outcome);
    if (o.format == "sarif") {
      report::SarifRun run = fuzz::campaign_sarif(s);
      run.exit_code = partial.code;
      run.notifications.push_back({"warning", stopped});
      partial.text = report::sarif_log(run);
    } else {
      partial.text = fuzz::text_report(s) + stopped + "\n";
    }
    if (!o.junit_path.empty()) {
      write_output(o.junit_path, report::junit_xml(fuzz::campaign_junit(s)), "fuzz");
    }
    return partial;
  }

 private:
  std::mutex mutex_;
  fuzz::CampaignSummary kept_;
};

std::string name_of(const FuzzCli& o) {
  try {
    if (generating(o)) return fuzz::describe(generator_settings(o));
    return o.input.name();
  } catch (const std::exception&) {
    // A design that does not parse still needs a name for its error.
    if (generating(o)) return "random jobs";
    return o.input.design.empty() ? o.input.path : "design '" + o.input.design + "'";
  }
}

int run_fuzz(const FuzzCli& o) {
  const std::string name = name_of(o);
  if (std::optional<std::string> problem = prepare_out_dir(o)) {
    return refuse(o, name, *problem);
  }
  // Before the work, the answer the file gives should the guard end the process: "not decided",
  // never an earlier run's file. A device or a pipe (/dev/stdout) would receive this and the
  // answer both.
  std::error_code error;
  const auto status = std::filesystem::symlink_status(o.junit_path, error);
  if (!o.junit_path.empty() &&
      (!std::filesystem::exists(status) || std::filesystem::is_regular_file(status)) &&
      !write_output(o.junit_path,
                    report::junit_xml(fuzz::campaign_junit_unfinished(junit_job(o, name))),
                    "fuzz")) {
    return exit_bad_input;
  }
  const CommandClock& clock = command_clock();
  const std::uint64_t memory_max = o.memory_max != 0 ? o.memory_max : default_memory_max();
  CommandGuard guard(clock, {o.timeout, memory_max},
                     {"ordo fuzz", name, "auto",
                      o.format == "sarif" ? GuardFormat::sarif : GuardFormat::text});
  guard.stage(generating(o) ? "drawing the jobs" : "reading the input");
  dag::Job job;
  std::optional<fuzz::JobDrawer> drawer;
  try {
    if (generating(o)) {
      drawer.emplace(generator_settings(o), o.seed);
    } else {
      job = o.input.load();
    }
  } catch (const std::bad_alloc&) {
    return guard.out_of_memory();
  } catch (const std::exception& e) {
    // A file that is no job, a design option the design refuses, a network the builder refuses.
    guard.stand_down();
    return refuse(o, name, e.what());
  }
  if (!generating(o)) {
    guard.ranks(o.input.ranks != 0 ? o.input.ranks : job.ranks.value_or(default_ranks));
  }
  if (!generating(o) && o.input.ranks == 0 && !job.ranks) {
    std::cerr << "ordo fuzz: note: the job fixes no rank count; fuzzing at 2 ranks (give --ranks N "
                 "for another count)\n";
  }
  fuzz::CampaignOptions options;
  options.ranks = o.input.ranks;
  options.backend = *comm::parse_backend(o.backend);
  options.seed = o.seed;
  options.cases = o.cases;
  options.schedules = o.schedules;
  // The campaign stops itself between schedules at what is left of --timeout; the guard ends
  // the command, a little later, should one step (a Z3 call, a model of many ranks) not return.
  options.timeout = std::max(o.timeout - clock.elapsed(), 0.001);
  options.states_max = o.states_max;
  options.memory_max = memory_max;
  options.mutate = !o.no_mutate;
  options.out_dir = o.out_dir;
  ProgressLine line;
  fuzz::CampaignHooks hooks;
  hooks.write = [](const std::string& path, const std::string& text) {
    return write_output(path, text, "fuzz");
  };
  hooks.progress = [&line](const fuzz::Progress& p) { line.draw(p); };
  FoundSoFar found;
  hooks.recorded = [&found](const fuzz::CampaignSummary& s) { found.keep(s); };
  guard.found_so_far([&found, &o](const std::string& why, double seconds) {
    return found.answer(o, why, seconds);
  });
  fuzz::CampaignSummary summary;
  guard.stage("running the campaign");
  try {
    summary = generating(o) ? fuzz::run_generated(*drawer, o.generate, name, options, hooks)
                            : fuzz::run_campaign(job, name, options, hooks);
  } catch (const std::bad_alloc&) {
    guard.stand_down();
    line.clear();
    const std::string why = "the machine's memory ran out (std::bad_alloc) while running the campaign";
    if (std::optional<GuardPartial> partial = found.answer(o, why, clock.elapsed())) {
      std::cout << partial->text;
      std::cerr << "ordo fuzz: " << why << "; what was found before is above\n";
      return partial->code;
    }
    return guard.out_of_memory();
  } catch (const errors::InputError& e) {
    // Validation at the rank count: name the input, as the reader does.
    guard.stand_down();
    line.clear();
    return refuse(o, name, name + ": " + e.what());
  } catch (const std::invalid_argument& e) {
    guard.stand_down();
    line.clear();
    return refuse(o, name, name + ": " + e.what());
  }
  guard.stand_down();
  line.clear();
  summary.junit_job = junit_job(o, name);
  int code = outcome_code(summary.outcome);
  const std::string text = fuzz::text_report(summary);
  if (o.format == "sarif") {
    report::SarifRun run = fuzz::campaign_sarif(summary);
    run.exit_code = code;
    std::cout << report::sarif_log(run);
    // The log is for a program; the summary in words still belongs in the job's log.
    std::cerr << text.substr(text.rfind('\n', text.size() - 2) + 1);
  } else {
    std::cout << text;
  }
  if (!o.junit_path.empty() &&
      !write_output(o.junit_path, report::junit_xml(fuzz::campaign_junit(summary)), "fuzz")) {
    code = exit_bad_input;
  }
  return code;
}

}  // namespace

Command add_fuzz(CLI::App& app) {
  auto o = std::make_shared<FuzzCli>();
  auto paths = std::make_shared<PathOptions>();
  CLI::App* sub = app.add_subcommand(
      "fuzz",
      "Hold the checker's verdict against the runtime's schedules on a job and on mutants of it");
  o->input.add_options(sub, *paths, "DAG dump (JSON, docs/dag-format.md)");
  sub->add_option("--ranks", o->input.ranks,
                  "rank count (default: the job's, or 2); sharded shards over it unless --shards "
                  "says otherwise")
      ->check(CLI::Range(1u, 1024u));
  paths->not_a_path(
      sub->add_option("--backend", o->backend, "the semantics to run under: mpi or nccl")
          ->check(CLI::IsMember({"mpi", "nccl"}))
          ->capture_default_str());
  sub->add_option("--seed", o->seed, "seed of the schedules and the mutants")
      ->capture_default_str();
  sub->add_option("--cases", o->cases, "mutants of the job to check, at most")
      ->check(CLI::Range(0u, 10000u))
      ->capture_default_str();
  sub->add_option("--schedules", o->schedules,
                  "runtime schedules per case, half random walks, half PCT runs of depths 1-3")
      ->check(CLI::Range(1u, 10000000u))
      ->capture_default_str();
  sub->add_option("--timeout", o->timeout,
                  "seconds the whole command may take; the campaign stops between schedules, and "
                  "a step that cannot stop is ended soon after, with the answer unknown")
      ->check(seconds_bound())
      ->capture_default_str();
  sub->add_option("--states-max", o->states_max,
                  "states the checker's explicit search may keep, per case")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  add_memory_max(sub, o->memory_max);
  // The campaign names its files after the cases: the whole folder is its own.
  paths->output_folder(sub->add_option("--out", o->out_dir,
                                       "directory for each finding's dump and trace (made if "
                                       "missing)")
                           ->capture_default_str(),
                       o->out_dir);
  sub->add_flag("--no-mutate", o->no_mutate, "check the job alone, no mutants of it");
  paths->not_a_path(
      sub->add_option("--format", o->format,
                      "text, or sarif: a SARIF 2.1.0 log on standard output (the summary in words "
                      "on standard error)")
          ->check(CLI::IsMember({"text", "sarif"}))
          ->capture_default_str());
  paths->output_file(
      sub->add_option("--junit", o->junit_path,
                      "write each case checked as a JUnit test case here (the job, each mutant)"),
      o->junit_path);
  CLI::Option* generate = sub->add_option("--generate", o->generate,
                  "check this many random jobs drawn from the --gen-* settings instead of one job "
                  "(each checked as a job of its own, without mutants)")
      ->check(CLI::Range(1u, 100000u));
  paths->not_a_path(
      sub->add_option("--gen-designs", o->gen_designs,
                      "with --generate: the designs to draw from, comma-separated (default: "
                      "every design but naive)")
          ->delimiter(','));
  sub->add_option("--gen-ranks", o->gen.ranks,
                  "with --generate: the rank counts to draw from, comma-separated")
      ->delimiter(',')
      ->check(CLI::Range(1u, 1024u))
      ->capture_default_str();
  sub->add_option("--gen-layers", o->gen.layers_max, "with --generate: layers, 1 to this")
      ->check(CLI::Range(1u, 64u))
      ->capture_default_str();
  sub->add_option("--gen-keys", o->gen.keys_max, "with --generate: keys, 1 to this")
      ->check(CLI::Range(1u, 256u))
      ->capture_default_str();
  sub->add_option("--gen-count", o->gen.count_max, "with --generate: elements of a key, 1 to this")
      ->check(CLI::Range(std::uint64_t{1}, fuzz::count_max_limit))
      ->capture_default_str();
  sub->add_option("--gen-threads", o->gen.threads_max,
                  "with --generate: compute and comm pool threads, 1 to this")
      ->check(CLI::Range(1u, 64u))
      ->capture_default_str();
  sub->add_option("--gen-ncomm", o->gen.ncomm_max,
                  "with --generate: concom's communicators, 1 to this")
      ->check(CLI::Range(1u, 64u))
      ->capture_default_str();
  sub->add_option("--gen-outstanding", o->gen.outstanding_max,
                  "with --generate: concom's keys between barriers, 1 to this")
      ->check(CLI::Range(1u, 64u))
      ->capture_default_str();
  paths->not_a_path(
      sub->add_option("--gen-order-guard", o->gen_order_guard,
                      "with --generate: the order guard of the designs that have one kept (on), "
                      "left out (off), or either (both)")
          ->check(CLI::IsMember({"on", "off", "both"}))
          ->capture_default_str());
  sub->add_flag("--gen-init", o->gen.init,
                "with --generate: draw the init broadcasts before the step too");
  for (const char* name : {"--gen-designs", "--gen-ranks", "--gen-layers", "--gen-keys",
                           "--gen-count", "--gen-threads", "--gen-ncomm", "--gen-outstanding",
                           "--gen-order-guard", "--gen-init"}) {
    sub->get_option(name)->needs(generate);
  }
  // Each generated job has its own rank count and no mutants.
  generate->excludes(sub->get_option("--ranks"))
      ->excludes(sub->get_option("--cases"))
      ->excludes(sub->get_option("--no-mutate"));
  return {[o] { return run_fuzz(*o); }, paths};
}

}  // namespace ordo::tools
