#include "runtime/diag/unmatched_messages.hpp"

#include <utility>

namespace ordo::diag {
namespace {

// Counts from several dumps are added saturating: a hostile dump must not wrap a sum to 0.
std::uint64_t add(std::uint64_t a, std::uint64_t b) {
  return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

std::uint64_t stream_count(const DumpComm& c, dag::CollectiveKind kind, dag::Rank peer,
                           std::uint32_t tag) {
  return diag::stream_count(c.messages, kind, peer, tag);
}

class Matcher {
 public:
  Matcher(dag::CommId id, const std::string& name,
          const std::optional<std::vector<dag::Rank>>& members,
          const std::map<dag::Rank, const DumpComm*>& dumps)
      : id_(id), name_(name), members_(members), dumps_(dumps) {
    // Once per communicator, so that no number of open recvs from any source costs a pass over
    // the members each: the members' sends by (receiver, tag), and whether every member's are
    // known.
    const std::size_t size =
        members_ ? members_->size() : (dumps_.empty() ? 0 : dumps_.begin()->second->size);
    for (dag::Rank q = 0; q < size && every_member_known_; ++q) {
      const auto other = dumps_.find(world_of(q));
      every_member_known_ = other != dumps_.end() && other->second->messages_known;
    }
    for (const auto& [rank, c] : dumps_) {
      for (const DumpStream& s : c->messages.streams) {
        if (s.kind != dag::CollectiveKind::send) continue;
        std::uint64_t& n = sends_to_[{s.peer, s.tag}];
        n = add(n, s.issued);
      }
    }
  }

  std::vector<Unmatched> run() {
    for (const auto& [rank, c] : dumps_) {
      for (const DumpCall& m : c->messages.calls) {
        if (m.open()) judge(rank, *c, m);
      }
    }
    return std::move(out_);
  }

 private:
  dag::Rank world_of(dag::Rank comm_rank) const {
    return members_ ? (*members_)[comm_rank] : comm_rank;
  }

  void judge(dag::Rank rank, const DumpComm& c, const DumpCall& m) {
    const std::uint32_t tag = m.call.tag;
    const dag::Rank peer = m.call.peer.value_or(0);
    const bool recv = m.call.kind == dag::CollectiveKind::recv;
    if (recv && peer == dag::any_source) {
      judge_any_source(rank, c, m);
      return;
    }
    Unmatched u{id_, name_, {rank, m}, world_of(peer)};
    const auto other = dumps_.find(*u.peer);
    if (other == dumps_.end() || !other->second->messages_known) {
      u.peer_missing = true;
      out_.push_back(std::move(u));
      return;
    }
    // The nth message of a stream needs n + 1 messages on the other side that can match it. For
    // a recv those are the peer's sends to it with the tag; for a send, the peer's recvs from it
    // and its recvs from any source with the tag, which may take the send or another's.
    const DumpComm& peer_side = *other->second;
    u.peer_issued =
        recv ? stream_count(peer_side, dag::CollectiveKind::send, c.rank, tag)
             : add(stream_count(peer_side, dag::CollectiveKind::recv, c.rank, tag),
                   stream_count(peer_side, dag::CollectiveKind::recv, dag::any_source, tag));
    u.own_issued = m.nth + 1;
    if (u.peer_issued <= m.nth) out_.push_back(std::move(u));
  }

  // The recvs from any source with one tag take the messages to the rank with that tag in the
  // order they were posted (MPI-3.1 §3.5), and recvs from one peer may take some of them first,
  // so the nth of them needs n + 1 such messages: with fewer sent, it is never matched. Fewer
  // messages than recvs in all proves only that some recv of the rank starves, not which.
  void judge_any_source(dag::Rank rank, const DumpComm& c, const DumpCall& m) {
    if (!every_member_known_) return;  // a member's sends are not known
    const auto it = sends_to_.find({c.rank, m.call.tag});
    const std::uint64_t sent = it == sends_to_.end() ? 0 : it->second;
    if (sent <= m.nth)
      out_.push_back({id_, name_, {rank, m}, std::nullopt, false, sent, m.nth + 1});
  }

  dag::CommId id_;
  const std::string& name_;
  const std::optional<std::vector<dag::Rank>>& members_;
  const std::map<dag::Rank, const DumpComm*>& dumps_;
  bool every_member_known_ = true;
  std::map<std::pair<dag::Rank, std::uint32_t>, std::uint64_t> sends_to_;
  std::vector<Unmatched> out_;
};

}  // namespace

std::vector<Unmatched> unmatched_messages(dag::CommId id, const std::string& name,
                                          const std::optional<std::vector<dag::Rank>>& members,
                                          const std::map<dag::Rank, const DumpComm*>& dumps) {
  return Matcher(id, name, members, dumps).run();
}

}  // namespace ordo::diag
