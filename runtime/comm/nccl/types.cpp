#include "runtime/comm/nccl/types.hpp"

#include <stdexcept>
#include <string>

#include "runtime/dag/names.hpp"

namespace ordo::comm {

ncclDataType_t nccl_datatype(dag::DType dtype) {
  switch (dtype) {
    case dag::DType::f32:
      return ncclFloat32;
    case dag::DType::f64:
      return ncclFloat64;
    case dag::DType::f16:
      return ncclFloat16;
    case dag::DType::bf16:
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 10, 0)
      return ncclBfloat16;
#else
      throw std::invalid_argument("bf16 collectives need NCCL 2.10 or later; this build has " +
                                  std::to_string(NCCL_VERSION_CODE));
#endif
    case dag::DType::i8:
      return ncclInt8;
    case dag::DType::u8:
      return ncclUint8;
    case dag::DType::i32:
      return ncclInt32;
    case dag::DType::i64:
      return ncclInt64;
  }
  throw std::invalid_argument("dtype " + std::to_string(static_cast<int>(dtype)) +
                              " has no NCCL datatype");
}

ncclRedOp_t nccl_op(dag::Reduction reduction) {
  switch (reduction) {
    case dag::Reduction::sum:
      return ncclSum;
    case dag::Reduction::prod:
      return ncclProd;
    case dag::Reduction::min:
      return ncclMin;
    case dag::Reduction::max:
      return ncclMax;
    case dag::Reduction::none:
      break;
  }
  throw std::invalid_argument("reduction '" + std::string(dag::to_string(reduction)) +
                              "' has no NCCL op; expected sum, prod, min or max");
}

}  // namespace ordo::comm
