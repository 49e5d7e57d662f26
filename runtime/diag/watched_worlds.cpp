#include "runtime/diag/watched_worlds.hpp"

#include <cstddef>
#include <stdexcept>

namespace ordo::diag {

WatchedWorlds::WatchedWorlds(comm::World& world, comm::World* step,
                             const std::vector<dag::Communicator>& comms,
                             const WatchOptions& options) {
  if (step != nullptr && (step->rank() != world.rank() || step->size() != world.size() ||
                          step->comm_count() != world.comm_count())) {
    throw std::invalid_argument(
        "a step world must be the same rank's view of the same ranks and communicators as the "
        "world it is watched beside");
  }
  const bool check = !options.channels.empty() || !options.step_channels.empty();
  if (check && step != nullptr && options.step_channels.empty()) {
    throw std::invalid_argument(
        "fingerprint mode on a device path needs check channels of their own for the device "
        "world");
  }
  if (check && step == nullptr && !options.step_channels.empty()) {
    throw std::invalid_argument("check channels for a step world, but there is none");
  }
  comm::World* base = &world;
  comm::World* step_base = step;
  if (check) {
    checked_ =
        std::make_unique<flight::CheckedWorld>(world, options.channels, flight::MismatchReport{},
                                               comm::Backend::mpi, step != nullptr ? "host." : "");
    base = checked_.get();
    if (step != nullptr) {
      step_checked_ = std::make_unique<flight::CheckedWorld>(
          *step, options.step_channels, flight::MismatchReport{}, options.step_backend);
      step_base = step_checked_.get();
    }
  }
  world_ = base;
  step_world_ = step_base;
  if (options.flight_recorder) {
    std::vector<dag::Communicator> recorded_comms = comms;
    if (step_base != nullptr) {
      both_ = std::make_unique<comm::JoinedWorld>(*step_base, *base);
      for (const dag::Communicator& c : comms) {
        recorded_comms.push_back({"host." + c.name, c.members});
      }
    }
    recorder_ = std::make_unique<FlightRecorder>(both_ ? static_cast<comm::World&>(*both_) : *base,
                                                 recorded_comms, options.flight_ring);
    const std::vector<flight::CommRings*> rings = recorder_->rings();
    if (step_base != nullptr) {
      const auto first = rings.begin() + static_cast<std::ptrdiff_t>(comms.size());
      step_recorded_ = std::make_unique<flight::RecordedWorld>(
          *step_base, std::vector<flight::CommRings*>(rings.begin(), first));
      recorded_ = std::make_unique<flight::RecordedWorld>(
          *base, std::vector<flight::CommRings*>(first, rings.end()));
      step_world_ = step_recorded_.get();
    } else {
      recorded_ = std::make_unique<flight::RecordedWorld>(*base, rings);
    }
    world_ = recorded_.get();
  }
  if (!options.timeline_path.empty()) {
    timeline_ = std::make_unique<TimelineRun>(
        options.timeline_path, *world_, options.timeline_events, options.timeline_key, step_world_);
    world_ = &timeline_->world();
    if (step_world_ != nullptr) step_world_ = timeline_->step_world();
  }
}

}  // namespace ordo::diag
