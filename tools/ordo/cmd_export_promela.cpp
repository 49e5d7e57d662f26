// `ordo export-promela DUMP [--ranks N] [-o FILE]`: write the Promela model of a DAG dump, one
// self-contained file that SPIN checks for the properties `ordo verify` decides
// (docs/promela.md), so that its verdicts can be confirmed by an independent model checker.
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "checker/promela/export.hpp"
#include "checker/system/system.hpp"
#include "runtime/dag/dump_reader.hpp"
#include "runtime/dag/validate.hpp"
#include "runtime/errors/input_error.hpp"
#include "tools/ordo/commands.hpp"
#include "tools/ordo/output.hpp"

namespace ordo::tools {

namespace {

struct ExportPromelaOptions {
  std::string dump_path;
  std::optional<std::uint32_t> ranks;
  std::string out_path;
};

// The same report `ordo validate` gives: the reader's error, or every semantic problem.
bool read_valid_job(const std::string& path, dag::Job& job) {
  try {
    job = dag::read_dump_file(path);
  } catch (const errors::InputError& e) {
    std::cerr << path << ": error: " << e.what() << '\n';
    return false;
  }
  const std::vector<dag::Diagnostic> diagnostics = dag::validate(job);
  for (const dag::Diagnostic& d : diagnostics) {
    std::cerr << path << ": error: " << d.where << ": " << d.message << '\n';
  }
  if (!diagnostics.empty()) {
    std::cerr << path << ": " << diagnostics.size() << " error(s)\n";
    return false;
  }
  return true;
}

// The dump's own rank count, or --ranks; they must agree when both are there.
std::optional<std::uint32_t> rank_count(const ExportPromelaOptions& o, const dag::Job& job) {
  if (job.ranks && o.ranks && *job.ranks != *o.ranks) {
    std::cerr << o.dump_path << ": error: the dump is for " << *job.ranks << " ranks, not --ranks "
              << *o.ranks << '\n';
    return std::nullopt;
  }
  if (job.ranks) return job.ranks;
  if (!o.ranks) {
    std::cerr << o.dump_path
              << ": error: the dump runs at any rank count; give one with --ranks N (SPIN's "
                 "state space grows quickly with it: start with 2)\n";
  }
  return o.ranks;
}

int run_export_promela(const ExportPromelaOptions& o) {
  dag::Job job;
  if (!read_valid_job(o.dump_path, job)) return exit_bad_input;
  const std::optional<std::uint32_t> ranks = rank_count(o, job);
  if (!ranks) return exit_bad_input;
  std::string text;
  checker::promela::SpinHints hints;
  try {
    const checker::System model(std::move(job), *ranks);
    text = checker::promela::export_promela(model);
    hints = checker::promela::spin_hints(model);
  } catch (const checker::promela::ExportError& e) {
    std::cerr << o.dump_path << ": error: cannot express the job in Promela: " << e.what() << '\n';
    return exit_bad_input;
  } catch (const std::invalid_argument& e) {
    std::cerr << o.dump_path << ": error: " << e.what() << '\n';
    return exit_bad_input;
  }
  if (!write_output(o.out_path, text, "export-promela")) return exit_bad_input;
  if (o.out_path.empty()) return exit_ok;
  std::cerr << "wrote " << o.out_path << "; check it with:\n  spin -a " << o.out_path
            << " && cc -O2 -DSAFETY -DVECTORSZ=" << hints.vector_bytes
            << " -o pan pan.c && ./pan -m" << hints.depth_max << '\n';
  return exit_ok;
}

}  // namespace

Command add_export_promela(CLI::App& app) {
  auto o = std::make_shared<ExportPromelaOptions>();
  auto paths = std::make_shared<PathOptions>();
  CLI::App* sub = app.add_subcommand("export-promela",
                                     "Write a DAG dump's Promela model for SPIN (docs/promela.md)");
  paths->input_file(
      sub->add_option("dump", o->dump_path, "DAG dump (JSON, docs/dag-format.md)")->required(),
      o->dump_path);
  sub->add_option("--ranks", o->ranks, "rank count, when the dump does not fix one")
      ->check(CLI::Range(1, 255));
  paths->output_file(
      sub->add_option("-o,--output", o->out_path, "file to write (default: standard output)"),
      o->out_path);
  return {[o] { return run_export_promela(*o); }, paths};
}

}  // namespace ordo::tools
