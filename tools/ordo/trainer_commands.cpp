#include "tools/ordo/command_tables.hpp"
#include "tools/ordo/commands.hpp"

namespace ordo::tools {

std::vector<CommandEntry> trainer_commands() { return {{"train", add_train}}; }

}  // namespace ordo::tools
