#include "runtime/comm/sim/data_moves.hpp"

#include <cassert>
#include <cstring>
#include <vector>

#include "runtime/comm/reduce.hpp"

namespace ordo::comm::sim {

namespace {

using Bytes = std::vector<std::byte>;

// The members' data for one call. At the match a member's `sent` is often its `into` (every ordo
// call is in place), so each move below reads what a member sent before anything is written into
// that member; only an alltoall, which must read every buffer after writing into some, copies.
class Moves {
 public:
  Moves(const Call& call, std::span<const MemberData> members)
      : call_(call),
        members_(members),
        bytes_(call.count * dag::dtype_bytes(call.dtype)),
        block_(members.empty() ? 0 : bytes_ / members.size()) {}

  std::uint64_t bytes() const { return bytes_; }
  std::uint64_t block() const { return block_; }
  std::size_t size() const { return members_.size(); }
  const std::byte* sent(std::size_t m, std::uint64_t at) const {
    assert(members_[m].sent != nullptr && "only a member that issued has sent anything");
    return members_[m].sent + at;
  }
  Bytes copy(std::size_t m, std::uint64_t at, std::uint64_t length) const {
    return Bytes(sent(m, at), sent(m, at) + length);
  }

  // Writes into member m's buffer, if it receives now. memmove: `from` may be that buffer.
  void put(std::size_t m, std::uint64_t at, const std::byte* from, std::uint64_t length) const {
    if (members_[m].into != nullptr && length > 0)
      std::memmove(members_[m].into + at, from, length);
  }

  void reduce(Bytes& acc, const std::byte* from) const {
    reduce_into(acc.data(), from, acc.size() / dag::dtype_bytes(call_.dtype), call_.dtype,
                call_.reduction);
  }
  // The reduction of members first to last - 1, at [at, at + length), in rank order.
  Bytes reduced(std::size_t first, std::size_t last, std::uint64_t at, std::uint64_t length) const {
    assert(first < last);
    Bytes acc = copy(first, at, length);
    for (std::size_t m = first + 1; m < last; ++m) reduce(acc, sent(m, at));
    return acc;
  }

 private:
  const Call& call_;
  std::span<const MemberData> members_;
  std::uint64_t bytes_;
  std::uint64_t block_;
};

// What member m receives from the root alone (a bcast or scatter non-root), the one part of a
// rooted call that the match and an early return share.
void receive_from_root(const Call& call, const Moves& moves, std::size_t m) {
  const std::size_t root = *call.root;
  if (m == root) return;
  if (call.kind == dag::CollectiveKind::bcast) {
    moves.put(m, 0, moves.sent(root, 0), moves.bytes());
  } else {
    moves.put(m, m * moves.block(), moves.sent(root, m * moves.block()), moves.block());
  }
}

// A scan (`inclusive`) or exscan at the match, by one running reduction: member m's contribution
// is read (exscan: copied) before its buffer receives. Member 0 of an exscan receives nothing (MPI
// leaves its buffer undefined; here it stays as it was).
void prefixes(const Moves& moves, bool inclusive) {
  Bytes acc = moves.copy(0, 0, moves.bytes());
  for (std::size_t m = 1; m < moves.size(); ++m) {
    if (inclusive) {
      moves.reduce(acc, moves.sent(m, 0));
      moves.put(m, 0, acc.data(), moves.bytes());
    } else {
      const Bytes mine = moves.copy(m, 0, moves.bytes());
      moves.put(m, 0, acc.data(), moves.bytes());
      moves.reduce(acc, mine.data());
    }
  }
}

}  // namespace

void move_at_match(const Call& call, std::span<const MemberData> members) {
  const std::size_t n = members.size();
  if (n == 0 || call.count == 0 || call.kind == dag::CollectiveKind::barrier) return;
  const Moves moves(call, members);
  const std::uint64_t bytes = moves.bytes();
  const std::uint64_t block = moves.block();
  switch (call.kind) {
    case dag::CollectiveKind::allreduce: {
      const Bytes sum = moves.reduced(0, n, 0, bytes);
      for (std::size_t m = 0; m < n; ++m) moves.put(m, 0, sum.data(), bytes);
      break;
    }
    case dag::CollectiveKind::bcast:
    case dag::CollectiveKind::scatter:
      // The root's buffer is never written, so every non-root reads it as the root sent it.
      for (std::size_t m = 0; m < n; ++m) receive_from_root(call, moves, m);
      break;
    case dag::CollectiveKind::reduce: {
      // Only the root receives; every other member's buffer only sends and stays as it was.
      const Bytes sum = moves.reduced(0, n, 0, bytes);
      moves.put(*call.root, 0, sum.data(), bytes);
      break;
    }
    case dag::CollectiveKind::reduce_scatter:
      // Member m receives the reduction of every member's block m in its own block m; its other
      // blocks stay as they were (MPI leaves them unspecified: docs/comm.md). Block m is read
      // from every member before member m's is written, and no other block m is written.
      for (std::size_t m = 0; m < n; ++m) {
        const Bytes sum = moves.reduced(0, n, m * block, block);
        moves.put(m, m * block, sum.data(), block);
      }
      break;
    case dag::CollectiveKind::allgather:
    case dag::CollectiveKind::gather:
      // Member `from`'s own block goes to block `from` of every member (allgather) or of the root
      // (gather); a member's own block is never written, so it is read as sent.
      for (std::size_t to = 0; to < n; ++to) {
        if (call.kind == dag::CollectiveKind::gather && to != *call.root) continue;
        for (std::size_t from = 0; from < n; ++from) {
          if (from != to) moves.put(to, from * block, moves.sent(from, from * block), block);
        }
      }
      break;
    case dag::CollectiveKind::alltoall: {
      // Block i of member j goes to block j of member i, so every buffer is read after others
      // were written into: from copies of what each sent.
      std::vector<Bytes> sent;
      for (std::size_t m = 0; m < n; ++m) sent.push_back(moves.copy(m, 0, bytes));
      for (std::size_t to = 0; to < n; ++to) {
        for (std::size_t from = 0; from < n; ++from) {
          if (from != to) moves.put(to, from * block, sent[from].data() + to * block, block);
        }
      }
      break;
    }
    case dag::CollectiveKind::scan:
    case dag::CollectiveKind::exscan:
      prefixes(moves, call.kind == dag::CollectiveKind::scan);
      break;
    case dag::CollectiveKind::barrier:
    case dag::CollectiveKind::send:  // a message moves at its match (move_message), not here
    case dag::CollectiveKind::recv:
      break;
  }
}

void move_early(const Call& call, std::size_t member, std::span<const MemberData> members) {
  if (member >= members.size() || call.count == 0) return;
  const Moves moves(call, members);
  switch (call.kind) {
    case dag::CollectiveKind::bcast:
    case dag::CollectiveKind::scatter:
      receive_from_root(call, moves, member);
      break;
    case dag::CollectiveKind::scan:
    case dag::CollectiveKind::exscan: {
      // Members 0 to `member` have issued (C4); an exscan's member 0 receives nothing.
      const std::size_t last = call.kind == dag::CollectiveKind::scan ? member + 1 : member;
      if (last == 0) break;
      const Bytes prefix = moves.reduced(0, last, 0, moves.bytes());
      moves.put(member, 0, prefix.data(), moves.bytes());
      break;
    }
    default:  // it only sends before the match (a reduce or gather non-root), or never returns
      break;  // early
  }
}

}  // namespace ordo::comm::sim
