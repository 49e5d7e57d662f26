#include "runtime/cuda/stream.hpp"

#include "runtime/cuda/cuda_error.hpp"

namespace ordo::cuda {

Stream::Stream() {
  check_cuda(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking),
             "cudaStreamCreateWithFlags");
}

Stream::Stream(LegacyDefault) : stream_(cudaStreamLegacy), owned_(false) {}

Stream::~Stream() {
  if (owned_) (void)cudaStreamDestroy(stream_);
}

void Stream::synchronize() { check_cuda(cudaStreamSynchronize(stream_), "cudaStreamSynchronize"); }

Event::Event(Wait wait) {
  const unsigned flags =
      cudaEventDisableTiming | (wait == Wait::sleep ? cudaEventBlockingSync : 0u);
  check_cuda(cudaEventCreateWithFlags(&event_, flags), "cudaEventCreateWithFlags");
}

Event::~Event() { (void)cudaEventDestroy(event_); }

void Event::record(Stream& stream) {
  check_cuda(cudaEventRecord(event_, stream.handle()), "cudaEventRecord");
}

bool Event::done() const {
  const cudaError_t e = cudaEventQuery(event_);
  if (e == cudaErrorNotReady) return false;
  check_cuda(e, "cudaEventQuery");
  return true;
}

void Event::wait() const { check_cuda(cudaEventSynchronize(event_), "cudaEventSynchronize"); }

}  // namespace ordo::cuda
