#include "tools/ordo/trainer_exec.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <system_error>

#include "tools/ordo/commands.hpp"

namespace ordo::tools {

int exec_trainer(char** argv) {
  namespace fs = std::filesystem;
  std::error_code error;
  // The trainer is found beside this executable, not on PATH: a build's `ordo` runs that
  // build's trainer.
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (error) {
    std::cerr << "ordo train: error: cannot find this executable's directory (/proc/self/exe: "
              << error.message() << ")\n";
    return exit_bad_input;
  }
  const fs::path trainer = self.parent_path() / "ordo-train";
  if (!fs::exists(trainer, error)) {
    std::cerr << "ordo train: error: this build has no trainer (" << trainer.filename().string()
              << " is not beside " << self.filename().string()
              << "): it is built only where libtorch was found (ORDO_TORCH, README)\n";
    return exit_bad_input;
  }
  ::execv(trainer.c_str(), argv);
  const int errno_saved = errno;
  std::cerr << "ordo train: error: cannot run " << trainer.filename().string() << ": "
            << std::strerror(errno_saved) << '\n';
  return exit_bad_input;
}

}  // namespace ordo::tools
