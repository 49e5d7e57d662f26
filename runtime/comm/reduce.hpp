// Element-wise reduction of one buffer into another, for every dtype and reduction of the IR.
// The MPI backend uses it for f16 and bf16, which MPI cannot reduce; an in-process backend can use
// it for everything, so both compute the same bits.
#pragma once

#include <cstdint>

#include "runtime/dag/program.hpp"

namespace ordo::comm {

// inout[i] = inout[i] (reduction) in[i] for i < count, elements of `dtype`.
//   Integers wrap on overflow (two's complement), as MPI implementations do, instead of invoking
//   undefined behaviour. f16 and bf16 are widened to float, combined, and rounded back to nearest
//   even for each pair. min and max of a NaN are unspecified, as in MPI.
// Throws std::invalid_argument for Reduction::none or an unknown dtype or reduction. The buffers
// must not overlap unless they are the same buffer.
void reduce_into(void* inout, const void* in, std::uint64_t count, dag::DType dtype,
                 dag::Reduction reduction);

}  // namespace ordo::comm
