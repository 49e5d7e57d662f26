// Without a GPU (or a driver) the runtime sees none and says so; with one, it can name it.
#include "runtime/cuda/devices.hpp"

#include <gtest/gtest.h>

#include "runtime/cuda/cuda_error.hpp"

namespace ordo::cuda {
namespace {

TEST(Devices, NoneVisibleIsAnAnswerAndNamingOneThatIsNotThrows) {
  const std::uint32_t n = visible_devices();
  EXPECT_EQ(visible_devices(), n);  // asking again gives the same answer (no error left behind)
  EXPECT_THROW(describe_device(n), CudaError);
  if (n > 0) {
    EXPECT_NE(describe_device(0).find("compute capability"), std::string::npos);
  }
}

}  // namespace
}  // namespace ordo::cuda
