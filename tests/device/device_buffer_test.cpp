// On a GPU: bytes copied to device memory and back through pinned memory on a stream are the
// bytes sent, at an offset too; the event polled reports the copies done; a range outside the
// buffer is refused before anything is enqueued; an impossible allocation throws.
#include "runtime/cuda/device_buffer.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "runtime/cuda/cuda_error.hpp"
#include "runtime/cuda/devices.hpp"
#include "runtime/cuda/stream.hpp"

namespace ordo::cuda {
namespace {

TEST(DeviceBuffer, BytesRoundTripThroughPinnedMemory) {
  ASSERT_GT(visible_devices(), 0u) << "a gpu test ran where no GPU is visible";
  constexpr std::size_t n = 1 << 20;
  PinnedBuffer out(n * sizeof(float));
  PinnedBuffer back(n * sizeof(float));
  auto* values = static_cast<float*>(out.data());
  std::iota(values, values + n, 0.5f);
  std::memset(back.data(), 0, back.bytes());
  DeviceBuffer device(n * sizeof(float) + 64);
  Stream stream;
  copy_to_device(out.data(), device, 64, out.bytes(), stream);
  copy_to_host(device, 64, back.data(), back.bytes(), stream);
  Event done;
  done.record(stream);
  while (!done.done()) {
  }
  EXPECT_EQ(std::memcmp(out.data(), back.data(), out.bytes()), 0);
}

TEST(DeviceBuffer, RangesOutsideTheBufferAndImpossibleSizesAreRefused) {
  ASSERT_GT(visible_devices(), 0u) << "a gpu test ran where no GPU is visible";
  DeviceBuffer device(16);
  Stream stream;
  std::vector<char> host(32);
  EXPECT_THROW(copy_to_device(host.data(), device, 8, 9, stream), std::out_of_range);
  EXPECT_THROW(copy_to_host(device, 17, host.data(), 0, stream), std::out_of_range);
  EXPECT_THROW(DeviceBuffer(std::size_t{1} << 62), CudaError);
  stream.synchronize();
}

}  // namespace
}  // namespace ordo::cuda
