// What fingerprint mode adds to one collective on Open MPI (docs/diagnostics.md, "Fingerprint
// mode"): the same allreduce on the bare communicator and through a CheckedWorld, blocking and
// non-blocking, at a few sizes, in alternating blocks so that both see the same machine load.
// Run under mpirun (-np 2, -np 4); rank 0 prints a markdown table of the medians.
#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <thread>
#include <vector>

#include "runtime/comm/mpi/runtime.hpp"
#include "runtime/comm/mpi/shadow_channels.hpp"
#include "runtime/comm/mpi/world.hpp"
#include "runtime/flight/checked_world.hpp"

namespace {

using namespace ordo;

constexpr int blocks = 9;  // alternating blocks per variant; the median is reported

// Fewer calls for larger buffers, so each size takes seconds, not minutes.
int calls_per_block(std::uint64_t count) { return count <= 1024 ? 500 : count <= 16384 ? 200 : 40; }

comm::Call allreduce_of(std::uint64_t count) {
  return comm::Call{
      dag::CollectiveKind::allreduce, 1, count, dag::DType::f32, dag::Reduction::sum, std::nullopt};
}

// Seconds per call over one block, the same on every rank (the slowest rank's).
double block(comm::Communicator& c, std::uint64_t count, bool blocking, std::vector<float>& data) {
  const comm::Call call = allreduce_of(count);
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  const int calls = calls_per_block(count);
  for (int i = 0; i < calls; ++i) {
    if (blocking) {
      c.call(call, data.data());
    } else {
      std::atomic<bool> ended{false};
      c.start_then(call, data.data(),
                   [&ended](std::exception_ptr) { ended.store(true, std::memory_order_release); });
      while (!ended.load(std::memory_order_acquire)) std::this_thread::yield();
    }
  }
  double seconds = (MPI_Wtime() - start) / calls;
  MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return seconds;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  comm::MpiRuntime runtime(&argc, &argv);
  const std::vector<dag::Communicator> comms = {{"grads", {}}};
  comm::MpiWorld bare(runtime, comms);
  comm::MpiShadowChannels shadows(bare);
  flight::CheckedWorld checked(bare, shadows.channels());
  const bool root = bare.rank() == 0;
  if (root) {
    std::printf("fingerprint mode on %u Open MPI ranks (median of %d alternating blocks)\n\n",
                bare.size(), blocks);
    std::printf("| allreduce | form | bare us/call | checked us/call | added us | ratio |\n");
    std::printf("|---|---|---|---|---|---|\n");
  }
  for (const std::uint64_t count :
       {std::uint64_t{1}, std::uint64_t{16384}, std::uint64_t{1} << 18}) {
    for (const bool blocking : {true, false}) {
      std::vector<float> data(count, 1.0f);
      std::vector<double> plain;
      std::vector<double> with;
      block(bare.comm(0), count, blocking, data);  // warm-up of both paths
      block(checked.comm(0), count, blocking, data);
      for (int b = 0; b < blocks; ++b) {
        plain.push_back(block(bare.comm(0), count, blocking, data));
        with.push_back(block(checked.comm(0), count, blocking, data));
      }
      const double p = median(plain) * 1e6;
      const double w = median(with) * 1e6;
      if (root) {
        std::printf("| %llu B | %s | %.1f | %.1f | %.1f | %.2f |\n",
                    static_cast<unsigned long long>(count * 4),
                    blocking ? "blocking" : "non-blocking", p, w, w - p, w / p);
      }
    }
  }
  return 0;
}
