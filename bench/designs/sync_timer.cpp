#include "bench/designs/sync_timer.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "runtime/comm/mpi/error.hpp"

namespace ordo::bench {

double slowest_rank_seconds(MPI_Comm comm, const std::function<void()>& body) {
  comm::check_mpi(MPI_Barrier(comm), "MPI_Barrier");
  const double start = MPI_Wtime();
  body();
  return max_over_ranks(comm, MPI_Wtime() - start);
}

double median(std::vector<double> samples) {
  if (samples.empty()) throw std::invalid_argument("median of no samples");
  const std::size_t mid = samples.size() / 2;
  std::nth_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(mid),
                   samples.end());
  const double upper = samples[mid];
  if (samples.size() % 2 == 1) return upper;
  const double lower =
      *std::max_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(mid));
  return (lower + upper) / 2.0;
}

std::vector<double> medians_in_turn(const std::vector<std::function<void()>>& variants,
                                    std::uint32_t rounds) {
  if (rounds < 2) throw std::invalid_argument("needs a warm-up round and a timed one");
  std::vector<std::vector<double>> samples(variants.size());
  for (std::uint32_t round = 0; round < rounds; ++round) {
    for (std::size_t v = 0; v < variants.size(); ++v) {
      const double s = slowest_rank_seconds(MPI_COMM_WORLD, variants[v]);
      if (round > 0) samples[v].push_back(s);
    }
  }
  std::vector<double> medians;
  for (std::vector<double>& s : samples) medians.push_back(median(std::move(s)));
  return medians;
}

double max_over_ranks(MPI_Comm comm, double value) {
  double result = 0.0;
  comm::check_mpi(MPI_Allreduce(&value, &result, 1, MPI_DOUBLE, MPI_MAX, comm), "MPI_Allreduce");
  return result;
}

std::uint64_t sum_over_ranks(MPI_Comm comm, std::uint64_t value) {
  std::uint64_t result = 0;
  comm::check_mpi(MPI_Allreduce(&value, &result, 1, MPI_UINT64_T, MPI_SUM, comm), "MPI_Allreduce");
  return result;
}

}  // namespace ordo::bench
