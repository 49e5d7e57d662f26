// Which GPUs this process sees. A machine with the toolkit but no GPU or no driver sees none;
// that is an answer, not an error, so the CPU build runs there unchanged.
#pragma once

#include <cstdint>
#include <string>

namespace ordo::cuda {

// GPUs visible to this process: 0 where there is no driver or no device.
std::uint32_t visible_devices();

// "NVIDIA H100 80GB HBM3, compute capability 9.0, 79.1 GiB": for reports. Throws CudaError for a
// device that is not visible.
std::string describe_device(std::uint32_t device);

// Makes `device` current on this thread if it is not already (cudaGetDevice, then cudaSetDevice
// only on a change), since a stream, event or allocation lands on the current device. The
// previous device is not put back: each of ordo's threads works for one GPU, its rank's, and
// making a device current that the thread never used creates a context there (cudaSetDevice does
// since CUDA 12): hundreds of MiB on GPU 0 for every rank of a node. Throws CudaError when the
// device cannot be made current.
void make_current(int device);

}  // namespace ordo::cuda
