// An NCCL collective in flight: the event recorded on the launch stream right after it. The
// event is created with blocking synchronisation, so wait() sleeps in the driver instead of
// spinning a core the rank's engine needs.
#pragma once

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <string>

#include "runtime/comm/communicator.hpp"

namespace ordo::comm {

// Owned by one thread at a time. Once ended, test() keeps returning true and wait() returns at
// once. Destroying a request in flight waits for it: the buffer is NCCL's until then.
class NcclRequest final : public Request {
 public:
  // Takes ownership of `event`, already recorded after the collective. `comm` is asked for
  // NCCL's asynchronous errors while the collective is not done; `context` names the call.
  NcclRequest(cudaEvent_t event, ncclComm_t comm, std::string context);
  ~NcclRequest() override;
  NcclRequest(const NcclRequest&) = delete;
  NcclRequest& operator=(const NcclRequest&) = delete;

  // Polls the event (cudaEventQuery); while it is pending, a failure NCCL noticed on the
  // communicator (a peer gone, a network error) is thrown as NcclError rather than waited for.
  bool test() override;
  // cudaEventSynchronize on the blocking-sync event.
  void wait() override;

 private:
  cudaEvent_t event_;
  ncclComm_t comm_;
  std::string context_;
  bool over_ = false;
};

}  // namespace ordo::comm
