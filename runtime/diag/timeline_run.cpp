#include "runtime/diag/timeline_run.hpp"

#include <exception>
#include <utility>

#include "runtime/diag/flight_ring.hpp"
#include "runtime/diag/timeline_writer.hpp"

namespace ordo::diag {

TimelineRun::TimelineRun(std::string path, comm::World& inner, std::size_t capacity,
                         std::int64_t key)
    : path_(std::move(path)),
      log_(inner.rank(), inner.size(), capacity),
      world_(inner, log_),
      key_(key) {}

void TimelineRun::start() {
  world_.comm(0).barrier(key_);
  log_.set_origin(steady_ns());
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
  world_.comm(0).allreduce(&failed, 1, dag::DType::i32, dag::Reduction::max, key_);
  if (world_.rank() != 0 || world_.size() == 1 || failed != 0) return error;
  try {
    merge_timeline_files(path_, world_.size());
  } catch (const std::exception& e) {
    error = "cannot merge the ranks' timelines into " + path_ + ": " + e.what();
  }
  return error;
}

}  // namespace ordo::diag
