#include "runtime/comm/nccl/error.hpp"

#include <utility>

namespace ordo::comm {
namespace {

std::string message(const std::string& function, ncclResult_t result, const std::string& context,
                    ncclComm_t comm) {
  std::string text = context.empty() ? std::string() : context + ": ";
  text += function + " failed: " + ncclGetErrorString(result);
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 13, 0)
  // NCCL keeps a detailed message of the last failure (per communicator, or the process's).
  const char* last = ncclGetLastError(comm);
  if (last != nullptr && last[0] != '\0') text += " (" + std::string(last) + ")";
#else
  (void)comm;
#endif
  return text;
}

}  // namespace

NcclError::NcclError(std::string function, ncclResult_t result, const std::string& context,
                     ncclComm_t comm)
    : std::runtime_error(message(function, result, context, comm)),
      function_(std::move(function)),
      result_(result) {}

void check_nccl(ncclResult_t result, const char* function, const std::string& context,
                ncclComm_t comm) {
  if (result != ncclSuccess) throw NcclError(function, result, context, comm);
}

}  // namespace ordo::comm
