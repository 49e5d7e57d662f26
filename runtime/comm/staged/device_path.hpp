// Which of the three ways to carry collectives on device buffers a job takes, as a pure function
// of what the machine offers, so that the rule is tested on any CPU. Gathering the inputs needs
// the CUDA runtime and MPI, and lives in runtime/comm/device/device_path_detection.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ordo::comm {

enum class DevicePath : std::uint8_t {
  nccl,        // NCCL communicators on the devices (runtime/comm/nccl)
  cuda_aware,  // the MPI backend on device pointers, MPI moving device memory itself
  staged,      // the MPI backend on host copies (StagedCommunicator)
  host,        // no GPU visible: gradients live in host memory and the MPI backend carries them
};

std::string_view to_string(DevicePath path);  // "nccl", "cuda-aware", "staged", "host"
// The words of to_string back; nullopt for anything else.
std::optional<DevicePath> parse_device_path(std::string_view name);

struct DevicePathInputs {
  bool nccl_built = false;          // ordo was built with NCCL
  std::uint32_t visible_gpus = 0;   // GPUs this rank sees
  std::uint32_t ranks_on_node = 1;  // ranks of the job on this rank's node, this one included
  bool cuda_aware_mpi = false;      // MPI reports CUDA support at compile time and at run time
};

// No GPU: host. NCCL built and a GPU for every rank of the node (NCCL refuses two ranks of one
// communicator on one device): nccl. Otherwise CUDA-aware MPI where MPI reports it, else staged.
// A launcher that hides all but one GPU from each rank (CUDA_VISIBLE_DEVICES) shows every rank one
// GPU, so with several ranks per node this answers cuda_aware or staged, never wrongly nccl.
DevicePath choose_device_path(const DevicePathInputs& inputs);


// What every rank of the job offers, each the least over the ranks: a path named by the user is
// taken only where every rank can take it.
struct JobDevicePaths {
  bool gpu = false;         // every rank sees a GPU
  bool cuda_aware = false;  // every rank's MPI is CUDA-aware (DevicePathInputs::cuda_aware_mpi)
  bool nccl = false;        // every rank chose nccl
};
JobDevicePaths job_paths_of(const DevicePathInputs& inputs);  // one rank's, before the least

// Why the job cannot take `path` (what is missing, where to look), or nullopt when it can:
// host always; staged with a GPU on every rank; cuda-aware besides with CUDA-aware MPI on every
// rank; nccl where every rank's choice is nccl.
std::optional<std::string> path_refusal(DevicePath path, const JobDevicePaths& job);

// The job's path: the most capable one every rank can take (path_refusal says none of it), the
// same on every rank since `job` is. Every rank must take the same path: a collective carried by
// NCCL on one rank and by MPI on another never matches. The least capable of the ranks' own
// choices is not enough: a rank choosing cuda-aware and one choosing nccl without CUDA-aware MPI
// can both take only staged.
DevicePath job_device_path(const JobDevicePaths& job);

}  // namespace ordo::comm
