#include "runtime/diag/timeline_run.hpp"

#include <exception>
#include <stdexcept>
#include <utility>

#include "runtime/diag/timeline_writer.hpp"
#include "runtime/flight/flight_ring.hpp"

namespace ordo::diag {

TimelineRun::TimelineRun(std::string path, comm::World& inner, std::size_t capacity,
                         std::int64_t key, comm::World* step)
    : path_(std::move(path)), log_(inner.rank(), inner.size(), capacity), key_(key) {
  if (step == nullptr) {
    world_ = std::make_unique<flight::TimelineWorld>(inner, log_);
    return;
  }
  if (step->rank() != inner.rank() || step->size() != inner.size() ||
      step->comm_count() != inner.comm_count()) {
    throw std::invalid_argument(
        "a timeline's step world must be the same rank's view of the same ranks and "
        "communicators as its world");
  }
  step_world_ = std::make_unique<flight::TimelineWorld>(*step, log_);
  world_ = std::make_unique<flight::TimelineWorld>(inner, log_, step->comm_count(), "host.");
}

void TimelineRun::start() {
  // Before the barrier, so before any rank of this run can have written its file.
  if (world_->rank() == 0) remove_timeline_leftovers(path_);
  world_->comm(0).barrier(key_);
  log_.set_origin(flight::steady_ns());
}

std::string TimelineRun::finish() {
  std::string error;
  try {
    write_timeline_file(path_, log_.contents());
  } catch (const std::exception& e) {
    error = "cannot write the timeline: " + std::string(e.what());
  }
  // Also the barrier that lets rank 0 read every rank's file.
  std::int32_t failed = error.empty() ? 0 : 1;
  world_->comm(0).allreduce(&failed, 1, dag::DType::i32, dag::Reduction::max, key_);
  if (world_->rank() != 0 || world_->size() == 1 || failed != 0) return error;
  try {
    merge_timeline_files(path_, world_->size());
  } catch (const std::exception& e) {
    error = "cannot merge the ranks' timelines into " + path_ + ": " + e.what() +
            " (the ranks' files " + timeline_rank_path(path_, 0) +
            " and on are kept until the next run with this timeline)";
  }
  return error;
}

}  // namespace ordo::diag
