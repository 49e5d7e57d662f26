// N ranks in one process with MPI's matching rule, exactly (docs/semantics.md, C1-C3): the n-th
// collective a rank issues on a communicator matches the n-th of every other member. Data moves
// only when every member has issued a call that agrees with the others; a disagreement, a broken
// thread rule or a deadlock is reported and aborts the world, so every pending and later call fails
// with ViolationError instead of corrupting data or hanging.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "runtime/comm/communicator.hpp"
#include "runtime/comm/rules/backend.hpp"
#include "runtime/comm/rules/deadlock.hpp"
#include "runtime/comm/rules/device_streams.hpp"
#include "runtime/comm/rules/match_state.hpp"

namespace ordo::comm::sim {

// What one rank is doing, as its executor sees it, for deadlock detection. A rank is quiescent
// when nothing it runs can make progress on its own: no op function executing, no ready op with
// a free thread, and its main thread finished or blocked.
// When a call whose needs are met (docs/semantics.md, C4) returns: at its match (the synchronising
// reading, every call waiting for every member), at once (`early`: each such call, or with a seed
// each with probability one half, drawn from the seed and the call's position in the world), or
// when the driver says so (`held`: a controlled run takes the early return as a transition).
enum class Returns : std::uint8_t { at_match, early, held };
struct ReturnPolicy {
  Returns when = Returns::at_match;
  std::uint64_t seed = 0;  // early: 0 returns every call that may; another value draws
};
std::string describe(const ReturnPolicy& policy);  // "at the match", "early (seed 7)", ...

// A call that may return before its match and waits for its driver (Returns::held).
struct HeldReturn {
  dag::CommId comm = 0;
  std::string issuer;  // "main" or the op's name
};

// A recv from any source that may take the waiting message of world rank `source` (M4). Under
// Returns::held the driver takes it (a `match` transition); otherwise the world takes the first
// at once, or one drawn from the seed.
struct MessageChoice {
  dag::CommId comm = 0;
  std::string issuer;  // "main" or the op's name
  dag::Rank source = 0;
  friend bool operator==(const MessageChoice&, const MessageChoice&) = default;
};

struct RankActivity {
  bool quiescent = false;
  bool finished = false;
  MainWait main;  // what its main thread does, for the report: e.g. "main: wait to read 'buf.w3'"
};
using ActivityProbe = std::function<RankActivity()>;

class SimWorld {
 public:
  // Throws std::invalid_argument for a member list out of range, repeated or empty, or a world
  // of zero ranks. Under a stream-ordered backend (NCCL) every call is a launch onto its rank's
  // stream and its `done` runs when the stream completes it (docs/semantics.md, D1-D3).
  SimWorld(std::uint32_t ranks, std::vector<dag::Communicator> comms,
           Backend backend = Backend::mpi, ReturnPolicy returns = {});
  ~SimWorld();
  SimWorld(const SimWorld&) = delete;
  SimWorld& operator=(const SimWorld&) = delete;

  World& rank(dag::Rank rank);
  std::uint32_t size() const { return ranks_; }
  Backend backend() const { return backend_; }
  const ReturnPolicy& returns() const { return returns_; }

  // Returns::held: the rank's calls that may return now, before their match; and the return of
  // one of them (throws std::logic_error when the issuer holds none).
  std::vector<HeldReturn> held_returns(dag::Rank rank) const;
  void return_now(dag::Rank rank, const std::string& issuer);
  // Returns::held: the messages the rank's recvs from any source may take now, and taking one
  // (throws std::logic_error when it is not open).
  std::vector<MessageChoice> message_choices(dag::Rank rank) const;
  void take_message(dag::Rank rank, const std::string& issuer, dag::Rank source);

  // Whether some call has been issued and not matched.
  bool has_unmatched_calls() const;
  // The first violation seen, if any; the world is aborted from then on.
  std::optional<Violation> violation() const;
  bool aborted() const;

  // Deadlock detection for threaded runs: each rank's executor registers a probe; the watchdog
  // checks every `period` whether all ranks are quiescent with nothing left to deliver. The
  // probes are called with the world's lock held: they may take their own locks but must never
  // call into the world.
  void set_probe(dag::Rank rank, ActivityProbe probe);
  void start_watchdog(std::chrono::milliseconds period);
  // One check now; aborts the world with the deadlock when it finds one.
  std::optional<Deadlock> check_deadlock();
  // A stuck state's description (comm::describe_deadlock), from every rank's own account (`ranks`,
  // in rank order) and the calls and streams the world holds: what a driver that knows its ranks
  // are stuck (the controlled run) reports.
  Deadlock describe_deadlock(std::vector<RankAccount> ranks);

  // The backend entry point of SimCommunicator: issue `call` on comm `comm` as world rank
  // `rank`; `done` runs once, outside the world's lock, when it completes or fails.
  void post(dag::Rank rank, dag::CommId comm, const Call& call, void* buffer, bool blocking,
            Communicator::Done done);

 private:
  struct Delivery;
  struct CommState;
  class RankView;
  using Deliveries = std::vector<std::pair<Communicator::Done, std::exception_ptr>>;

  static std::unique_ptr<CommState> make_comm(dag::CommId id, const dag::Communicator& desc,
                                              std::uint32_t ranks);
  void abort_locked(const Violation& violation, Deliveries& out);
  // A collective's issue (C1-C5): matched, pending or a violation.
  void issue_locked(CommState& comm, std::size_t member, Delivery delivery, std::uint64_t tag,
                    Deliveries& out);
  void complete_locked(CommState& comm, const Matched& matched, Deliveries& out);
  // A call whose needs the issue met returns now, or is held, as the policy says (returns.cpp).
  void offer_returns_locked(CommState& comm, const Pending& pending, Deliveries& out);
  void return_locked(CommState& comm, std::size_t member, std::uint64_t tag, Deliveries& out);
  // Sends and recvs (messages.cpp): the post, what it or a choice did (data moves at each
  // match), and the choices the world takes itself when no driver holds them.
  void post_message_locked(CommState& comm, std::size_t member, Delivery delivery,
                           std::uint64_t tag, Deliveries& out);
  void apply_messages_locked(CommState& comm, const PeerEvents& events, Deliveries& out);
  void take_choices_locked(CommState& comm, std::size_t receiver, Deliveries& out);
  // Stream-ordered backends: the call joins its rank's stream; a match's `done`s wait there
  // until the streams let the call through (stream_order.cpp).
  void launch_locked(dag::Rank rank, dag::CommId comm, std::uint64_t seq, std::uint64_t tag);
  void settle_locked(CommState& comm, const Matched& matched, Deliveries& out);
  class Streams;
  void deliver(Deliveries& deliveries);
  std::optional<Deadlock> deadlock_locked();
  Deadlock describe_locked(std::vector<RankAccount> ranks);
  void watchdog_loop(std::chrono::milliseconds period);

  const std::uint32_t ranks_;
  const Backend backend_;
  const ReturnPolicy returns_;
  struct Held {
    dag::Rank rank;
    std::string issuer;
    dag::CommId comm;
    std::size_t member;
    std::uint64_t tag;
  };
  std::vector<Held> held_returns_;  // Returns::held: in the order their needs were met
  mutable std::mutex mutex_;
  std::vector<DeviceStream> streams_;  // per rank; empty unless stream-ordered
  std::map<std::uint64_t, Communicator::Done> held_;  // matched, by tag, until their stream lets go
  std::map<std::uint64_t, std::string> launched_by_;  // stream-ordered: who launched each tag
  std::vector<std::unique_ptr<CommState>> comms_;
  std::vector<std::unique_ptr<RankView>> views_;
  std::optional<Violation> violation_;
  std::uint64_t next_tag_ = 0;
  std::uint64_t deliveries_pending_ = 0;  // matched calls whose `done` has not returned yet
  std::vector<ActivityProbe> probes_;
  std::condition_variable watchdog_wake_;
  bool watchdog_stop_ = false;
  std::thread watchdog_;
};

}  // namespace ordo::comm::sim
