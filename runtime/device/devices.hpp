// Which GPUs this process sees. A machine with the toolkit but no GPU or no driver sees none;
// that is an answer, not an error, so the CPU build runs there unchanged.
#pragma once

#include <cstdint>
#include <string>

namespace ordo::device {

// GPUs visible to this process: 0 where there is no driver or no device.
std::uint32_t visible_devices();

// "NVIDIA H100 80GB HBM3, compute capability 9.0, 79.1 GiB": for reports. Throws CudaError for a
// device that is not visible.
std::string describe_device(std::uint32_t device);

}  // namespace ordo::device
