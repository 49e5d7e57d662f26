#include "bench/designs/one_key.hpp"

#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "runtime/comm/mpi/error.hpp"
#include "runtime/comm/mpi/world.hpp"
#include "runtime/engine/submit_batch.hpp"
#include "runtime/engine/thread_pool_scheduler.hpp"
#include "runtime/exec/executor.hpp"
#include "runtime/kvstore/kvstore.hpp"

namespace ordo::bench {

namespace {

// One design's KVStore with one key of `count` f32 elements, on a world of its own that has
// exactly the communicators the design needs.
class OneKeyStore {
 public:
  OneKeyStore(const comm::MpiRuntime& runtime, const designs::DesignConfig& config,
              std::uint64_t count, const engine::ThreadPoolOptions& pool_options)
      : world_(runtime, designs::step_comms(config)),
        engine_(engine_config(config), std::make_unique<engine::ThreadPoolScheduler>(pool_options)),
        executor_(engine_, world_, designs::step_comms(config), exec::BodyOptions{}),
        store_(
            kvstore::KVStore::create(designs::to_string(config.kind), executor_, world_, config)),
        grad_(executor_.add_var(
            {"grad", dag::VarKind::tensor, count * sizeof(float), dag::DType::f32})) {}

  // The gradient is all zeros, so its sum stays zero however often it is pushed.
  void push_pull(Calls calls) {
    std::optional<engine::SubmitBatch> batch;
    if (calls == Calls::batched) batch.emplace(executor_.engine());
    store_->push(0, grad_);
    store_->pull(0, grad_);
    executor_.wait_for_all();
  }

 private:
  static engine::EngineConfig engine_config(const designs::DesignConfig& config) {
    engine::EngineConfig c;
    c.pools = designs::step_pools(config);
    return c;
  }

  comm::MpiWorld world_;
  engine::Engine engine_;
  exec::Executor executor_;
  std::unique_ptr<kvstore::KVStore> store_;
  dag::VarId grad_;
};

std::string size_label(std::uint64_t bytes) {
  if (bytes >= (1u << 20)) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes >> 10) + " KiB";
}

double gb_per_s(std::uint64_t bytes, double seconds) {
  return static_cast<double>(bytes) / seconds / 1e9;
}

}  // namespace

std::vector<OneKeyDesign> one_key_designs() {
  std::vector<OneKeyDesign> designs;
  const std::pair<designs::BufferMode, Calls> groups[] = {
      {designs::BufferMode::in_place, Calls::plain},
      {designs::BufferMode::in_place, Calls::batched},
      {designs::BufferMode::copy, Calls::plain}};
  for (const auto& [buffers, calls] : groups) {
    for (designs::DesignKind kind : {designs::DesignKind::naive, designs::DesignKind::funnel,
                                     designs::DesignKind::concom, designs::DesignKind::depcha}) {
      designs::DesignConfig c;
      c.kind = kind;
      c.buffers = buffers;
      if (kind == designs::DesignKind::concom) {
        c.comm_threads = 1;
        c.ncomm = 2;
        c.outstanding = 2;
      }
      designs.push_back(OneKeyDesign{c, calls});
    }
  }
  return designs;
}

Repeats one_key_repeats(std::uint64_t bytes) {
  if (bytes <= (64u << 10)) return {20, 201};
  if (bytes <= (1u << 20)) return {5, 51};
  if (bytes <= (16u << 20)) return {3, 21};
  return {2, 11};
}

std::vector<OneKeyRow> run_one_key(const comm::MpiRuntime& runtime,
                                   const std::vector<std::uint64_t>& sizes,
                                   const engine::ThreadPoolOptions& pool_options) {
  std::vector<OneKeyRow> rows;
  for (std::uint64_t bytes : sizes) {
    const std::uint64_t count = bytes / sizeof(float);
    const int mpi_count = static_cast<int>(count);
    comm::MpiWorld raw_world(runtime, {dag::Communicator{"raw", std::nullopt}});
    const MPI_Comm raw_comm = raw_world.comm(0).handle();
    std::vector<float> raw(count, 0.0f);
    std::vector<float> grad(count, 0.0f);
    const std::vector<OneKeyDesign> designs = one_key_designs();
    std::vector<std::unique_ptr<OneKeyStore>> stores;
    for (const OneKeyDesign& d : designs) {
      stores.push_back(std::make_unique<OneKeyStore>(runtime, d.config, count, pool_options));
    }

    std::vector<std::function<void()>> variants;
    variants.emplace_back([&] {
      comm::check_mpi(
          MPI_Allreduce(MPI_IN_PLACE, raw.data(), mpi_count, MPI_FLOAT, MPI_SUM, raw_comm),
          "MPI_Allreduce");
    });
    variants.emplace_back([&] {
      std::memcpy(raw.data(), grad.data(), bytes);
      comm::check_mpi(
          MPI_Allreduce(MPI_IN_PLACE, raw.data(), mpi_count, MPI_FLOAT, MPI_SUM, raw_comm),
          "MPI_Allreduce");
      std::memcpy(grad.data(), raw.data(), bytes);
    });
    for (std::size_t d = 0; d < stores.size(); ++d) {
      variants.emplace_back(
          [s = stores[d].get(), calls = designs[d].calls] { s->push_pull(calls); });
    }

    const Repeats repeats = one_key_repeats(bytes);
    std::vector<std::vector<double>> samples(variants.size());
    for (std::uint32_t i = 0; i < repeats.warmup + repeats.timed; ++i) {
      for (std::size_t v = 0; v < variants.size(); ++v) {
        const double s = slowest_rank_seconds(MPI_COMM_WORLD, variants[v]);
        if (i >= repeats.warmup) samples[v].push_back(s);
      }
    }
    OneKeyRow row;
    row.bytes = bytes;
    row.raw_s = median(samples[0]);
    row.raw_copies_s = median(samples[1]);
    for (std::size_t v = 2; v < variants.size(); ++v) row.design_s.push_back(median(samples[v]));
    rows.push_back(row);
  }
  return rows;
}

namespace {

void print_table(std::FILE* out, const std::vector<OneKeyRow>& rows, designs::BufferMode buffers,
                 Calls calls) {
  const std::vector<OneKeyDesign> designs = one_key_designs();
  const auto shown = [&](const OneKeyDesign& d) {
    return d.config.buffers == buffers && d.calls == calls;
  };
  const bool copy = buffers == designs::BufferMode::copy;
  std::fprintf(out, "| size | raw MPI_Allreduce |%s", copy ? " raw + 2 memcpy |" : "");
  std::size_t columns = 0;
  for (const OneKeyDesign& d : designs) {
    if (!shown(d)) continue;
    std::fprintf(out, " %s |", std::string(designs::to_string(d.config.kind)).c_str());
    ++columns;
  }
  std::fprintf(out, "\n|---|---:|%s", copy ? "---:|" : "");
  for (std::size_t d = 0; d < columns; ++d) std::fprintf(out, "---:|");
  std::fprintf(out, "\n");
  for (const OneKeyRow& r : rows) {
    std::fprintf(out, "| %s | %.1f us, %.2f GB/s |", size_label(r.bytes).c_str(), r.raw_s * 1e6,
                 gb_per_s(r.bytes, r.raw_s));
    if (copy) {
      std::fprintf(out, " %.2f GB/s (%.2f) |", gb_per_s(r.bytes, r.raw_copies_s),
                   r.raw_s / r.raw_copies_s);
    }
    for (std::size_t d = 0; d < designs.size(); ++d) {
      if (!shown(designs[d])) continue;
      const double s = r.design_s[d];
      std::fprintf(out, " %.2f GB/s (%.2f) |", gb_per_s(r.bytes, s), r.raw_s / s);
    }
    std::fprintf(out, "\n");
  }
}

}  // namespace

void print_one_key(std::FILE* out, const std::vector<OneKeyRow>& rows) {
  std::fprintf(out, "In place (the default buffer mode):\n\n");
  print_table(out, rows, designs::BufferMode::in_place, Calls::plain);
  std::fprintf(out, "\nIn place, push + pull + wait inside one submit batch:\n\n");
  print_table(out, rows, designs::BufferMode::in_place, Calls::batched);
  std::fprintf(out, "\nCopy buffers (the paper's form):\n\n");
  print_table(out, rows, designs::BufferMode::copy, Calls::plain);
}

}  // namespace ordo::bench
