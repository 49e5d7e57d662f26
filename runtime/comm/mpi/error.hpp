// MPI reports failure through return codes once MPI_ERRORS_RETURN is set (the runtime sets it on
// every communicator); this turns each code into an exception that names the MPI function and
// carries MPI's own description, so no failure is silently dropped.
#pragma once

#include <stdexcept>
#include <string>

namespace ordo::comm {

class MpiError : public std::runtime_error {
 public:
  // `context` says what ordo was doing (e.g. the collective and communicator); may be empty.
  MpiError(std::string function, int code, const std::string& context = {});

  const std::string& function() const { return function_; }
  int code() const { return code_; }
  // The MPI error class of code(), e.g. MPI_ERR_COUNT; comparable with the MPI_ERR_* constants.
  int error_class() const { return error_class_; }

 private:
  std::string function_;
  int code_;
  int error_class_;
};

// Throws MpiError unless `code` is MPI_SUCCESS.
void check_mpi(int code, const char* function);

// MPI_Error_string of `code`, or a fallback naming the number if MPI cannot describe it.
std::string mpi_error_text(int code);

}  // namespace ordo::comm
