// Fingerprint mode (docs/diagnostics.md): a World whose communicators compare every collective
// across the communicator's members before it is issued, so that a divergence in issue order is
// an error naming each rank's call on every rank, instead of corrupted data or a hang.
//
// Each call's fingerprint (comm/rules/fingerprint.hpp) is exchanged on the communicator's check
// channel by the thread that issues the call, just before it, so every rank's k-th exchange
// describes its k-th call. A blocking call waits for the exchange and is issued only if every
// member's call matches: the real call is never issued out of order. (Waiting there adds no wait
// the call itself lacks: a blocking collective may not return before every member has issued it,
// and each member issues its exchange just before its call.) A non-blocking call must not block
// its thread, so its exchange is non-blocking too: the call is issued at once, and ends only when
// both it and its exchange have ended, failed with the divergence if the exchange shows one.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/comm/check_channel.hpp"
#include "runtime/comm/communicator.hpp"
#include "runtime/comm/rules/backend.hpp"
#include "runtime/comm/rules/fingerprint.hpp"
#include "runtime/comm/wrapped_world.hpp"
#include "runtime/errors/exit_codes.hpp"

namespace ordo::flight {

// The members' calls at one position of a communicator disagree. Every member throws it for the
// same position with the same message.
class CollectiveMismatch : public std::runtime_error {
 public:
  CollectiveMismatch(std::string comm_name, std::uint64_t seq,
                     std::vector<comm::FingerprintGroup> groups);
  const std::string& comm_name() const { return comm_name_; }
  // The position on the communicator: how many calls each member issued on it before.
  std::uint64_t seq() const { return seq_; }
  const std::vector<comm::FingerprintGroup>& groups() const { return groups_; }

 private:
  std::string comm_name_;
  std::uint64_t seq_;
  std::vector<comm::FingerprintGroup> groups_;
};

// The exit code of a job that fingerprint mode ended (runtime/errors/exit_codes.hpp).
inline constexpr int exit_collective_mismatch = exit_codes::collective_mismatch;

// How long a rank that found a divergence waits for the other members to find it too, before it
// throws (and the job ends): so that every rank's report gets out.
inline constexpr double mismatch_settle_s = 2.0;

// Hears of a divergence on the rank that found it, before any member can end the job: the rank's
// report. The default writes "ordo: rank R of N: <the mismatch>" to standard error.
using MismatchReport = std::function<void(const CollectiveMismatch&)>;

class CheckedCommunicator final : public comm::WrappedCommunicator {
 public:
  // `backend` is what carries `inner`'s calls: under NCCL a call is a launch whichever form it
  // has, so the form is not compared (comm::call_blocks). `shown_name` names the communicator
  // in a mismatch; empty: its own name.
  CheckedCommunicator(comm::Communicator& inner, comm::CheckChannel& channel, MismatchReport report,
                      comm::Backend backend = comm::Backend::mpi, std::string shown_name = {});

  void call(const comm::Call& call, void* buffer) override;
  std::unique_ptr<comm::Request> start(const comm::Call& call, void* buffer) override;
  void call_then(const comm::Call& call, void* buffer, Done done) override;
  void start_then(const comm::Call& call, void* buffer, Done done) override;

  // Calls checked so far (their exchanges issued).
  std::uint64_t checked() const { return next_seq_.load(std::memory_order_relaxed); }

 private:
  struct Exchange;
  // Throws CollectiveMismatch for a divergent position: first reported, then settled, once.
  void judge(const Exchange& exchange);
  void check_blocking(const comm::Call& call);
  std::shared_ptr<Exchange> exchange_for(const comm::Call& call, bool blocks);

  comm::CheckChannel& channel_;
  MismatchReport report_;
  comm::Backend backend_;
  std::string name_;
  std::atomic<std::uint64_t> next_seq_{0};
  std::atomic<bool> settled_{false};
};

// Wraps `inner`, which must outlive it, with one channel per communicator of `channels` (null
// where this rank is not a member), by communicator id. `backend` carries `inner`'s calls;
// `name_prefix` goes before each communicator's name in a mismatch ("host." for a trainer's MPI
// world beside its device world, as the flight recorder names them).
class CheckedWorld final : public comm::WrappedWorld {
 public:
  CheckedWorld(comm::World& inner, const std::vector<comm::CheckChannel*>& channels,
               MismatchReport report = {}, comm::Backend backend = comm::Backend::mpi,
               const std::string& name_prefix = {});
};

}  // namespace ordo::flight
