#include "runtime/comm/sim/data_moves.hpp"

#include <cassert>
#include <cstring>
#include <vector>

#include "runtime/comm/reduce.hpp"

namespace ordo::comm::sim {

namespace {

using Bytes = std::vector<std::byte>;

// What every member sent, copied first: a member's buffer may be both what it sent and where it
// receives (in place, as every ordo call is), and an alltoall or exscan reads a buffer after
// another member's block has been written into it.
class Moves {
 public:
  Moves(const Call& call, std::span<const MemberData> members)
      : call_(call),
        members_(members),
        bytes_(call.count * dag::dtype_bytes(call.dtype)),
        block_(members.empty() ? 0 : bytes_ / members.size()) {
    for (const MemberData& m : members) {
      sent_.push_back(m.sent != nullptr ? Bytes(m.sent, m.sent + bytes_) : Bytes());
    }
  }

  std::uint64_t bytes() const { return bytes_; }
  std::uint64_t block() const { return block_; }
  const std::byte* sent(std::size_t m, std::uint64_t at) const {
    assert(!sent_.at(m).empty() && "only a member that issued has sent anything");
    return sent_[m].data() + at;
  }

  // Writes into member m's buffer, if it receives now.
  void put(std::size_t m, std::uint64_t at, const std::byte* from, std::uint64_t length) const {
    if (members_[m].into != nullptr && length > 0) std::memcpy(members_[m].into + at, from, length);
  }

  // The reduction of members first to last - 1, at [at, at + length), in rank order.
  Bytes reduced(std::size_t first, std::size_t last, std::uint64_t at, std::uint64_t length) const {
    assert(first < last);
    Bytes acc(sent(first, at), sent(first, at) + length);
    const std::uint64_t elements = length / dag::dtype_bytes(call_.dtype);
    for (std::size_t m = first + 1; m < last; ++m) {
      reduce_into(acc.data(), sent(m, at), elements, call_.dtype, call_.reduction);
    }
    return acc;
  }

 private:
  const Call& call_;
  std::span<const MemberData> members_;
  std::uint64_t bytes_;
  std::uint64_t block_;
  std::vector<Bytes> sent_;
};

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
      for (std::size_t m = 0; m < n; ++m) {
        if (m != *call.root) moves.put(m, 0, moves.sent(*call.root, 0), bytes);
      }
      break;
    case dag::CollectiveKind::reduce: {
      // Only the root receives; every other member's buffer only sends and stays as it was.
      const Bytes sum = moves.reduced(0, n, 0, bytes);
      moves.put(*call.root, 0, sum.data(), bytes);
      break;
    }
    case dag::CollectiveKind::reduce_scatter:
      // Member m receives the reduction of every member's block m in its own block m; its other
      // blocks stay as they were (MPI leaves them unspecified: docs/comm.md).
      for (std::size_t m = 0; m < n; ++m) {
        const Bytes sum = moves.reduced(0, n, m * block, block);
        moves.put(m, m * block, sum.data(), block);
      }
      break;
    case dag::CollectiveKind::allgather:
      // Member m's block m goes to block m of every member.
      for (std::size_t to = 0; to < n; ++to) {
        for (std::size_t from = 0; from < n; ++from) {
          if (from != to) moves.put(to, from * block, moves.sent(from, from * block), block);
        }
      }
      break;
    case dag::CollectiveKind::gather:
      // Block m of the root's buffer receives member m's block m; the others only send.
      for (std::size_t from = 0; from < n; ++from) {
        if (from != *call.root) {
          moves.put(*call.root, from * block, moves.sent(from, from * block), block);
        }
      }
      break;
    case dag::CollectiveKind::scatter:
      // Member m receives block m of the root's buffer, in its own block m.
      for (std::size_t to = 0; to < n; ++to) {
        if (to != *call.root) moves.put(to, to * block, moves.sent(*call.root, to * block), block);
      }
      break;
    case dag::CollectiveKind::alltoall:
      // Block i of member j goes to block j of member i; a member keeps its own block i = j.
      for (std::size_t to = 0; to < n; ++to) {
        for (std::size_t from = 0; from < n; ++from) {
          if (from != to) moves.put(to, from * block, moves.sent(from, to * block), block);
        }
      }
      break;
    case dag::CollectiveKind::scan:
      for (std::size_t m = 0; m < n; ++m) {
        const Bytes prefix = moves.reduced(0, m + 1, 0, bytes);
        moves.put(m, 0, prefix.data(), bytes);
      }
      break;
    case dag::CollectiveKind::exscan:
      // Member 0 receives nothing (MPI leaves its buffer undefined; here it stays as it was).
      for (std::size_t m = 1; m < n; ++m) {
        const Bytes prefix = moves.reduced(0, m, 0, bytes);
        moves.put(m, 0, prefix.data(), bytes);
      }
      break;
    case dag::CollectiveKind::barrier:
      break;
  }
}

void move_early(const Call& call, std::size_t member, std::span<const MemberData> members) {
  const std::size_t n = members.size();
  if (member >= n || call.count == 0) return;
  const Moves moves(call, members);
  const std::uint64_t bytes = moves.bytes();
  const std::uint64_t block = moves.block();
  const bool is_root = call.root && *call.root == member;
  switch (call.kind) {
    case dag::CollectiveKind::bcast:
      if (!is_root) moves.put(member, 0, moves.sent(*call.root, 0), bytes);
      break;
    case dag::CollectiveKind::scatter:
      if (!is_root)
        moves.put(member, member * block, moves.sent(*call.root, member * block), block);
      break;
    case dag::CollectiveKind::scan: {
      const Bytes prefix = moves.reduced(0, member + 1, 0, bytes);
      moves.put(member, 0, prefix.data(), bytes);
      break;
    }
    case dag::CollectiveKind::exscan:
      if (member > 0) {
        const Bytes prefix = moves.reduced(0, member, 0, bytes);
        moves.put(member, 0, prefix.data(), bytes);
      }
      break;
    default:  // it only sends before the match (a reduce or gather non-root), or never returns
      break;  // early
  }
}

}  // namespace ordo::comm::sim
