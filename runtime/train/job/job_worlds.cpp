#include "runtime/train/job/job_worlds.hpp"

#include <stdexcept>

#include "runtime/comm/mpi/node_layout.hpp"
#include "runtime/designs/step_builder.hpp"
#include "runtime/errors/exit_codes.hpp"
#include "runtime/train/job/job_agreement.hpp"
#include "runtime/train/job/job_messages.hpp"

namespace ordo::train {

namespace {

DeviceGradients open_gradients(const comm::MpiRuntime& runtime, const designs::DesignConfig& config,
                               const std::string& path, const c10::Device& device) {
  try {
    return open_device_gradients(runtime, designs::step_comms(config), path, device);
  } catch (const std::invalid_argument&) {  // alike on every rank
    throw;
  } catch (const std::exception& e) {  // this rank's own: the others may wait in a collective
    say_rank_error(runtime.world_rank(), std::string(e.what()) + "; ending every rank");
    runtime.abort(exit_codes::bad_input);
  }
}

diag::WatchOptions watch_options(const JobOptions& o, const diag::FingerprintChannels& channels,
                                 comm::Backend backend) {
  diag::WatchOptions w;
  channels.give(w);
  w.step_backend = backend;
  // Every collective is watched, the main thread's agreements included, so that the recorder's
  // sequence numbers are the communicators' own.
  w.flight_recorder = o.flight_recorder;
  w.flight_ring = o.flight_ring;
  w.timeline_path = o.timeline_path;
  w.timeline_events = o.timeline_events;
  w.timeline_key = agree_key;
  return w;
}

}  // namespace

std::optional<std::string> fit_to_world(const comm::MpiRuntime& runtime,
                                        designs::DesignConfig& config) {
  std::optional<designs::NodeLayout> layout;
  if (designs::needs_node_layout(config.kind)) {
    try {
      const comm::NodeLayout world = comm::node_layout(runtime);
      layout = designs::NodeLayout{world.nodes, world.node_ranks};
    } catch (const std::invalid_argument& e) {
      return "design " + std::string(designs::to_string(config.kind)) + ": " + e.what();
    }
  }
  try {
    config = designs::fit_to_ranks(config, runtime.world_size(), layout);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return std::nullopt;
}

JobWorlds::JobWorlds(const comm::MpiRuntime& runtime, const designs::DesignConfig& config,
                     const JobOptions& o, const c10::Device& device, bool check_collectives)
    : mpi_(runtime, designs::step_comms(config)),
      gradients_(open_gradients(runtime, config, o.comm_path, device)),
      fingerprints_(mpi_, check_collectives, gradients_.world != nullptr),
      watched_(mpi_, gradients_.world.get(), designs::step_comms(config),
               watch_options(o, fingerprints_, backend())) {}

}  // namespace ordo::train
