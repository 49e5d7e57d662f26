#include "runtime/comm/mpi/error.hpp"

#include <mpi.h>

#include <array>
#include <cassert>
#include <utility>

namespace ordo::comm {
namespace {

int error_class_of(int code) {
  int error_class = MPI_ERR_UNKNOWN;
  if (MPI_Error_class(code, &error_class) != MPI_SUCCESS) return MPI_ERR_UNKNOWN;
  return error_class;
}

std::string message(const std::string& function, int code, const std::string& context) {
  std::string text = context.empty() ? std::string() : context + ": ";
  return text + function + " failed: " + mpi_error_text(code);
}

}  // namespace

MpiError::MpiError(std::string function, int code, const std::string& context)
    : std::runtime_error(message(function, code, context)),
      function_(std::move(function)),
      code_(code),
      error_class_(error_class_of(code)) {
  assert(code != MPI_SUCCESS && "an MpiError needs a failure code");
}

void check_mpi(int code, const char* function) {
  assert(function != nullptr);
  if (code != MPI_SUCCESS) throw MpiError(function, code);
}

std::string mpi_error_text(int code) {
  std::array<char, MPI_MAX_ERROR_STRING> text{};
  int length = 0;
  if (MPI_Error_string(code, text.data(), &length) != MPI_SUCCESS || length <= 0) {
    return "MPI error code " + std::to_string(code);
  }
  assert(length <= MPI_MAX_ERROR_STRING);
  return std::string(text.data(), static_cast<std::size_t>(length));
}

}  // namespace ordo::comm
