// The NCCL datatype and reduction op for each IR dtype and reduction. All eight dtypes have an
// NCCL type (bf16 since NCCL 2.10); every reduction but none has an op.
#pragma once

#include <nccl.h>

#include "runtime/dag/program.hpp"

namespace ordo::comm {

// Throws std::invalid_argument for a dtype this NCCL has no type for.
ncclDataType_t nccl_datatype(dag::DType dtype);
// Throws std::invalid_argument for Reduction::none (and any value outside the enum).
ncclRedOp_t nccl_op(dag::Reduction reduction);

}  // namespace ordo::comm
