// The wall clock of one command, started as early as main() runs, so that --timeout covers the
// whole command and "time to verdict" is the time the user waited.
#pragma once

#include <chrono>

namespace ordo::tools {

class CommandClock {
 public:
  using Clock = std::chrono::steady_clock;

  CommandClock() : begin_(Clock::now()) {}
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - begin_).count(); }

 private:
  Clock::time_point begin_;
};

// The one clock of this process's command (main.cpp starts it).
const CommandClock& command_clock();

}  // namespace ordo::tools
