// The side channel fingerprint mode compares calls on (docs/diagnostics.md, "Fingerprint mode"):
// one per communicator, carrying only fixed-size records. It must be matched by issue order
// exactly as its communicator is, so it is a communicator of its own (a shadow), and each
// exchange is issued by the thread that issues the collective it checks, just before it: then
// every rank's k-th exchange on the channel describes its k-th collective on the communicator.
#pragma once

#include <cstddef>

#include "runtime/comm/communicator.hpp"

namespace ordo::comm {

class CheckChannel {
 public:
  virtual ~CheckChannel() = default;
  CheckChannel() = default;
  CheckChannel(const CheckChannel&) = delete;
  CheckChannel& operator=(const CheckChannel&) = delete;

  virtual std::uint32_t size() const = 0;
  // Every member's `bytes` bytes, in communicator-rank order, into `all` (size() * bytes).
  // Blocks until every member has made its exchange. gather and gather_then are one exchange,
  // matched with each other: they differ only in how this rank waits.
  virtual void gather(const std::byte* mine, std::byte* all, std::size_t bytes) = 0;
  // Starts the same exchange and returns; `done` runs once when it ends. Both buffers stay the
  // caller's until then.
  virtual void gather_then(const std::byte* mine, std::byte* all, std::size_t bytes,
                           Communicator::Done done) = 0;
  // After a divergence every member reports it and the job ends: waits at most `seconds` for the
  // other members to get here, so that one rank's end does not cut another's report short.
  virtual void settle(double seconds) = 0;
};

}  // namespace ordo::comm
