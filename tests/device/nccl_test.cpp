// On GPUs, one rank per GPU (run at 1 rank, and by scripts/gpu_checks.sh at one rank per GPU
// where there are several): ordo's NCCL communicators on device buffers. Every kind and dtype,
// bitwise against the local reference; start, test and the callback forms completing through
// the launch's event; two communicators' launches completing in launch order on the one stream;
// malformed and unsupported calls refused before anything is launched.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "device_bytes.hpp"
#include "runtime/comm/mpi/world.hpp"
#include "runtime/comm/nccl/world.hpp"
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

int current_device() {
  int device = 0;
  cuda::check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  return device;
}

Call make_call(CollectiveKind kind, std::uint64_t count, DType dtype, Reduction reduction,
               std::optional<dag::Rank> root = std::nullopt) {
  return Call{kind, 3, count, dtype, reduction, root};
}

// Runs `call` on a device copy of this rank's buffer and checks what comes back.
void expect_on_device(Communicator& comm, const Call& call) {
  const Expected e = expected(call, comm.size(), comm.rank());
  std::unique_ptr<cuda::DeviceBuffer> buffer = cuda::test::upload(e.before);
  comm.call(call, buffer->data());
  EXPECT_EQ(check(cuda::test::download(*buffer, e.before.size()), e, call, comm.rank()), "")
      << describe(call, comm.name());
}

class NcclOnDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_GT(cuda::visible_devices(), 0u) << "a gpu test ran where no GPU is visible";
    nccl_ = std::make_unique<NcclWorld>(world(), current_device());
  }
  void TearDown() override { nccl_.reset(); }
  NcclCommunicator& comm() { return nccl_->comm(0); }
  std::unique_ptr<NcclWorld> nccl_;
};

TEST_F(NcclOnDevice, EveryKindAndDTypeMatchesTheReferenceBitwise) {
  const std::uint32_t size = comm().size();
  for (const DType dtype : {DType::f32, DType::f64, DType::f16, DType::bf16, DType::i8, DType::u8,
                            DType::i32, DType::i64}) {
    SCOPED_TRACE(std::string(dag::to_string(dtype)));
    const std::uint64_t mib = (1u << 20) / dag::dtype_bytes(dtype);
    for (const std::uint64_t count :
         {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{1023}, mib}) {
      for (const Reduction reduction :
           {Reduction::sum, Reduction::prod, Reduction::min, Reduction::max}) {
        expect_on_device(comm(), make_call(CollectiveKind::allreduce, count, dtype, reduction));
      }
      for (dag::Rank root = 0; root < size; ++root) {
        expect_on_device(comm(),
                         make_call(CollectiveKind::bcast, count, dtype, Reduction::none, root));
        expect_on_device(comm(),
                         make_call(CollectiveKind::reduce, count, dtype, Reduction::sum, root));
      }
      const std::uint64_t blocks = count / size * size;
      expect_on_device(comm(),
                       make_call(CollectiveKind::reduce_scatter, blocks, dtype, Reduction::sum));
      expect_on_device(comm(),
                       make_call(CollectiveKind::allgather, blocks, dtype, Reduction::none));
    }
  }
  comm().barrier();
}

TEST_F(NcclOnDevice, StartTestAndCallbacksCompleteThroughTheEvent) {
  const Call call =
      make_call(CollectiveKind::allreduce, (16u << 20) / 4, DType::f32, Reduction::sum);
  const Expected e = expected(call, comm().size(), comm().rank());
  auto started = cuda::test::upload(e.before);
  std::unique_ptr<Request> request = comm().start(call, started->data());
  while (!request->test()) std::this_thread::sleep_for(std::chrono::microseconds(50));
  EXPECT_TRUE(request->test());  // stays true
  request->wait();               // and returns at once
  EXPECT_EQ(check(cuda::test::download(*started, e.before.size()), e, call, comm().rank()), "");

  auto called_back = cuda::test::upload(e.before);
  std::promise<std::exception_ptr> ended;
  comm().start_then(call, called_back->data(),
                    [&ended](std::exception_ptr error) { ended.set_value(error); });
  EXPECT_EQ(ended.get_future().get(), nullptr);
  EXPECT_EQ(check(cuda::test::download(*called_back, e.before.size()), e, call, comm().rank()), "");

  std::promise<std::exception_ptr> barrier_ended;
  comm().call_then(make_call(CollectiveKind::barrier, 0, DType::f32, Reduction::none), nullptr,
                   [&barrier_ended](std::exception_ptr error) { barrier_ended.set_value(error); });
  EXPECT_EQ(barrier_ended.get_future().get(), nullptr);
}

// Two communicators, one stream: a small collective launched on the second after a large one
// on the first cannot complete before it.
TEST(NcclStreamOrder, LaunchesCompleteInLaunchOrderAcrossCommunicators) {
  ASSERT_GT(cuda::visible_devices(), 0u) << "a gpu test ran where no GPU is visible";
  MpiWorld two(runtime(), {{"first", std::nullopt}, {"second", std::nullopt}});
  NcclWorld nccl(two, current_device());
  const Call large =
      make_call(CollectiveKind::allreduce, (64u << 20) / 4, DType::f32, Reduction::sum);
  const Call small = make_call(CollectiveKind::allreduce, 1, DType::f32, Reduction::sum);
  auto a = cuda::test::upload(expected(large, nccl.size(), nccl.rank()).before);
  auto b = cuda::test::upload(expected(small, nccl.size(), nccl.rank()).before);
  for (int round = 0; round < 5; ++round) {
    std::unique_ptr<Request> first = nccl.comm(0).start(large, a->data());
    std::unique_ptr<Request> second = nccl.comm(1).start(small, b->data());
    second->wait();
    EXPECT_TRUE(first->test()) << "round " << round;
    first->wait();
  }
}

TEST_F(NcclOnDevice, MalformedAndUnsupportedCallsAreRefusedBeforeLaunch) {
  auto buffer = cuda::test::upload(std::vector<std::byte>(64));
  EXPECT_THROW(comm().allreduce(buffer->data(), 4, DType::f32, Reduction::none),
               std::invalid_argument);
  EXPECT_THROW(comm().allreduce(nullptr, 4, DType::f32, Reduction::sum), std::invalid_argument);
  EXPECT_THROW(comm().bcast(buffer->data(), 4, DType::f32, comm().size()), std::invalid_argument);
  std::exception_ptr error;
  comm().start_then(make_call(CollectiveKind::allreduce, 4, DType::i32, Reduction::none),
                    buffer->data(), [&error](std::exception_ptr e) { error = e; });
  EXPECT_THROW(std::rethrow_exception(error), std::invalid_argument);
  EXPECT_THROW(nccl_->comm(1), std::out_of_range);
}

}  // namespace
}  // namespace ordo::comm::test
