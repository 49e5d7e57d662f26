#include "tools/ordo/front_end.hpp"

#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <new>
#include <string>

#include "checker/verify/verify_sarif.hpp"
#include "report/junit.hpp"
#include "report/sarif.hpp"
#include "runtime/paths/path_conflicts.hpp"
#include "tools/ordo/command_clock.hpp"
#include "tools/ordo/output.hpp"

namespace ordo::tools {

namespace {

// A command's exit code once its standard output is known to have been written: an answer lost
// on a full disk is no answer.
int finish(int code, const std::string& command) {
  return flush_standard_output(command) ? code : exit_bad_input;
}

// Whether the command line asks for a SARIF log, read from the words themselves: when the options
// do not parse, CLI11 has not set the format, and a CI step that saves standard output as its log
// must still get a log that says the run failed, not an empty file.
bool sarif_asked(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--format=sarif") == 0) return true;
    if (std::strcmp(argv[i], "--format") == 0 && i + 1 < argc &&
        std::strcmp(argv[i + 1], "sarif") == 0) {
      return true;
    }
  }
  return false;
}

// Whether the command line asks for JSON, read from the words as sarif_asked reads them.
bool json_asked(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--json") == 0 || std::strcmp(argv[i], "--format=json") == 0) {
      return true;
    }
    if (std::strcmp(argv[i], "--format") == 0 && i + 1 < argc &&
        std::strcmp(argv[i + 1], "json") == 0) {
      return true;
    }
  }
  return false;
}

// The path after --junit on the command line, if any.
std::string junit_asked(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--junit=", 8) == 0) return argv[i] + 8;
    if (std::strcmp(argv[i], "--junit") == 0 && i + 1 < argc) return argv[i + 1];
  }
  return {};
}

// Options that do not parse leave the paths unchecked, so the JUnit file is written only where it
// cannot be an input: a path that does not exist yet, or a JUnit file (an earlier run's, which
// must not pass for this run's answer).
void junit_for_option_error(int argc, char** argv, const std::string& message) {
  const std::string path = junit_asked(argc, argv);
  if (path.empty()) return;
  std::error_code error;
  const auto status = std::filesystem::symlink_status(path, error);
  if (std::filesystem::exists(status)) {
    if (!std::filesystem::is_regular_file(status)) return;
    std::ifstream in(path);
    std::string head(512, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    if (head.find("<testsuites") == std::string::npos) return;
  }
  const std::string command = argc > 1 ? argv[1] : "";
  report::JunitCase c;
  c.suite = "ordo " + command;
  c.classname = "ordo." + command + ".options";
  c.name = "options";
  c.error = report::JunitOutcome{message, "bad input", message};
  write_output(path, report::junit_xml({c}), command);
}

// Paths that get in each other's way, said on standard error as every bad input is, and in the
// SARIF log when one is asked for; no JUnit file is written, as its path is among those in
// question.
int refuse_paths(const std::vector<std::string>& problems, const std::string& command, int argc,
                 char** argv) {
  std::string all;
  for (const std::string& problem : problems) {
    std::cerr << "ordo " << command << ": error: " << problem << '\n';
    all += (all.empty() ? "" : "; ") + problem;
  }
  if (sarif_asked(argc, argv)) {
    report::SarifRun run = checker::verify_sarif_failed(all);
    run.exit_code = exit_bad_input;
    std::cout << report::sarif_log(run);
  }
  return finish(exit_bad_input, command);
}

}  // namespace

int run_front_end(int argc, char** argv, const std::vector<CommandEntry>& entries,
                  const char* fallback) {
  command_clock();  // --timeout counts from here
  CLI::App app{"ordo: MPI collectives in dependency-engine DAGs, provably safe"};
  app.require_subcommand(fallback == nullptr ? 1 : 0, 1);
  std::map<const CLI::App*, Command> commands;
  for (const CommandEntry& entry : entries) {
    Command command = entry.add(app);
    commands.emplace(app.get_subcommand(entry.name), std::move(command));
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    if (code == 0) return exit_ok;  // --help
    junit_for_option_error(argc, argv, e.what());
    if (sarif_asked(argc, argv)) {
      report::SarifRun run = checker::verify_sarif_failed(e.what());
      run.exit_code = exit_bad_input;
      std::cout << report::sarif_log(run);
      return finish(exit_bad_input, argc > 1 ? argv[1] : "");
    }
    if (argc > 1 && json_asked(argc, argv)) {
      for (const CommandEntry& entry : entries) {
        if (entry.json_error != nullptr && std::strcmp(entry.name, argv[1]) == 0) {
          std::cout << entry.json_error(e.what());
          return finish(exit_bad_input, argv[1]);
        }
      }
    }
    return exit_bad_input;
  }

  std::string name = fallback == nullptr ? "" : fallback;
  const Command* chosen = nullptr;
  for (const auto& [sub, command] : commands) {
    if (sub->parsed()) {
      name = sub->get_name();
      chosen = &command;
    }
  }
  if (chosen == nullptr) chosen = &commands.at(app.get_subcommand(name));
  try {
    // Here, not in each command: what every command writes is checked against all it reads and
    // writes before it does any work, and no command can leave the check out.
    if (chosen->paths) {
      const std::vector<std::string> problems = paths::path_conflicts(chosen->paths->uses());
      if (!problems.empty()) return refuse_paths(problems, name, argc, argv);
    }
    return finish(chosen->run(), name);
  } catch (const std::bad_alloc&) {
    // Not the input's fault, so not exit 2: a bound of the machine was hit.
    std::cerr << "ordo " << name
              << ": unknown: out of memory (std::bad_alloc); `ordo verify --memory-max` bounds "
                 "what the checker may take and answers unknown before this happens\n";
    return exit_unknown;
  } catch (const std::exception& e) {
    std::cerr << "ordo " << name << ": error: " << e.what() << '\n';
    return finish(exit_bad_input, name);
  }
}

}  // namespace ordo::tools
