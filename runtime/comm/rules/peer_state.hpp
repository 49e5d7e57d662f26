// One communicator's point-to-point matching state (docs/semantics.md, §3b, M1-M5) as a
// thread-free, copyable value, held inside the communicator's MatchState so that the simulated
// world and the checker keep it where they keep the collectives'. MPI matches a message by its
// envelope (source, destination, tag, communicator), not by the communicator's call order:
// per (source, destination, tag) the k-th send meets the k-th receive that enters that channel
// (MPI-3.1 §3.5, non-overtaking). A receive from any source enters a channel only when it is
// chosen to take one source's waiting message (`choose`): that is the choice MPI leaves open, and
// until it is made the later receives it could compete with wait behind it (§3.5: "the second
// receive operation cannot be satisfied by this message, if the first one is still pending").
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string_view>
#include <tuple>
#include <variant>
#include <vector>

#include "runtime/comm/rules/violation.hpp"

namespace ordo::comm {

// A send or receive issued and not yet matched. `member` is the issuer's rank in the
// communicator; `tag` the holder's name for the issuing party, as in MatchState (never the
// message tag, which is the call's).
struct PeerPosted {
  IssuedCall call;
  std::size_t member = 0;
  std::uint64_t tag = 0;
  // A send its issuer returned from before the match (M5: standard mode may buffer): it holds
  // nothing, and the match tells it nothing.
  bool returned = false;
  friend bool operator==(const PeerPosted&, const PeerPosted&) = default;
};

// A send and a receive that met. `seq` is the message's place on its channel (0 for the first
// message from that source to that destination with that tag).
struct PeerMatch {
  std::size_t sender = 0;
  std::uint64_t send_tag = 0;
  bool send_returned = false;
  std::size_t receiver = 0;
  std::uint64_t recv_tag = 0;
  std::uint64_t seq = 0;
};

// What one post or choice did: the messages that met (in the order they met), and the sends that
// may now return before their match (their own post's, under a backend that allows it).
struct PeerEvents {
  std::vector<PeerMatch> matches;
  std::vector<std::size_t> may_return_members;  // with may_return_tags, pairwise
  std::vector<std::uint64_t> may_return_tags;
};
using PeerResult = std::variant<PeerEvents, Violation>;

// A receive from any source at `receiver` (its party `tag`) may take the message waiting from
// `source`.
struct PeerChoice {
  std::size_t receiver = 0;
  std::uint64_t tag = 0;
  std::size_t source = 0;
  friend bool operator==(const PeerChoice&, const PeerChoice&) = default;
};

// One (source, destination, message tag) of the communicator: the unmatched sends or the
// unmatched receives that entered it, in order (never both: the first of each would have met),
// and how many messages it has delivered.
struct PeerChannel {
  std::deque<PeerPosted> sends;
  std::deque<PeerPosted> recvs;
  std::uint64_t delivered = 0;
  friend bool operator==(const PeerChannel&, const PeerChannel&) = default;
};

class PeerState {
 public:
  using ChannelKey = std::tuple<std::size_t, std::size_t, std::uint32_t>;  // source, dest, tag

  PeerState() = default;
  explicit PeerState(std::size_t members) : members_(members) {}

  // Member `member` posts a send or a receive (call.call.kind is send or recv, well formed).
  // A send meets the first receive waiting in its channel; a receive from a source enters its
  // channel and meets the first send waiting there, unless a receive from any source posted
  // before it with the same message tag is still held, behind which it waits. A message whose
  // send and receive disagree (message_agrees) is a Mismatch at its channel position; the
  // state is then left as it was.
  PeerResult post(std::size_t member, IssuedCall call, std::uint64_t tag, dag::CommId comm,
                  std::string_view comm_name);
  // The choices open to the held receives from any source at `receiver`: per message tag the
  // first one held, with each source whose channel to it has a send waiting, in source order.
  std::vector<PeerChoice> choices(std::size_t receiver) const;
  // Takes a choice of choices(receiver): the receive meets that source's first waiting send, and
  // the receives held behind it enter their channels (meeting their sends) up to the next
  // receive from any source. Throws std::logic_error if it is not a choice open now.
  PeerResult choose(const PeerChoice& choice, dag::CommId comm, std::string_view comm_name);

  // The unmatched send of party `tag` at `member` that its issuer has not returned from, if any.
  bool may_return(std::size_t member, std::uint64_t tag) const;
  void mark_returned(std::size_t member, std::uint64_t tag);
  // Whether party `tag` of `member` has an unmatched call it has not returned from.
  bool in_flight(std::size_t member, std::uint64_t tag) const;

  // Every unmatched call, returned sends included: none means every message met its receive.
  bool empty() const;
  const std::map<ChannelKey, PeerChannel>& channels() const { return channels_; }
  // Per member that has some, its receives not in a channel yet, in post order (each first per
  // message tag is from any source). A member holds an entry only while it holds a receive, so
  // equal states are equal values and a communicator without messages costs nothing to copy.
  const std::map<std::size_t, std::deque<PeerPosted>>& held() const { return held_; }
  void clear();

  friend bool operator==(const PeerState&, const PeerState&) = default;

 private:
  // The party's unmatched call it has not returned from (a main thread is in one at most, and
  // an op makes one call).
  const PeerPosted* find(std::size_t member, std::uint64_t tag) const;
  PeerPosted* find(std::size_t member, std::uint64_t tag);
  // A receive enters its channel: meets the first send waiting there, or waits.
  std::optional<Violation> enter(PeerPosted recv, PeerEvents& events, dag::CommId comm,
                                 std::string_view comm_name);
  std::optional<Violation> release_held(std::size_t receiver, PeerEvents& events, dag::CommId comm,
                                        std::string_view comm_name);

  std::size_t members_ = 0;
  std::map<ChannelKey, PeerChannel> channels_;
  std::map<std::size_t, std::deque<PeerPosted>> held_;
};

}  // namespace ordo::comm
