// The convenience forms of Communicator: each builds the one Call that MPI would match and hands
// it to the backend, so a backend implements call/start only; and how a backend's own thread
// completes a collective.
#include "runtime/comm/communicator.hpp"

#include <cstdio>
#include <exception>
#include <utility>

namespace ordo::comm {

void Communicator::allreduce(void* buffer, std::uint64_t count, dag::DType dtype,
                             dag::Reduction reduction, std::int64_t key) {
  call(Call{.kind = dag::CollectiveKind::allreduce,
            .key = key,
            .count = count,
            .dtype = dtype,
            .reduction = reduction,
            .root = std::nullopt},
       buffer);
}

void Communicator::bcast(void* buffer, std::uint64_t count, dag::DType dtype, dag::Rank root,
                         std::int64_t key) {
  call(Call{.kind = dag::CollectiveKind::bcast,
            .key = key,
            .count = count,
            .dtype = dtype,
            .reduction = dag::Reduction::none,
            .root = root},
       buffer);
}

void Communicator::barrier(std::int64_t key) {
  call(Call{.kind = dag::CollectiveKind::barrier,
            .key = key,
            .count = 0,
            .dtype = dag::DType::f32,
            .reduction = dag::Reduction::none,
            .root = std::nullopt},
       nullptr);
}

void Communicator::reduce(void* buffer, std::uint64_t count, dag::DType dtype,
                          dag::Reduction reduction, dag::Rank root, std::int64_t key) {
  call(Call{.kind = dag::CollectiveKind::reduce,
            .key = key,
            .count = count,
            .dtype = dtype,
            .reduction = reduction,
            .root = root},
       buffer);
}

void Communicator::reduce_scatter(void* buffer, std::uint64_t count, dag::DType dtype,
                                  dag::Reduction reduction, std::int64_t key) {
  call(Call{.kind = dag::CollectiveKind::reduce_scatter,
            .key = key,
            .count = count,
            .dtype = dtype,
            .reduction = reduction,
            .root = std::nullopt},
       buffer);
}

void Communicator::allgather(void* buffer, std::uint64_t count, dag::DType dtype,
                             std::int64_t key) {
  call(Call{.kind = dag::CollectiveKind::allgather,
            .key = key,
            .count = count,
            .dtype = dtype,
            .reduction = dag::Reduction::none,
            .root = std::nullopt},
       buffer);
}

void complete_or_terminate(const Communicator::Done& done, std::exception_ptr error,
                           const char* what) {
  try {
    done(std::move(error));
  } catch (const std::exception& thrown) {
    std::fprintf(stderr, "ordo::comm: %s's completion threw: %s\n", what, thrown.what());
    std::terminate();
  } catch (...) {
    std::fprintf(stderr, "ordo::comm: %s's completion threw\n", what);
    std::terminate();
  }
}

}  // namespace ordo::comm
