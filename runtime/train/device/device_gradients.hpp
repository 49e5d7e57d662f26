// Where `ordo train --device cuda` keeps the step program's vars and which path carries the
// collectives on them (docs/gpu.md, "Training on device gradients"). With a device path (nccl,
// cuda-aware or staged) the vars are in the rank's GPU memory, the parameters and gradients are
// views of them, the compute pool's ops are device ops on libtorch's stream and the copy pool's
// on a stream of their own, as in the paper; with `host` the trainer stages its gradients
// through the KVStore's host buffers itself, as on a build without the CUDA runtime.
#pragma once

#include <c10/core/Device.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/comm/communicator.hpp"
#include "runtime/comm/mpi/runtime.hpp"
#include "runtime/comm/mpi/world.hpp"
#include "runtime/comm/staged/device_path.hpp"
#include "runtime/engine/device_queue.hpp"
#include "runtime/exec/var_memory.hpp"
#include "runtime/train/train_run.hpp"

namespace ordo::train {

struct DeviceGradients {
  comm::DevicePath path = comm::DevicePath::host;
  // Set on a device path only. Destroyed queue first, MPI world last: the reverse of their
  // making. The device world is over MPI communicators of its own, never the ones the host's
  // agreements use, so that each communicator's calls are one program's and the flight
  // recorder's positions are MPI's.
  std::unique_ptr<comm::MpiWorld> mpi;
  std::unique_ptr<comm::World> world;
  std::shared_ptr<exec::VarMemory> memory;
  std::unique_ptr<engine::DeviceQueue> compute_queue;  // libtorch's stream
  std::unique_ptr<engine::DeviceQueue> copy_queue;     // a stream of the copies' own

  // What train_rank takes; nullopt on the host path.
  std::optional<DeviceVars> vars() const;
};

// "auto" takes the path the job detects (docs/gpu.md, "Which path"); "host", "staged",
// "cuda-aware" or "nccl" that path, where every rank can take it. `comms` is the step program's
// communicator table. On a GPU (`device` cuda) it is collective over MPI_COMM_WORLD: every rank
// calls it at the same point, before any collective is issued. On the CPU only "auto" and "host"
// are taken, and nothing is collective. Throws std::invalid_argument, alike on every rank, for a
// path the job cannot take or a build without the CUDA runtime; CudaError or NcclError, on the
// rank that met it, when the path cannot be set up.
DeviceGradients open_device_gradients(const comm::MpiRuntime& runtime,
                                      const std::vector<dag::Communicator>& comms,
                                      std::string_view asked, const c10::Device& device);

}  // namespace ordo::train
