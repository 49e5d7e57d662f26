// On a GPU, as an MPI job of 2 ranks sharing it: the staged path with the CUDA stager. Device
// buffers of every dtype and many buffer and chunk sizes, every kind and form, bitwise against
// the local reference; the world the staged path builds (make_device_world). And where MPI
// reports CUDA support, the CUDA-aware path on the same buffers.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <future>
#include <memory>
#include <string>
#include <vector>

#include "device_bytes.hpp"
#include "runtime/comm/device/cuda_aware_communicator.hpp"
#include "runtime/comm/device/cuda_stager.hpp"
#include "runtime/comm/device/device_world.hpp"
#include "runtime/comm/mpi/cuda_aware.hpp"
#include "runtime/comm/staged/staged_communicator.hpp"
#include "runtime/cuda/cuda_error.hpp"
#include "runtime/cuda/devices.hpp"
#include "runtime/dag/names.hpp"
#include "tests/comm/mpi_env.hpp"
#include "tests/comm/staged/expected.hpp"

namespace ordo::comm::test {
namespace {

using dag::CollectiveKind;
using dag::DType;
using dag::Reduction;

enum class Form { blocking, started, callback };

int current_device() {
  int device = 0;
  cuda::check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  return device;
}

Call make_call(CollectiveKind kind, std::uint64_t count, DType dtype, Reduction reduction,
               std::optional<dag::Rank> root = std::nullopt) {
  return Call{kind, 4, count, dtype, reduction, root};
}

void run(Communicator& comm, const Call& call, void* buffer, Form form) {
  switch (form) {
    case Form::blocking:
      comm.call(call, buffer);
      return;
    case Form::started:
      comm.start(call, buffer)->wait();
      return;
    case Form::callback: {
      std::promise<std::exception_ptr> ended;
      comm.start_then(call, buffer, [&ended](std::exception_ptr e) { ended.set_value(e); });
      if (const std::exception_ptr error = ended.get_future().get()) std::rethrow_exception(error);
      return;
    }
  }
}

void expect_on_device(Communicator& comm, const Call& call, Form form, const std::string& what) {
  const Expected e = expected(call, comm.size(), comm.rank());
  std::unique_ptr<cuda::DeviceBuffer> buffer = cuda::test::upload(e.before);
  run(comm, call, buffer->data(), form);
  EXPECT_EQ(check(cuda::test::download(*buffer, e.before.size()), e, call, comm.rank()), "")
      << what;
}

void expect_staged(const Call& call, std::size_t chunk_bytes, Form form = Form::blocking) {
  StagedCommunicator staged(world_comm(), std::make_unique<comm::CudaStager>(current_device()),
                            StagedOptions{chunk_bytes});
  expect_on_device(staged, call, form, label(call, chunk_bytes));
}

class StagedOnDevice : public ::testing::TestWithParam<DType> {
 protected:
  void SetUp() override {
    ASSERT_GT(cuda::visible_devices(), 0u) << "a gpu test ran where no GPU is visible";
  }
};

TEST_P(StagedOnDevice, AllreduceSumsBitwiseAtEveryBufferAndChunkSize) {
  const DType dtype = GetParam();
  for (const StagedSize s : staged_sizes(dtype, (4u << 20) / dag::dtype_bytes(dtype), 1000)) {
    expect_staged(make_call(CollectiveKind::allreduce, s.count, dtype, Reduction::sum),
                  s.chunk_bytes);
  }
}

INSTANTIATE_TEST_SUITE_P(AllDTypes, StagedOnDevice,
                         ::testing::Values(DType::f32, DType::f64, DType::f16, DType::bf16,
                                           DType::i8, DType::u8, DType::i32, DType::i64),
                         [](const ::testing::TestParamInfo<DType>& p) {
                           return std::string(dag::to_string(p.param));
                         });

TEST(StagedOnDeviceKinds, EveryKindEveryFormAndTheDefaultChunk) {
  ASSERT_GT(cuda::visible_devices(), 0u) << "a gpu test ran where no GPU is visible";
  const std::uint32_t size = world().size();
  for (const Form form : {Form::blocking, Form::started, Form::callback}) {
    for (const Reduction reduction : {Reduction::prod, Reduction::min, Reduction::max}) {
      expect_staged(make_call(CollectiveKind::allreduce, 4097, DType::f32, reduction), 1000, form);
    }
    for (dag::Rank root = 0; root < size; ++root) {
      expect_staged(make_call(CollectiveKind::bcast, 100003, DType::f16, Reduction::none, root),
                    4096, form);
      expect_staged(make_call(CollectiveKind::reduce, 100003, DType::i32, Reduction::sum, root),
                    4096, form);
    }
    expect_staged(
        make_call(CollectiveKind::reduce_scatter, 1000 * size, DType::f64, Reduction::sum), 4096,
        form);
    expect_staged(make_call(CollectiveKind::allgather, 1000 * size, DType::bf16, Reduction::none),
                  4096, form);
    expect_staged(make_call(CollectiveKind::barrier, 0, DType::f32, Reduction::none), 4096, form);
  }
  expect_staged(make_call(CollectiveKind::allreduce, (64u << 20) / 4, DType::f32, Reduction::sum),
                StagedOptions{}.chunk_bytes, Form::started);
}

TEST(StagedOnDeviceKinds, TheStagedDeviceWorldCarriesEveryCommunicator) {
  ASSERT_GT(cuda::visible_devices(), 0u) << "a gpu test ran where no GPU is visible";
  std::unique_ptr<World> staged =
      comm::make_device_world(DevicePath::staged, runtime(), world(),
                              comm::DeviceWorldOptions{current_device(), StagedOptions{}});
  expect_on_device(staged->comm(0),
                   make_call(CollectiveKind::allreduce, 12345, DType::f32, Reduction::sum),
                   Form::callback, "through comm::make_device_world");
}

// Only where MPI reports CUDA support at compile time and at run time; skipped otherwise.
TEST(CudaAwareOnDevice, EveryKindOnDevicePointers) {
  ASSERT_GT(cuda::visible_devices(), 0u) << "a gpu test ran where no GPU is visible";
  const CudaAwareSupport support = cuda_aware_support(runtime());
  if (!support.usable()) GTEST_SKIP() << describe(support);
  comm::CudaAwareCommunicator comm(world_comm(), runtime().types());
  const std::uint32_t size = world().size();
  for (const Form form : {Form::blocking, Form::started, Form::callback}) {
    expect_on_device(comm, make_call(CollectiveKind::allreduce, 4097, DType::f32, Reduction::sum),
                     form, "cuda-aware allreduce");
    expect_on_device(comm,
                     make_call(CollectiveKind::bcast, 999, DType::i64, Reduction::none, size - 1),
                     form, "cuda-aware bcast");
    expect_on_device(comm, make_call(CollectiveKind::reduce, 999, DType::f64, Reduction::max, 0),
                     form, "cuda-aware reduce");
    expect_on_device(
        comm, make_call(CollectiveKind::reduce_scatter, 64 * size, DType::i32, Reduction::sum),
        form, "cuda-aware reduce_scatter");
    expect_on_device(comm,
                     make_call(CollectiveKind::allgather, 64 * size, DType::u8, Reduction::none),
                     form, "cuda-aware allgather");
  }
}

}  // namespace
}  // namespace ordo::comm::test
