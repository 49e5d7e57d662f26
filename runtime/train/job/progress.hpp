// What `ordo train` shows while it trains (rank 0 only): on a terminal, one progress bar per
// epoch redrawn in place (step, images/s, loss, ETA); otherwise plain log lines, about ten per
// epoch, so a CI log or a batch system's output file stays readable. With --metrics FILE the
// same figures go to a file too (metrics_file.hpp).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include "runtime/train/train_run.hpp"

namespace ordo::train {

class TrainProgress {
 public:
  // `ranks` turns one rank's images into the job's. `terminal`: redraw a bar in place.
  TrainProgress(std::ostream& out, bool terminal, std::uint32_t ranks, std::uint32_t epochs);
  void step(const StepReport& r);
  void epoch(const EpochReport& r);

 private:
  std::ostream& out_;
  bool terminal_;
  std::uint32_t ranks_;
  std::uint32_t epochs_;
  double last_draw_ = -1.0;
  std::uint64_t first_step_ = 0;  // the run's first step (a resume starts later)
  bool started_ = false;
};

// Whether standard output reaches a terminal. Under Open MPI a rank's standard output is always
// a pseudo-terminal of mpirun's making, whatever mpirun's own output is, so there the answer is
// mpirun's: the launching process's standard output, when this rank runs beside it (rank 0 on
// the node mpirun runs on); elsewhere false.
bool output_is_terminal();

// "1:02:03" or "4:05" for an ETA; "?" before there is a rate.
std::string clock_text(double seconds);

}  // namespace ordo::train
