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

// Makes `device` current on this thread for a scope and then puts the previous one back: a pool
// thread may have any device current, and a stream, event or allocation lands on the current one.
// Throws CudaError when the device cannot be made current.
class DeviceScope {
 public:
  explicit DeviceScope(int device);
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;
  ~DeviceScope();

 private:
  int previous_ = 0;
  bool changed_ = false;
};

}  // namespace ordo::device
