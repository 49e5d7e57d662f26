// What the Open MPI vocabulary tests share: the dtype and reduction pairs each kind is tried with,
// the call of one kind for a pair, and how a call runs in either form.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/comm/communicator.hpp"
#include "runtime/dag/names.hpp"

namespace ordo::comm::test {

struct Case {
  dag::DType dtype;
  dag::Reduction reduction;
};
inline constexpr Case cases[] = {{dag::DType::f32, dag::Reduction::sum},
                                 {dag::DType::i32, dag::Reduction::max},
                                 {dag::DType::f16, dag::Reduction::sum},
                                 {dag::DType::i64, dag::Reduction::prod}};

// A kind that does not reduce gets reduction none, whatever the case's.
inline Call make_call(dag::CollectiveKind kind, std::uint64_t count, Case c,
                      std::optional<dag::Rank> root, std::int64_t key = 4) {
  return Call{.kind = kind,
              .key = key,
              .count = count,
              .dtype = c.dtype,
              .reduction = dag::takes_reduction(kind) ? c.reduction : dag::Reduction::none,
              .root = root};
}

inline void run(Communicator& comm, const Call& call, std::vector<std::byte>& buffer,
                bool blocking) {
  if (blocking) {
    comm.call(call, buffer.data());
  } else {
    comm.start(call, buffer.data())->wait();
  }
}

inline std::string what(const Call& call, bool blocking) {
  return describe(call, "world") + (blocking ? ", blocking" : ", non-blocking");
}

}  // namespace ordo::comm::test
