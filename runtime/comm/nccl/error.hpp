// NCCL reports failure through return codes; this turns each into an exception that names the
// NCCL call, NCCL's words for the code and, where NCCL kept one, its last error message.
#pragma once

#include <nccl.h>

#include <stdexcept>
#include <string>

namespace ordo::comm {

class NcclError : public std::runtime_error {
 public:
  // `context` says what ordo was doing (the collective and communicator); may be empty. `comm`,
  // when known, is asked for NCCL's last error message.
  NcclError(std::string function, ncclResult_t result, const std::string& context = {},
            ncclComm_t comm = nullptr);

  const std::string& function() const { return function_; }
  ncclResult_t result() const { return result_; }

 private:
  std::string function_;
  ncclResult_t result_;
};

// Throws NcclError unless `result` is ncclSuccess.
void check_nccl(ncclResult_t result, const char* function, const std::string& context = {},
                ncclComm_t comm = nullptr);

}  // namespace ordo::comm
