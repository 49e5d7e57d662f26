#include "runtime/comm/sim/issuer.hpp"

#include <utility>

namespace ordo::comm::sim {

namespace {
thread_local std::string issuer_now = "unnamed";
}

IssuerScope::IssuerScope(std::string issuer) : previous_(std::move(issuer_now)) {
  issuer_now = std::move(issuer);
}

IssuerScope::~IssuerScope() { issuer_now = std::move(previous_); }

const std::string& current_issuer() { return issuer_now; }

}  // namespace ordo::comm::sim
