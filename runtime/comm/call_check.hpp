// Argument checks shared by every backend: a Call is checked against the communicator it is made
// on before any data moves, so a misuse fails the same way, with the same message, whether MPI or
// the simulated world would have carried it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "runtime/comm/communicator.hpp"

namespace ordo::comm {

// Throws std::invalid_argument, naming the communicator and the call, unless `call` is a well
// formed collective for a communicator of `comm_size` ranks:
//   allreduce: a reduction other than none, no root;
//   bcast:     a root below comm_size, reduction none;
//   barrier:   count 0, reduction none, no root (the buffer is ignored);
//   and for allreduce and bcast a non-null buffer whenever count > 0.
void check_call(const Call& call, const void* buffer, std::string_view comm_name,
                std::uint32_t comm_size);

// One line for diagnostics, e.g. "allreduce of 1024 x f32 (sum) on 'grads', key 3".
std::string describe(const Call& call, std::string_view comm_name);

}  // namespace ordo::comm
