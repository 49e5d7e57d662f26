// The options of a subcommand that name files and folders, each registered with its role
// (runtime/paths), so that the front end checks every command's outputs against its inputs
// after parsing and before the command's body runs (front_end.cpp): no command has a check of its
// own to forget. Every option that takes text is declared a path or not a path; the test of the
// command tables (tests/tools/command_paths_test.cpp) fails for one that is neither, so that a new
// option cannot name a file the check does not see. Options that take numbers need no word: no
// command opens a number.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "runtime/paths/path_use.hpp"
#include "tools/ordo/cli11.hpp"

namespace ordo::tools {

class PathOptions {
 public:
  // The path is the option's value once parsed (its default, when it has one and is not given).
  using Uses = std::function<std::vector<paths::PathUse>(const std::string& option)>;

  CLI::Option* input_file(CLI::Option* option, const std::string& value);
  CLI::Option* output_file(CLI::Option* option, const std::string& value);
  // `names`: the entries directly inside it the command reads (or writes), each with all below
  // it; none: the whole folder.
  CLI::Option* input_folder(CLI::Option* option, const std::string& value,
                            std::vector<paths::NamePattern> names = {});
  CLI::Option* output_folder(CLI::Option* option, const std::string& value,
                             std::vector<paths::NamePattern> names = {});
  // An option whose paths the other options decide (a network that is a file unless it names a
  // built-in, the data files of the data's kind): `uses`, given the option's name as the
  // messages write it, gives them after parsing.
  CLI::Option* paths(CLI::Option* option, Uses uses);
  // The option takes text that names no file (a format, a design, a shape).
  CLI::Option* not_a_path(CLI::Option* option);

  // Every path the parsed command line uses, in the order the options were registered.
  std::vector<paths::PathUse> uses() const;
  // The options of `sub` that take text and are declared neither a path nor not a path.
  std::vector<std::string> undeclared(const CLI::App& sub) const;

 private:
  struct Entry {
    const CLI::Option* option;
    Uses uses;
  };
  CLI::Option* fixed(CLI::Option* option, const std::string& value, paths::Role role,
                     std::vector<paths::NamePattern> names);

  std::vector<Entry> entries_;
  std::set<const CLI::Option*> not_paths_;
};

// How messages name an option: its first long name, else its short one, else (a positional) its
// name in capitals ("--dot", "DIR").
std::string option_label(const CLI::Option& option);

}  // namespace ordo::tools
