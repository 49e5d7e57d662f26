#include "bench/gpu/device_store.hpp"

#include <cuda_runtime_api.h>

#include <string>

#include "runtime/cuda/cuda_error.hpp"
#include "runtime/engine/thread_pool_scheduler.hpp"
#include "runtime/exec/device/device_var_memory.hpp"

namespace ordo::bench {

namespace {

designs::DesignConfig config_of(designs::DesignKind kind) {
  designs::DesignConfig c;
  c.kind = kind;
  return c;
}

engine::EngineConfig engine_config(designs::DesignKind kind) {
  engine::EngineConfig c;
  c.pools = designs::step_pools(config_of(kind));
  return c;
}

}  // namespace

DeviceStore::DeviceStore(designs::DesignKind kind, comm::World& world, int gpu,
                         const std::vector<std::uint64_t>& counts)
    : world_(world),
      engine_(engine_config(kind), std::make_unique<engine::ThreadPoolScheduler>()),
      executor_(engine_, world, designs::step_comms(config_of(kind)), exec::BodyOptions{},
                std::make_shared<exec::DeviceVarMemory>(gpu)),
      store_(kvstore::KVStore::create(designs::to_string(kind), executor_, world, config_of(kind))),
      counts_(counts) {
  for (std::size_t k = 0; k < counts_.size(); ++k) {
    vars_.push_back(executor_.add_var({"grad" + std::to_string(k), dag::VarKind::tensor,
                                       counts_[k] * sizeof(float), dag::DType::f32}));
  }
}

DeviceStore::~DeviceStore() { executor_.main_done(); }

void DeviceStore::push_pull() {
  for (std::size_t k = vars_.size(); k-- > 0;) {
    store_->push(static_cast<std::int64_t>(k), vars_[k]);
  }
  for (std::size_t k = 0; k < vars_.size(); ++k)
    store_->pull(static_cast<std::int64_t>(k), vars_[k]);
  executor_.wait_for_all();
}

std::uint64_t DeviceStore::wrong_sums() {
  const auto mine = static_cast<float>(world_.rank() + 1);
  const auto sum = static_cast<float>(world_.size() * (world_.size() + 1) / 2);
  for (std::size_t k = 0; k < vars_.size(); ++k) {
    const std::vector<float> values(counts_[k], mine);
    cuda::check_cuda(
        cudaMemcpy(data(k), values.data(), values.size() * sizeof(float), cudaMemcpyHostToDevice),
        "cudaMemcpy");
  }
  push_pull();
  std::uint64_t wrong = 0;
  for (std::size_t k = 0; k < vars_.size(); ++k) {
    std::vector<float> got(counts_[k]);
    cuda::check_cuda(
        cudaMemcpy(got.data(), data(k), got.size() * sizeof(float), cudaMemcpyDeviceToHost),
        "cudaMemcpy");
    for (const float x : got) wrong += x != sum ? 1 : 0;
    cuda::check_cuda(cudaMemset(data(k), 0, got.size() * sizeof(float)), "cudaMemset");
  }
  cuda::check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  return wrong;
}

void* DeviceStore::data(std::size_t key) { return executor_.buffers().bytes(vars_.at(key)).data(); }

}  // namespace ordo::bench
