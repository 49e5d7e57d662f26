// The MPI datatype and reduction op for each IR dtype. Six dtypes map to predefined MPI types;
// f16 and bf16 have none in Open MPI 4.1, so they travel as a committed 2-byte contiguous type and
// reduce through user-defined, commutative ops that widen to float (see runtime/comm/reduce.hpp).
#pragma once

#include <mpi.h>

#include <array>
#include <cstddef>

#include "runtime/dag/program.hpp"

namespace ordo::comm {

// Created by MpiRuntime right after MPI_Init_thread and destroyed right before MPI_Finalize; the
// handles are read-only in between, so any thread may use the table.
class MpiTypeTable {
 public:
  MpiTypeTable();
  ~MpiTypeTable();
  MpiTypeTable(const MpiTypeTable&) = delete;
  MpiTypeTable& operator=(const MpiTypeTable&) = delete;

  MPI_Datatype datatype(dag::DType dtype) const;
  // Bytes per element, as MPI_Type_size reports for datatype(dtype).
  std::size_t element_bytes(dag::DType dtype) const;
  // Throws std::invalid_argument for Reduction::none or an unknown dtype or reduction.
  MPI_Op op(dag::DType dtype, dag::Reduction reduction) const;

 private:
  static constexpr std::size_t dtype_count = 8;
  static constexpr std::size_t reduction_count = 4;  // sum, prod, min, max
  static std::size_t dtype_index(dag::DType dtype);
  void release() noexcept;

  std::array<MPI_Datatype, dtype_count> datatypes_{};
  std::array<std::size_t, dtype_count> element_bytes_{};
  // User ops for the two 16-bit float types; the other dtypes use MPI_SUM and friends.
  std::array<MPI_Op, reduction_count> f16_ops_{};
  std::array<MPI_Op, reduction_count> bf16_ops_{};
  MPI_Datatype f16_type_ = MPI_DATATYPE_NULL;
  MPI_Datatype bf16_type_ = MPI_DATATYPE_NULL;
};

}  // namespace ordo::comm
