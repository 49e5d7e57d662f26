// The design options of every command that builds a training step (verify, replay, step-dag,
// train), registered in one place so that each design's knobs reach all of them alike.
#pragma once

#include <string>

#include "runtime/designs/design_config.hpp"
#include "tools/ordo/cli11.hpp"
#include "tools/ordo/path_options.hpp"

namespace ordo::tools {

// --design into `design` (declared on `paths` as no path); the knobs into `config`.
void add_design_options(CLI::App* sub, PathOptions& paths, std::string& design,
                        designs::DesignConfig& config, const std::string& design_help);

}  // namespace ordo::tools
