// What `ordo train` shows while it trains (rank 0 only): on a terminal, one progress bar per
// epoch redrawn in place (step, images/s, loss, ETA); otherwise plain log lines, about ten per
// epoch, so a CI log or a batch system's output file stays readable. And, with --metrics FILE,
// the same figures as JSON lines for a program to read.
#pragma once

#include <cstdint>
#include <fstream>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>

#include "runtime/train/train_run.hpp"

namespace ordo::tools {

class TrainProgress {
 public:
  // `ranks` turns one rank's images into the job's. `terminal`: redraw a bar in place.
  TrainProgress(std::ostream& out, bool terminal, std::uint32_t ranks, std::uint32_t epochs);
  void step(const train::StepReport& r);
  void epoch(const train::EpochReport& r);

 private:
  std::ostream& out_;
  bool terminal_;
  std::uint32_t ranks_;
  std::uint32_t epochs_;
  double last_draw_ = -1.0;
  std::uint64_t first_step_ = 0;  // the run's first step (a resume starts later)
  bool started_ = false;
};

// JSON lines, one object per event, each line written whole and flushed as it happens, so a
// reader (or a crash) never sees half a line short of the last. Resumed runs append.
class MetricsFile {
 public:
  // Throws std::runtime_error naming the file when it cannot be opened.
  MetricsFile(const std::string& path, bool append);
  void write(const nlohmann::json& event);

 private:
  std::string path_;
  std::ofstream out_;
};

nlohmann::json step_event(const train::StepReport& r, std::uint32_t ranks);
nlohmann::json epoch_event(const train::EpochReport& r);

// Whether standard output reaches a terminal. Under Open MPI a rank's standard output is always
// a pseudo-terminal of mpirun's making, whatever mpirun's own output is, so there the answer is
// mpirun's: the launching process's standard output, when this rank runs beside it (rank 0 on
// the node mpirun runs on); elsewhere false.
bool output_is_terminal();

// "1:02:03" or "4:05" for an ETA; "?" before there is a rate.
std::string clock_text(double seconds);

}  // namespace ordo::tools
