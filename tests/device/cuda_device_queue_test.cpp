// On a GPU: the engine's device pools on CUDA streams (CudaDeviceQueue). Copies run on a pool and
// stream of their own, compute on another, and each op's dependents wait for the stream to pass
// its marker, not for its function. A stream is held busy by a host function that waits on a
// gate the test opens (it calls no CUDA, as a host function must not).
#include "runtime/engine/cuda/cuda_device_queue.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstring>
#include <ctime>
#include <memory>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <thread>
#include <vector>

#include "runtime/cuda/cuda_error.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/cuda/devices.hpp"
#include "runtime/engine/device_pool.hpp"
#include "runtime/engine/thread_pool_scheduler.hpp"
#include "tests/common/eventually.hpp"

namespace ordo::cuda {
namespace {

using engine::Activity;
using engine::DevicePool;
using engine::Engine;
using engine::OpDesc;
using engine::VarHandle;
using ordo::testing::eventually;

class Gate {
 public:
  void open() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      open_ = true;
    }
    opened_.notify_all();
  }
  void wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    opened_.wait(lock, [this] { return open_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable opened_;
  bool open_ = false;
};

void CUDART_CB wait_on_gate(void* gate) { static_cast<Gate*>(gate)->wait(); }

// Holds `stream` at this point until the gate opens.
void hold(Stream& stream, Gate& gate) {
  check_cuda(cudaLaunchHostFunc(stream.handle(), wait_on_gate, &gate), "cudaLaunchHostFunc");
}

std::unique_ptr<Engine> engine_of(std::vector<dag::Pool> pools,
                                  std::uint32_t shutdown_wait_ms_max = 60'000) {
  engine::ThreadPoolOptions options;
  options.shutdown_wait_ms_max = shutdown_wait_ms_max;
  return std::make_unique<Engine>(engine::EngineConfig{std::move(pools), {}, false, "step"},
                                  std::make_unique<engine::ThreadPoolScheduler>(options));
}

bool only_the_streams_hold(const Engine& engine, std::uint64_t incomplete) {
  return eventually([&] {
    const Activity a = engine.activity();
    return a.functions_running == 0 && a.ops_startable == 0 && a.ops_incomplete == incomplete;
  });
}

double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

class CudaDeviceQueueTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_GT(visible_devices(), 0u) << "a gpu test ran where no GPU is visible";
  }
};

TEST_F(CudaDeviceQueueTest, CopiesAndComputeOnTheirOwnStreamsMeetThroughTheEngine) {
  constexpr std::size_t n = std::size_t{1} << 22;
  constexpr std::size_t bytes = n * sizeof(float);
  PinnedBuffer in(bytes);
  PinnedBuffer out(bytes);
  auto* values = static_cast<float*>(in.data());
  std::iota(values, values + n, 0.25f);
  std::memset(out.data(), 0, bytes);
  DeviceBuffer device(bytes);
  engine::CudaDeviceQueue compute_stream;
  engine::CudaDeviceQueue copy_stream;
  const auto engine = engine_of({dag::Pool{"compute", 1}, dag::Pool{"copy", 1}});
  DevicePool compute(*engine, 0, compute_stream);
  DevicePool copies(*engine, 1, copy_stream);
  const VarHandle host_in = engine->new_var(dag::Var{"host_in", dag::VarKind::buffer, bytes});
  const VarHandle on_device = engine->new_var(dag::Var{"device", dag::VarKind::tensor, bytes});
  const VarHandle host_out = engine->new_var(dag::Var{"host_out", dag::VarKind::buffer, bytes});
  copies.submit(OpDesc{"to_device", {host_in}, {on_device}, 1, 0, dag::OpKind::copy},
                [&] { copy_to_device(in.data(), device, 0, bytes, copy_stream.stream()); });
  // The second half over the first, on the compute stream: right only if the copy in is done.
  compute.submit(OpDesc{"shift", {}, {on_device}, 0}, [&] {
    auto* base = static_cast<char*>(device.data());
    check_cuda(cudaMemcpyAsync(base, base + bytes / 2, bytes / 2, cudaMemcpyDeviceToDevice,
                               compute_stream.stream().handle()),
               "cudaMemcpyAsync");
  });
  copies.submit(OpDesc{"to_host", {on_device}, {host_out}, 1, 0, dag::OpKind::copy},
                [&] { copy_to_host(device, 0, out.data(), bytes, copy_stream.stream()); });
  engine->wait_to_read(host_out);
  const auto* back = static_cast<const float*>(out.data());
  for (std::size_t i = 0; i < n; ++i) {
    const float want = values[i < n / 2 ? i + n / 2 : i];
    if (back[i] != want) FAIL() << "element " << i << " is " << back[i] << ", expected " << want;
  }
}

TEST_F(CudaDeviceQueueTest, DependentsWaitForTheStreamNotForTheFunction) {
  engine::CudaDeviceQueue stream;
  Gate gate;
  const auto engine = engine_of({dag::Pool{"device", 1}, dag::Pool{"cpu", 1}});
  DevicePool pool(*engine, 0, stream);
  const VarHandle v = engine->new_var(dag::Var{"v"});
  bool dependent_ran = false;
  pool.submit(OpDesc{"held", {}, {v}, 0}, [&] { hold(stream.stream(), gate); });
  engine->submit(OpDesc{"after", {v}, {}, 1}, [&] { dependent_ran = true; });
  ASSERT_TRUE(only_the_streams_hold(*engine, 2));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(engine->can_read(v));
  gate.open();
  engine->wait_for_all();
  EXPECT_TRUE(dependent_ran);
}

TEST_F(CudaDeviceQueueTest, WaitingForTheDeviceTakesNoCore) {
  engine::CudaDeviceQueue stream;
  Gate gate;
  const auto engine = engine_of({dag::Pool{"device", 1}});
  DevicePool pool(*engine, 0, stream);
  const VarHandle v = engine->new_var(dag::Var{"v"});
  pool.submit(OpDesc{"held", {}, {v}, 0}, [&] { hold(stream.stream(), gate); });
  ASSERT_TRUE(only_the_streams_hold(*engine, 1));
  const double cpu_before = process_cpu_seconds();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const double cpu_used = process_cpu_seconds() - cpu_before;
  gate.open();
  engine->wait_to_read(v);
  // A thread polling the event would have used about 0.3 s of one core.
  EXPECT_LT(cpu_used, 0.1) << "the wait for the marker kept a core busy";
}

TEST_F(CudaDeviceQueueTest, OnePoolThreadKeepsManyOpsInFlight) {
  constexpr std::uint64_t ops = 256;
  engine::CudaDeviceQueue stream;
  Gate gate;
  DeviceBuffer device(ops * 64);
  const auto engine = engine_of({dag::Pool{"device", 1}});
  DevicePool pool(*engine, 0, stream);
  hold(stream.stream(), gate);
  for (std::uint64_t i = 0; i < ops; ++i) {
    const VarHandle v = engine->new_var(dag::Var{"v"});
    pool.submit(OpDesc{"set", {}, {v}, 0}, [&, i] {
      check_cuda(cudaMemsetAsync(static_cast<char*>(device.data()) + i * 64, static_cast<int>(i),
                                 64, stream.stream().handle()),
                 "cudaMemsetAsync");
    });
  }
  ASSERT_TRUE(only_the_streams_hold(*engine, ops));
  gate.open();
  engine->wait_for_all();
  std::vector<unsigned char> back(ops * 64);
  check_cuda(cudaMemcpy(back.data(), device.data(), back.size(), cudaMemcpyDeviceToHost),
             "cudaMemcpy");
  for (std::uint64_t i = 0; i < ops; ++i) EXPECT_EQ(back[i * 64 + 63], i) << "op " << i;
}

TEST_F(CudaDeviceQueueTest, AFailedEnqueuePoisonsTheWrites) {
  engine::CudaDeviceQueue stream;
  const auto engine = engine_of({dag::Pool{"device", 1}, dag::Pool{"cpu", 1}});
  DevicePool pool(*engine, 0, stream);
  const VarHandle range = engine->new_var(dag::Var{"range"});
  const VarHandle later = engine->new_var(dag::Var{"later"});
  const VarHandle runtime = engine->new_var(dag::Var{"runtime"});
  DeviceBuffer device(16);
  std::vector<char> host(64);
  bool dependent_ran = false;
  pool.submit(OpDesc{"out_of_range", {}, {range}, 0},
              [&] { copy_to_device(host.data(), device, 8, 16, stream.stream()); });
  engine->submit(OpDesc{"after", {range}, {later}, 1}, [&] { dependent_ran = true; });
  // The runtime refuses a copy of no known direction (7 is none) when it is enqueued: an error,
  // not a sticky one.
  pool.submit(OpDesc{"invalid", {}, {runtime}, 0}, [&] {
    check_cuda(cudaMemcpyAsync(device.data(), host.data(), 16, static_cast<cudaMemcpyKind>(7),
                               stream.stream().handle()),
               "cudaMemcpyAsync");
  });
  // The reader is skipped and passes the failure on; surfaced at its write, it is cleared at
  // the first op's too.
  EXPECT_THROW(engine->wait_to_read(later), std::out_of_range);
  EXPECT_FALSE(dependent_ran);
  EXPECT_THROW(engine->wait_to_read(runtime), CudaError);
  (void)cudaGetLastError();
  engine->wait_for_all();
}

TEST_F(CudaDeviceQueueTest, ShutdownWithWorkInFlightNeitherHangsNorCrashes) {
  Gate gate;  // outlives the queue, whose stream waits on it
  engine::CudaDeviceQueue stream;
  {
    const auto engine = engine_of({dag::Pool{"device", 1}, dag::Pool{"cpu", 1}}, 50);
    DevicePool pool(*engine, 0, stream);
    const VarHandle v = engine->new_var(dag::Var{"v"});
    pool.submit(OpDesc{"held", {}, {v}, 0}, [&] { hold(stream.stream(), gate); });
    engine->submit(OpDesc{"never", {v}, {}, 1}, [] { ADD_FAILURE() << "a discarded op ran"; });
    ASSERT_TRUE(only_the_streams_hold(*engine, 2));
    const engine::ShutdownReport report = engine->shutdown();
    EXPECT_EQ(report.ops_discarded, 1u);
    EXPECT_EQ(report.ops_abandoned, 1u);
  }
  gate.open();  // the marker is reached after the engine is gone: nothing happens
}

}  // namespace
}  // namespace ordo::cuda
