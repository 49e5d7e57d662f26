// Who is issuing collectives on this thread, for reports: the executor names the main thread or
// the engine op around each call. A thread-local because the Communicator interface is MPI's
// and has no room for it.
#pragma once

#include <string>

namespace ordo::comm::sim {

class IssuerScope {
 public:
  explicit IssuerScope(std::string issuer);
  ~IssuerScope();
  IssuerScope(const IssuerScope&) = delete;
  IssuerScope& operator=(const IssuerScope&) = delete;

 private:
  std::string previous_;
};

// The innermost scope's name on this thread, or "unnamed".
const std::string& current_issuer();

}  // namespace ordo::comm::sim
