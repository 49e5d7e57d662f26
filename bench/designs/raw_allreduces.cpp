#include "bench/designs/raw_allreduces.hpp"

#include <mpi.h>

#include <algorithm>
#include <numeric>
#include <utility>

#include "runtime/comm/mpi/error.hpp"

namespace ordo::bench {

std::vector<std::uint64_t> push_order_counts(const networks::Network& network) {
  std::vector<std::uint64_t> counts;
  for (auto layer = network.layers.rbegin(); layer != network.layers.rend(); ++layer) {
    for (const networks::Param& p : layer->params) counts.push_back(p.count);
  }
  return counts;
}

RawAllreduces::RawAllreduces(const comm::MpiRuntime& runtime, const networks::Network& network,
                             bool fused, std::uint64_t slice_elements)
    : counts_(push_order_counts(network)),
      world_(runtime, {dag::Communicator{"raw", std::nullopt}}) {
  const std::uint64_t total = std::accumulate(counts_.begin(), counts_.end(), std::uint64_t{0});
  grads_.assign(total, 0.0f);
  if (fused) counts_ = {total};
  if (slice_elements > 0) {
    std::vector<std::uint64_t> slices;
    for (std::uint64_t c : counts_) {
      for (std::uint64_t at = 0; at < c; at += slice_elements) {
        slices.push_back(std::min(slice_elements, c - at));
      }
    }
    counts_ = std::move(slices);
  }
}

void RawAllreduces::run() {
  float* key = grads_.data();
  for (std::uint64_t c : counts_) {
    comm::check_mpi(MPI_Allreduce(MPI_IN_PLACE, key, static_cast<int>(c), MPI_FLOAT, MPI_SUM,
                                  world_.comm(0).handle()),
                    "MPI_Allreduce");
    key += c;
  }
}

}  // namespace ordo::bench
