#include "tools/ordo/path_options.hpp"

#include <algorithm>
#include <cctype>

namespace ordo::tools {

std::string option_label(const CLI::Option& option) {
  if (!option.get_lnames().empty()) return "--" + option.get_lnames().front();
  if (!option.get_snames().empty()) return "-" + option.get_snames().front();
  std::string name = option.get_name(true);
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return name;
}

CLI::Option* PathOptions::fixed(CLI::Option* option, const std::string& value, paths::Role role,
                                std::vector<paths::NamePattern> names) {
  return paths(option, [&value, role, names = std::move(names)](const std::string& label) {
    return std::vector<paths::PathUse>{{label, value, role, names}};
  });
}

CLI::Option* PathOptions::input_file(CLI::Option* option, const std::string& value) {
  return fixed(option, value, paths::Role::input_file, {});
}

CLI::Option* PathOptions::output_file(CLI::Option* option, const std::string& value) {
  return fixed(option, value, paths::Role::output_file, {});
}

CLI::Option* PathOptions::input_folder(CLI::Option* option, const std::string& value,
                                       std::vector<paths::NamePattern> names) {
  return fixed(option, value, paths::Role::input_folder, std::move(names));
}

CLI::Option* PathOptions::output_folder(CLI::Option* option, const std::string& value,
                                        std::vector<paths::NamePattern> names) {
  return fixed(option, value, paths::Role::output_folder, std::move(names));
}

CLI::Option* PathOptions::paths(CLI::Option* option, Uses uses) {
  entries_.push_back({option, std::move(uses)});
  return option;
}

CLI::Option* PathOptions::not_a_path(CLI::Option* option) {
  not_paths_.insert(option);
  return option;
}

std::vector<paths::PathUse> PathOptions::uses() const {
  std::vector<paths::PathUse> out;
  for (const Entry& e : entries_) {
    for (paths::PathUse& use : e.uses(option_label(*e.option))) {
      if (!use.path.empty()) out.push_back(std::move(use));
    }
  }
  return out;
}

std::vector<std::string> PathOptions::undeclared(const CLI::App& sub) const {
  std::vector<std::string> out;
  for (const CLI::Option* option : sub.get_options()) {
    if (option->get_expected_max() == 0) continue;  // a flag
    // CLI11's names of the types it parses as numbers (integers, unsigned and floating point).
    const std::string type = option->get_type_name();
    if (type.starts_with("INT") || type.starts_with("UINT") || type.starts_with("FLOAT")) continue;
    if (not_paths_.contains(option)) continue;
    if (std::any_of(entries_.begin(), entries_.end(),
                    [option](const Entry& e) { return e.option == option; })) {
      continue;
    }
    out.push_back(option_label(*option) + " (" + type + ")");
  }
  return out;
}

}  // namespace ordo::tools
