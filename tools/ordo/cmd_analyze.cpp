// `ordo analyze DIR`: reads the ranks' hang dumps (DIR/rank-K.json, written by the watchdog of
// `ordo train` and of any run with a flight recorder) and says why the job stopped, in the
// checker's terms: the first divergence, the ranks that never issued a call others wait in or
// left no dump, a wait cycle across communicators, pool exhaustion (docs/diagnostics.md).
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <system_error>
#include <vector>

#include "runtime/dag/dump_reader.hpp"
#include "runtime/diag/analysis.hpp"
#include "runtime/diag/rank_dump_io.hpp"
#include "runtime/errors/input_error.hpp"
#include "tools/ordo/commands.hpp"
#include "tools/ordo/file_names.hpp"
#include "tools/ordo/output.hpp"

namespace ordo::tools {

namespace {

struct AnalyzeCli {
  std::string dir;
  std::string program_path;
  bool json = false;
  std::string dot_path;
};

// A directory of dumps of one job has at most this many files of the dump's name.
constexpr std::size_t dumps_max = 1u << 16;

// The dump files of `dir`, by name rank-K.json; other files are left alone (a dump directory may
// also hold the job's own output).
std::vector<std::string> dump_files(const std::string& dir) {
  const std::regex name("rank-(0|[1-9][0-9]{0,8})\\.json");
  std::vector<std::string> files;
  std::error_code error;
  std::filesystem::directory_iterator it(dir, error);
  if (error) {
    throw errors::InputError(dir, "cannot read the directory: " + error.message(),
                             "a directory of rank-K.json dumps");
  }
  for (; it != std::filesystem::directory_iterator(); it.increment(error)) {
    if (error) {
      throw errors::InputError(dir, "cannot read the directory: " + error.message(),
                               "a directory of rank-K.json dumps");
    }
    if (!std::regex_match(it->path().filename().string(), name)) continue;
    if (files.size() >= dumps_max) {
      throw errors::InputError(dir, "more than " + std::to_string(dumps_max) + " dumps",
                               "one dump per rank of one job");
    }
    files.push_back(it->path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Bad input, said on standard error and, with --json, as the error object on standard output:
// a CI step that parses standard output never meets an empty one.
int refuse(const AnalyzeCli& o, const std::string& message) {
  std::cerr << "ordo analyze: error: " << message << '\n';
  if (o.json) std::cout << diag::json_error_report(message);
  return exit_bad_input;
}

int run_analyze(const AnalyzeCli& o) {
  std::vector<diag::RankDump> dumps;
  std::optional<dag::Job> program;
  try {
    const std::vector<std::string> files = dump_files(o.dir);
    if (files.empty()) {
      return refuse(o, o.dir +
                           ": no rank-K.json dumps; expected the --dump-dir of a job that "
                           "stopped");
    }
    for (const std::string& file : files) dumps.push_back(diag::read_rank_dump_file(file));
    std::string program_path = o.program_path;
    // The program a job left beside its dumps (ordo train does), unless another is named.
    const std::filesystem::path beside = std::filesystem::path(o.dir) / diag::program_file_name;
    std::error_code absent;
    if (program_path.empty() && std::filesystem::is_regular_file(beside, absent)) {
      program_path = beside.string();
    }
    if (!program_path.empty()) program = dag::read_dump_file(program_path);
  } catch (const errors::InputError& e) {
    return refuse(o, e.what());
  }
  diag::Analysis analysis;
  try {
    analysis = diag::analyze(dumps, program ? &*program : nullptr);
  } catch (const diag::AnalysisInputError& e) {
    return refuse(o, o.dir + ": " + e.what());
  }
  std::cout << (o.json ? diag::json_report(analysis) : diag::human_report(analysis));
  if (!o.dot_path.empty() && !write_output(o.dot_path, diag::dot_report(analysis), "analyze")) {
    return exit_bad_input;
  }
  switch (analysis.finding) {
    case diag::Finding::fault:
      return exit_unsafe;
    case diag::Finding::inconclusive:
      return exit_unknown;
    case diag::Finding::no_fault:
      break;
  }
  return exit_ok;
}

}  // namespace

Command add_analyze(CLI::App& app) {
  auto o = std::make_shared<AnalyzeCli>();
  auto paths = std::make_shared<PathOptions>();
  CLI::App* sub = app.add_subcommand(
      "analyze", "Say why a job stopped, from the ranks' hang dumps (docs/diagnostics.md)");
  // What DIR is read for: the ranks' dumps and the program beside them, the names the watchdog
  // writes (rank_dump_io.hpp); the job's other files there are left alone.
  paths->input_folder(
      sub->add_option("dir", o->dir, "the directory of rank-K.json dumps (ordo train --dump-dir)")
          ->required(),
      o->dir, rank_dump_names());
  paths->input_file(
      sub->add_option("--program", o->program_path,
                      "the ranks' step program as a DAG dump (ordo train --dump-step, ordo "
                      "step-dag; default: DIR/program.json where the job left one), "
                      "to say which op of it each rank was in"),
      o->program_path);
  sub->add_flag("--json", o->json, "stable JSON on standard output (docs/diagnostics.md)");
  paths->output_file(
      sub->add_option("--dot", o->dot_path, "write a Graphviz picture of the wait-for graph here"),
      o->dot_path);
  return {[o] { return run_analyze(*o); }, paths};
}

}  // namespace ordo::tools
