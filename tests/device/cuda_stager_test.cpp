// On a GPU: the CUDA stager's copies land where they were sent, in both directions, however
// they are interleaved and in whatever order they are waited for, at offsets and with sizes no
// alignment favours; its host memory grows and keeps working.
#include "runtime/comm/device/cuda_stager.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "device_bytes.hpp"
#include "runtime/cuda/devices.hpp"

namespace ordo::cuda {
namespace {

TEST(CudaStager, CopiesLandWhereverTheyAreWaitedFor) {
  ASSERT_GT(visible_devices(), 0u) << "a gpu test ran where no GPU is visible";
  constexpr std::size_t n = (3u << 20) + 7;
  std::vector<std::byte> source(n);
  for (std::size_t i = 0; i < n; ++i) source[i] = static_cast<std::byte>(i * 7 + 3);
  std::unique_ptr<DeviceBuffer> device = test::upload(source);
  std::unique_ptr<DeviceBuffer> back = test::upload(std::vector<std::byte>(n));
  comm::CudaStager stager(0);
  auto* host = static_cast<std::byte*>(stager.host(n));
  std::memset(host, 0, n);
  // In, in pieces of uneven size, waited for last to first.
  std::vector<comm::Stager::Copy> copies;
  for (std::size_t first = 0; first < n; first += 999983) {
    const std::size_t bytes = std::min<std::size_t>(999983, n - first);
    copies.push_back(
        stager.to_host(static_cast<std::byte*>(device->data()) + first, host + first, bytes));
  }
  for (auto copy = copies.rbegin(); copy != copies.rend(); ++copy) stager.wait(*copy);
  EXPECT_EQ(std::memcmp(host, source.data(), n), 0);
  // Out, in two halves, waited for first to last.
  const comm::Stager::Copy low = stager.to_device(host, back->data(), n / 2);
  const comm::Stager::Copy high =
      stager.to_device(host + n / 2, static_cast<std::byte*>(back->data()) + n / 2, n - n / 2);
  stager.wait(low);
  stager.wait(high);
  EXPECT_EQ(test::download(*back, n), source);
  // A larger area: still pinned, still copied into.
  auto* larger = static_cast<std::byte*>(stager.host(2 * n));
  stager.wait(stager.to_host(device->data(), larger + n, n));
  EXPECT_EQ(std::memcmp(larger + n, source.data(), n), 0);
}

}  // namespace
}  // namespace ordo::cuda
