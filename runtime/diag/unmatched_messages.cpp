#include "runtime/diag/unmatched_messages.hpp"

#include <algorithm>

namespace ordo::diag {
namespace {

std::uint64_t stream_count(const DumpComm& c, dag::CollectiveKind kind, dag::Rank peer,
                           std::uint32_t tag) {
  const auto it = std::find_if(
      c.messages.streams.begin(), c.messages.streams.end(),
      [&](const DumpStream& s) { return s.kind == kind && s.peer == peer && s.tag == tag; });
  return it == c.messages.streams.end() ? 0 : it->issued;
}

// Every recv the rank posted with the tag, from any peer or from any source.
std::uint64_t recvs_with_tag(const DumpComm& c, std::uint32_t tag) {
  std::uint64_t n = 0;
  for (const DumpStream& s : c.messages.streams) {
    if (s.kind == dag::CollectiveKind::recv && s.tag == tag) n += s.issued;
  }
  return n;
}

class Matcher {
 public:
  Matcher(dag::CommId id, const std::string& name,
          const std::optional<std::vector<dag::Rank>>& members,
          const std::map<dag::Rank, const DumpComm*>& dumps)
      : id_(id), name_(name), members_(members), dumps_(dumps) {}

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
    if (other == dumps_.end()) {
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
             : stream_count(peer_side, dag::CollectiveKind::recv, c.rank, tag) +
                   stream_count(peer_side, dag::CollectiveKind::recv, dag::any_source, tag);
    u.own_issued = m.nth + 1;
    if (u.peer_issued <= m.nth) out_.push_back(std::move(u));
  }

  void judge_any_source(dag::Rank rank, const DumpComm& c, const DumpCall& m) {
    const std::size_t size = members_ ? members_->size() : c.size;
    std::uint64_t sent = 0;
    for (dag::Rank q = 0; q < size; ++q) {
      const auto other = dumps_.find(world_of(q));
      if (other == dumps_.end()) return;  // a member's sends are not known
      sent += stream_count(*other->second, dag::CollectiveKind::send, c.rank, m.call.tag);
    }
    const std::uint64_t posted = recvs_with_tag(c, m.call.tag);
    if (sent < posted) out_.push_back({id_, name_, {rank, m}, std::nullopt, false, sent, posted});
  }

  dag::CommId id_;
  const std::string& name_;
  const std::optional<std::vector<dag::Rank>>& members_;
  const std::map<dag::Rank, const DumpComm*>& dumps_;
  std::vector<Unmatched> out_;
};

}  // namespace

std::vector<Unmatched> unmatched_messages(dag::CommId id, const std::string& name,
                                          const std::optional<std::vector<dag::Rank>>& members,
                                          const std::map<dag::Rank, const DumpComm*>& dumps) {
  return Matcher(id, name, members, dumps).run();
}

}  // namespace ordo::diag
