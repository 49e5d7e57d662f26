// Test data in device memory: bytes uploaded into a fresh device buffer and read back, with
// plain blocking copies (what is under test is the collective, not the copy).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "runtime/cuda/device_buffer.hpp"

namespace ordo::cuda::test {

// A device buffer holding `bytes`; at least one byte is allocated, so an empty one still has an
// address.
std::unique_ptr<DeviceBuffer> upload(const std::vector<std::byte>& bytes);
// The first `bytes` bytes of `buffer`.
std::vector<std::byte> download(const DeviceBuffer& buffer, std::size_t bytes);

}  // namespace ordo::cuda::test
