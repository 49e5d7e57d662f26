#include "runtime/comm/mpi/types.hpp"

#include <cassert>
#include <stdexcept>
#include <string>

#include "runtime/comm/mpi/error.hpp"
#include "runtime/comm/reduce.hpp"
#include "runtime/dag/names.hpp"

namespace ordo::comm {
namespace {

static_assert(static_cast<int>(dag::DType::i64) == 7, "the table covers DType f32..i64");
static_assert(static_cast<int>(dag::Reduction::max) == 4, "the ops cover Reduction sum..max");

constexpr std::array<dag::Reduction, 4> reductions = {dag::Reduction::sum, dag::Reduction::prod,
                                                      dag::Reduction::min, dag::Reduction::max};

// Called by MPI, which cannot take an exception; reduce_into cannot throw for these constant
// arguments, and noexcept turns an impossible throw into a terminate instead of unwinding C code.
template <dag::DType dtype, dag::Reduction reduction>
void reduce_user_op(void* in, void* inout, int* length, MPI_Datatype* /*datatype*/) noexcept {
  assert(length != nullptr && *length >= 0);
  reduce_into(inout, in, static_cast<std::uint64_t>(*length), dtype, reduction);
}

template <dag::DType dtype>
std::array<MPI_User_function*, 4> user_functions() {
  return {reduce_user_op<dtype, dag::Reduction::sum>, reduce_user_op<dtype, dag::Reduction::prod>,
          reduce_user_op<dtype, dag::Reduction::min>, reduce_user_op<dtype, dag::Reduction::max>};
}

MPI_Datatype make_16bit_type() {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  check_mpi(MPI_Type_contiguous(2, MPI_BYTE, &type), "MPI_Type_contiguous");
  check_mpi(MPI_Type_commit(&type), "MPI_Type_commit");
  return type;
}

void make_ops(const std::array<MPI_User_function*, 4>& functions, std::array<MPI_Op, 4>& ops) {
  for (std::size_t i = 0; i < ops.size(); ++i) {
    check_mpi(MPI_Op_create(functions[i], /*commute=*/1, &ops[i]), "MPI_Op_create");
  }
}

}  // namespace

MpiTypeTable::MpiTypeTable() {
  f16_ops_.fill(MPI_OP_NULL);
  bf16_ops_.fill(MPI_OP_NULL);
  try {
    f16_type_ = make_16bit_type();
    bf16_type_ = make_16bit_type();
    make_ops(user_functions<dag::DType::f16>(), f16_ops_);
    make_ops(user_functions<dag::DType::bf16>(), bf16_ops_);
  } catch (...) {
    release();
    throw;
  }
  datatypes_ = {MPI_FLOAT,  MPI_DOUBLE,  f16_type_,   bf16_type_,
                MPI_INT8_T, MPI_UINT8_T, MPI_INT32_T, MPI_INT64_T};
  for (std::size_t i = 0; i < dtype_count; ++i) {
    int bytes = 0;
    check_mpi(MPI_Type_size(datatypes_[i], &bytes), "MPI_Type_size");
    assert(static_cast<std::uint64_t>(bytes) == dag::dtype_bytes(static_cast<dag::DType>(i)) &&
           "MPI and the IR agree on every element size");
    element_bytes_[i] = static_cast<std::size_t>(bytes);
  }
}

MpiTypeTable::~MpiTypeTable() { release(); }

void MpiTypeTable::release() noexcept {
  // Errors while freeing are ignored: the handles are dead either way and MPI_Finalize follows.
  for (MPI_Op& op : f16_ops_) {
    if (op != MPI_OP_NULL) MPI_Op_free(&op);
  }
  for (MPI_Op& op : bf16_ops_) {
    if (op != MPI_OP_NULL) MPI_Op_free(&op);
  }
  if (f16_type_ != MPI_DATATYPE_NULL) MPI_Type_free(&f16_type_);
  if (bf16_type_ != MPI_DATATYPE_NULL) MPI_Type_free(&bf16_type_);
}

std::size_t MpiTypeTable::dtype_index(dag::DType dtype) {
  const auto index = static_cast<std::size_t>(dtype);
  if (index >= dtype_count) {
    throw std::invalid_argument("unknown dtype " + std::to_string(index));
  }
  return index;
}

MPI_Datatype MpiTypeTable::datatype(dag::DType dtype) const {
  return datatypes_[dtype_index(dtype)];
}

std::size_t MpiTypeTable::element_bytes(dag::DType dtype) const {
  return element_bytes_[dtype_index(dtype)];
}

MPI_Op MpiTypeTable::op(dag::DType dtype, dag::Reduction reduction) const {
  dtype_index(dtype);  // rejects an unknown dtype
  if (reduction == dag::Reduction::none ||
      static_cast<std::size_t>(reduction) > reductions.size()) {
    throw std::invalid_argument("no MPI op for reduction '" +
                                std::string(dag::to_string(reduction)) + "'");
  }
  const std::size_t op_index = static_cast<std::size_t>(reduction) - 1;
  assert(reductions[op_index] == reduction);
  if (dtype == dag::DType::f16) return f16_ops_[op_index];
  if (dtype == dag::DType::bf16) return bf16_ops_[op_index];
  const std::array<MPI_Op, 4> predefined = {MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX};
  return predefined[op_index];
}

}  // namespace ordo::comm
