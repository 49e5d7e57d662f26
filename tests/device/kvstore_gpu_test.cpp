// On a GPU, as an MPI job: the KVStore designs funnel and depcha on gradients in device memory
// (an executor whose vars DeviceVarMemory places), pushed and pulled in place over the NCCL
// world (one rank per GPU: 1 rank, or one per GPU from scripts/gpu_checks.sh) and over the
// staged path (2 ranks sharing a GPU), two steps of keys of several sizes and dtypes, every sum
// bitwise against the host's. The values are small integers, so every order of summation gives
// the same bits.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <exception>
#include <future>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/comm/device/device_world.hpp"
#include "runtime/comm/staged/device_path.hpp"
#include "runtime/comm/staged/staged_communicator.hpp"
#include "runtime/cuda/cuda_error.hpp"
#include "runtime/cuda/devices.hpp"
#include "runtime/dag/names.hpp"
#include "runtime/designs/design_config.hpp"
#include "runtime/engine/cuda/cuda_device_queue.hpp"
#include "runtime/engine/engine.hpp"
#include "runtime/engine/host_device_queue.hpp"
#include "runtime/engine/thread_pool_scheduler.hpp"
#include "runtime/exec/device/device_var_memory.hpp"
#include "runtime/exec/executor.hpp"
#include "runtime/kvstore/kvstore.hpp"
#include "tests/comm/mpi_env.hpp"
#ifdef ORDO_NCCL_BUILT
#include "runtime/comm/nccl/world.hpp"
#endif

namespace ordo::comm::test {
namespace {

using dag::DType;

int current_device() {
  int device = 0;
  cuda::check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  return device;
}

struct Key {
  std::int64_t key;
  std::uint64_t count;
  DType dtype;
};

// Counts that divide no chunk, one above the staged path's default chunk of 4 MiB.
const std::vector<Key> keys = {{0, 1, DType::f32},
                               {1, 4097, DType::f32},
                               {2, (std::uint64_t{1} << 20) + 3, DType::f32},
                               {3, 1000, DType::f64},
                               {4, 777, DType::i32}};

// Rank r's element i of key k at step s: an integer from -32 to 31.
std::int64_t element(dag::Rank r, const Key& k, std::uint64_t i, int step) {
  return static_cast<std::int64_t>((i * 7 + r * 13 + static_cast<std::uint64_t>(k.key) * 5 +
                                    static_cast<std::uint64_t>(step) * 3) %
                                   64) -
         32;
}

template <class T>
std::vector<std::byte> as_bytes(const std::vector<T>& values) {
  std::vector<std::byte> out(values.size() * sizeof(T));
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

// Rank r's gradient, or with `ranks` the sum over ranks 0..ranks-1 (formed in rank order).
std::vector<std::byte> values(const Key& k, dag::Rank r, int step, std::uint32_t ranks = 0) {
  auto make = [&](auto zero) {
    using T = decltype(zero);
    std::vector<T> v(k.count, zero);
    for (std::uint64_t i = 0; i < k.count; ++i) {
      if (ranks == 0) {
        v[i] = static_cast<T>(element(r, k, i, step));
      } else {
        for (dag::Rank q = 0; q < ranks; ++q) v[i] += static_cast<T>(element(q, k, i, step));
      }
    }
    return as_bytes(v);
  };
  switch (k.dtype) {
    case DType::f32:
      return make(0.0f);
    case DType::f64:
      return make(0.0);
    case DType::i32:
      return make(std::int32_t{0});
    default:
      throw std::logic_error("no values for this dtype");
  }
}

// The first element where `got` differs from `want`, or "".
std::string first_difference(const std::vector<std::byte>& got, const std::vector<std::byte>& want,
                             const Key& k) {
  if (got.size() != want.size()) return "sizes differ";
  const std::size_t element_bytes = dag::dtype_bytes(k.dtype);
  for (std::size_t at = 0; at < got.size(); at += element_bytes) {
    if (std::memcmp(got.data() + at, want.data() + at, element_bytes) != 0) {
      return "key " + std::to_string(k.key) + " differs first at element " +
             std::to_string(at / element_bytes);
    }
  }
  return "";
}

// Two steps of push (every key in one call) and pull into the pushed var, under `config`, with
// the vars on this rank's GPU and `world` carrying the collectives.
void expect_design_sums(const designs::DesignConfig& config, World& world,
                        const std::string& path) {
  const designs::DesignKind kind = config.kind;
  // The copy pool on a stream of its own, as ordo train runs it; made before the engine, so that
  // it outlives every op.
  engine::CudaDeviceQueue copies;
  engine::EngineConfig engine_config;
  engine_config.pools = designs::step_pools(config);
  engine::Engine engine(std::move(engine_config), std::make_unique<engine::ThreadPoolScheduler>());
  exec::Executor executor(engine, world, designs::step_comms(config), {},
                          std::make_shared<exec::DeviceVarMemory>(current_device()));
  executor.use_device_queue(designs::copy_pool, copies);
  auto store = kvstore::KVStore::create(designs::to_string(kind), executor, world, config);
  std::vector<dag::VarId> vars;
  for (const Key& k : keys) {
    vars.push_back(executor.add_var({"grad" + std::to_string(k.key), dag::VarKind::tensor,
                                     k.count * dag::dtype_bytes(k.dtype), k.dtype}));
  }
  for (int step = 1; step <= 2; ++step) {
    std::vector<std::pair<std::int64_t, dag::VarId>> pushes;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const std::vector<std::byte> mine = values(keys[i], world.rank(), step);
      cuda::check_cuda(cudaMemcpy(executor.buffers().bytes(vars[i]).data(), mine.data(),
                                  mine.size(), cudaMemcpyHostToDevice),
                       "cudaMemcpy");
      pushes.emplace_back(keys[i].key, vars[i]);
    }
    // A cudaMemcpy from pageable memory may return before its DMA has landed, and the
    // collectives' streams do not wait for the legacy stream.
    cuda::check_cuda(cudaStreamSynchronize(cudaStreamLegacy), "cudaStreamSynchronize");
    store->push(pushes);
    for (std::size_t i = 0; i < keys.size(); ++i) store->pull(keys[i].key, vars[i]);
    executor.wait_for_all();
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const std::vector<std::byte> want = values(keys[i], 0, step, world.size());
      std::vector<std::byte> got(want.size());
      cuda::check_cuda(cudaMemcpy(got.data(), executor.buffers().bytes(vars[i]).data(), got.size(),
                                  cudaMemcpyDeviceToHost),
                       "cudaMemcpy");
      EXPECT_EQ(first_difference(got, want, keys[i]), "")
          << designs::describe(config) << " over " << path << ", step " << step;
    }
  }
  executor.main_done();
}

// The designs whose programs copy (the paper's copy buffers, fused's buckets packed and
// unpacked) besides funnel and depcha in place: every copy op a device-to-device copy.
std::vector<designs::DesignConfig> configs() {
  std::vector<designs::DesignConfig> out;
  for (const auto kind : {designs::DesignKind::funnel, designs::DesignKind::depcha}) {
    for (const auto buffers : {designs::BufferMode::in_place, designs::BufferMode::copy}) {
      designs::DesignConfig c;
      c.kind = kind;
      c.buffers = buffers;
      out.push_back(c);
    }
  }
  designs::DesignConfig fused;
  fused.kind = designs::DesignKind::fused;
  out.push_back(fused);
  return out;
}

class KvstoreOnDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_GT(cuda::visible_devices(), 0u) << "a gpu test ran where no GPU is visible";
  }
};

TEST_F(KvstoreOnDevice, TheHostRefusesDeviceVars) {
  exec::Buffers buffers(std::make_shared<exec::DeviceVarMemory>(current_device()));
  const dag::VarId g = buffers.add({"g", dag::VarKind::tensor, 16, DType::f32});
  EXPECT_THROW(buffers.fill<float>(g, {1, 2, 3, 4}), std::invalid_argument);
  cudaPointerAttributes attributes{};
  cuda::check_cuda(cudaPointerGetAttributes(&attributes, buffers.bytes(g).data()),
                   "cudaPointerGetAttributes");
  EXPECT_EQ(attributes.type, cudaMemoryTypeDevice);
  EXPECT_EQ(attributes.device, current_device());
}

// Packing and unpacking as fused's bucket does, on the device: pieces end to end and back, a
// piece of zero bytes among them.
TEST_F(KvstoreOnDevice, DeviceVarsCopyOnTheDevice) {
  auto memory = std::make_shared<exec::DeviceVarMemory>(current_device());
  exec::Buffers buffers(memory);
  const std::vector<std::uint64_t> sizes = {4, 0, (std::uint64_t{1} << 20) + 12, 8};
  std::vector<dag::VarId> parts;
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == 0) continue;
    parts.push_back(buffers.add({"p" + std::to_string(i), dag::VarKind::tensor, sizes[i],
                                 DType::u8}));
    total += sizes[i];
  }
  const dag::VarId whole = buffers.add({"whole", dag::VarKind::buffer, total, DType::u8});
  const dag::VarId back = buffers.add({"back", dag::VarKind::buffer, total, DType::u8});
  std::vector<std::byte> want(total);
  for (std::uint64_t i = 0; i < total; ++i) want[i] = static_cast<std::byte>(i * 31 % 251);
  std::uint64_t at = 0;
  std::vector<exec::ByteCopy> pack;
  for (const dag::VarId p : parts) {
    const std::span<std::byte> b = buffers.bytes(p);
    cuda::check_cuda(cudaMemcpy(b.data(), want.data() + at, b.size(), cudaMemcpyHostToDevice),
                     "cudaMemcpy");
    pack.push_back({buffers.bytes(whole).data() + at, b.data(), b.size()});
    at += b.size();
  }
  cuda::check_cuda(cudaStreamSynchronize(cudaStreamLegacy), "cudaStreamSynchronize");
  pack.push_back({buffers.bytes(whole).data(), buffers.bytes(whole).data(), 0});
  buffers.copy(pack);
  const exec::ByteCopy whole_copy{buffers.bytes(back).data(), buffers.bytes(whole).data(), total};
  buffers.copy({&whole_copy, 1});
  std::vector<std::byte> got(total);
  cuda::check_cuda(
      cudaMemcpy(got.data(), buffers.bytes(back).data(), total, cudaMemcpyDeviceToHost),
      "cudaMemcpy");
  EXPECT_EQ(got, want);
}

// A device pool's copies go on its CUDA stream and are done at the marker behind them; a queue
// that is not a stream of the memory's GPU is refused.
TEST_F(KvstoreOnDevice, DeviceVarsEnqueueCopiesOnACopyStream) {
  auto memory = std::make_shared<exec::DeviceVarMemory>(current_device());
  exec::Buffers buffers(memory);
  const std::uint64_t n = (std::uint64_t{1} << 22) + 5;
  const dag::VarId from = buffers.add({"from", dag::VarKind::buffer, n, DType::u8});
  const dag::VarId to = buffers.add({"to", dag::VarKind::buffer, n, DType::u8});
  std::vector<std::byte> want(n);
  for (std::uint64_t i = 0; i < n; ++i) want[i] = static_cast<std::byte>(i * 7 % 253);
  cuda::check_cuda(cudaMemcpy(buffers.bytes(from).data(), want.data(), n, cudaMemcpyHostToDevice),
                   "cudaMemcpy");
  cuda::check_cuda(cudaStreamSynchronize(cudaStreamLegacy), "cudaStreamSynchronize");
  engine::CudaDeviceQueue copies;
  const exec::ByteCopy all{buffers.bytes(to).data(), buffers.bytes(from).data(), n};
  buffers.copy({&all, 1}, &copies);
  std::promise<std::exception_ptr> reached;
  copies.mark([&reached](std::exception_ptr error) { reached.set_value(error); });
  EXPECT_EQ(reached.get_future().get(), nullptr);
  std::vector<std::byte> got(n);
  cuda::check_cuda(cudaMemcpy(got.data(), buffers.bytes(to).data(), n, cudaMemcpyDeviceToHost),
                   "cudaMemcpy");
  EXPECT_EQ(got, want);
  engine::HostDeviceQueue host;
  EXPECT_THROW(buffers.copy({&all, 1}, &host), std::invalid_argument);
}

TEST_F(KvstoreOnDevice, DesignsOverTheStagedPath) {
  // Chunks of 64 KiB, so that every key but the smallest goes in several.
  std::unique_ptr<World> staged =
      comm::make_device_world(DevicePath::staged, runtime(), world(),
                              comm::DeviceWorldOptions{current_device(), StagedOptions{64u << 10}});
  for (const designs::DesignConfig& config : configs()) {
    expect_design_sums(config, *staged, "the staged path");
  }
}

#ifdef ORDO_NCCL_BUILT
TEST_F(KvstoreOnDevice, DesignsOverNccl) {
  // NCCL refuses two members of one communicator on one GPU: every rank skips alike.
  if (world().size() > cuda::visible_devices()) {
    GTEST_SKIP() << world().size() << " ranks and " << cuda::visible_devices()
                 << " GPU(s): NCCL needs a GPU per rank";
  }
  NcclWorld nccl(world(), current_device());
  for (const designs::DesignConfig& config : configs()) {
    expect_design_sums(config, nccl, "NCCL");
  }
}
#endif

}  // namespace
}  // namespace ordo::comm::test
