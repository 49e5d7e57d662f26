// The design options of every command that builds a training step (verify, replay, step-dag,
// train), registered in one place so that each design's knobs reach all of them alike.
#pragma once

#include <string>

#include "runtime/designs/design_config.hpp"
#include "tools/ordo/cli11.hpp"

namespace ordo::tools {

// --design into `design`; the knobs into `config`.
void add_design_options(CLI::App* sub, std::string& design, designs::DesignConfig& config,
                        const std::string& design_help);

}  // namespace ordo::tools
