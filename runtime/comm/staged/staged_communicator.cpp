#include "runtime/comm/staged/staged_communicator.hpp"

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "runtime/comm/rules/call.hpp"
#include "runtime/comm/staged/pipeline.hpp"

namespace ordo::comm {

StagedCommunicator::StagedCommunicator(Communicator& host, std::unique_ptr<Stager> stager,
                                       StagedOptions options)
    : WrappedCommunicator(host),
      stager_(std::move(stager)),
      chunk_bytes_(options.chunk_bytes),
      worker_(host.name(), [this](const Call& call, void* buffer, bool blocking) {
        run_staged(inner_, *stager_, call, buffer, chunk_bytes_, blocking);
      }) {
  if (stager_ == nullptr) {
    throw std::invalid_argument("staged communicator '" + host.name() + "' has no stager");
  }
  if (chunk_bytes_ == 0) {
    throw std::invalid_argument("staged communicator '" + host.name() +
                                "': a chunk of 0 bytes; expected at least one element's bytes");
  }
}

void StagedCommunicator::check(const Call& call, const void* buffer) const {
  check_call(call, buffer, name(), size());
  const auto elements_max = static_cast<std::uint64_t>(std::numeric_limits<std::ptrdiff_t>::max()) /
                            dag::dtype_bytes(call.dtype);
  if (call.count > elements_max) {
    throw std::invalid_argument(describe(call, name()) + ": no buffer can hold " +
                                std::to_string(call.count) + " elements");
  }
}

void StagedCommunicator::call(const Call& call, void* buffer) {
  check(call, buffer);
  worker_.call(call, buffer);
}

std::unique_ptr<Request> StagedCommunicator::start(const Call& call, void* buffer) {
  check(call, buffer);
  return worker_.start(call, buffer);
}

void StagedCommunicator::call_then(const Call& call, void* buffer, Done done) {
  try {
    check(call, buffer);
  } catch (...) {
    done(std::current_exception());
    return;
  }
  worker_.then(call, buffer, true, std::move(done));
}

void StagedCommunicator::start_then(const Call& call, void* buffer, Done done) {
  try {
    check(call, buffer);
  } catch (...) {
    done(std::current_exception());
    return;
  }
  worker_.then(call, buffer, false, std::move(done));
}

}  // namespace ordo::comm
