// `ordo validate DUMP`: read a DAG dump, check it against the format and the semantic rules, and
// say what is wrong and where.
#include <iostream>
#include <memory>
#include <string>

#include "runtime/dag/dump_reader.hpp"
#include "runtime/dag/validate.hpp"
#include "runtime/errors/input_error.hpp"
#include "tools/ordo/commands.hpp"

namespace ordo::tools {

namespace {

struct ValidateOptions {
  std::string dump_path;
};

int run_validate(const ValidateOptions& options) {
  dag::Job job;
  try {
    job = dag::read_dump_file(options.dump_path);
  } catch (const errors::InputError& e) {
    std::cerr << options.dump_path << ": error: " << e.what() << '\n';
    return exit_bad_input;
  }
  const std::vector<dag::Diagnostic> diagnostics = dag::validate(job);
  for (const dag::Diagnostic& d : diagnostics) {
    std::cerr << options.dump_path << ": error: " << d.where << ": " << d.message << '\n';
  }
  if (!diagnostics.empty()) {
    std::cerr << options.dump_path << ": " << diagnostics.size() << " error(s)\n";
    return exit_bad_input;
  }
  std::size_t ops = 0;
  for (const dag::Program& p : job.programs) ops += p.ops.size();
  std::cout << options.dump_path << ": valid: " << job.programs.size() << " program(s), "
            << job.comms.size() << " communicator(s), " << ops << " op(s), ranks "
            << (job.ranks ? std::to_string(*job.ranks) : std::string("any")) << '\n';
  return exit_ok;
}

}  // namespace

Command add_validate(CLI::App& app) {
  auto options = std::make_shared<ValidateOptions>();
  auto paths = std::make_shared<PathOptions>();
  CLI::App* sub = app.add_subcommand("validate", "Check a DAG dump against the format and rules");
  paths->input_file(
      sub->add_option("dump", options->dump_path, "DAG dump (JSON, docs/dag-format.md)")
          ->required(),
      options->dump_path);
  return {[options] { return run_validate(*options); }, paths};
}

}  // namespace ordo::tools
