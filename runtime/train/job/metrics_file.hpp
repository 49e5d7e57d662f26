// `ordo train --metrics FILE`: the figures rank 0 shows, as JSON lines for a program to read, one
// object per event (verify, step, epoch, summary), each line written whole as it happens, so that
// a reader, a crash or a full disk never leaves half a line at the end (io/line_file.hpp).
// Resumed runs append.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "runtime/io/line_file.hpp"
#include "runtime/train/train_run.hpp"

namespace ordo::train {

class MetricsFile {
 public:
  // Throws std::runtime_error naming the file and why (the system's reason) when it cannot be
  // opened.
  MetricsFile(const std::string& path, bool append);
  // Throws std::runtime_error naming the file and why when the line cannot be written; the file
  // then ends with the last whole line.
  void write(const nlohmann::json& event);

 private:
  static io::LineFile open(const std::string& path, bool append);

  io::LineFile file_;
};

nlohmann::json step_event(const StepReport& r, std::uint32_t ranks);
nlohmann::json epoch_event(const EpochReport& r);

}  // namespace ordo::train
