#include "checker/search/transition_memo.hpp"

#include <stdexcept>

#include "checker/search/mix.hpp"

namespace ordo::checker {

namespace {

constexpr std::uint32_t thread_kind_max = UINT32_MAX >> 2;

}  // namespace

TransitionMemo::TransitionMemo() : table_(1024) {}

std::optional<std::uint32_t> TransitionMemo::thread_kind_of(const dag::Transition& transition) {
  const std::uint64_t thread = transition.thread ? std::uint64_t{*transition.thread} + 1 : 0;
  if (thread > thread_kind_max) return std::nullopt;
  return static_cast<std::uint32_t>(thread << 2 | static_cast<std::uint64_t>(transition.kind));
}

std::uint64_t TransitionMemo::hash_of(VisitedSet::Place piece, dag::Rank rank, dag::OpId op,
                                      std::uint32_t thread_kind) {
  return mix64(piece * 0x9e3779b97f4a7c15ULL ^
             mix64(std::uint64_t{rank} << 32 ^ std::uint64_t{op} ^ std::uint64_t{thread_kind} << 44));
}

std::size_t TransitionMemo::PartKeyHash::operator()(
    const std::pair<dag::Rank, VisitedSet::Place>& k) const {
  return static_cast<std::size_t>(mix64(k.second * 0x9e3779b97f4a7c15ULL ^ k.first));
}

std::optional<TransitionMemo::Successor> TransitionMemo::find(
    dag::Rank rank, VisitedSet::Place piece, const dag::Transition& transition) const {
  const std::optional<std::uint32_t> tk = thread_kind_of(transition);
  if (!tk) return std::nullopt;
  const std::size_t mask = table_.size() - 1;
  for (std::size_t i = hash_of(piece, rank, transition.op, *tk) & mask;; i = (i + 1) & mask) {
    const Entry& e = table_[i];
    if (e.part == 0) return std::nullopt;
    if (e.piece == piece && e.rank == rank && e.op == transition.op && e.thread_kind == *tk) {
      return Successor{e.successor, e.part - 1};
    }
  }
}

TransitionMemo::Successor TransitionMemo::add(dag::Rank rank, VisitedSet::Place piece,
                                              const dag::Transition& transition,
                                              VisitedSet::Place successor_piece,
                                              const CowBox<RankState>& part) {
  if (parts_.size() >= UINT32_MAX - 1) throw std::length_error("more rank parts than a memo keeps");
  const auto [kept, fresh] =
      part_of_.try_emplace({rank, successor_piece}, static_cast<std::uint32_t>(parts_.size()));
  if (fresh) parts_.push_back(part);
  const Successor successor{successor_piece, kept->second};
  const std::optional<std::uint32_t> tk = thread_kind_of(transition);
  if (!tk) return successor;
  const std::size_t mask = table_.size() - 1;
  for (std::size_t i = hash_of(piece, rank, transition.op, *tk) & mask;; i = (i + 1) & mask) {
    Entry& e = table_[i];
    if (e.part == 0) {
      e = Entry{piece, rank, transition.op, successor_piece, *tk, kept->second + 1};
      ++size_;
      if (2 * size_ > table_.size()) grow();
      return successor;
    }
    if (e.piece == piece && e.rank == rank && e.op == transition.op && e.thread_kind == *tk) {
      return successor;  // kept already (a search takes each transition once per state)
    }
  }
}

// Keeps the load at most one half, so that a probe ends after a few entries.
void TransitionMemo::grow() {
  PageArray<Entry> old(table_.size() * 2);
  old.swap(table_);
  const std::size_t mask = table_.size() - 1;
  for (const Entry& e : old) {
    if (e.part == 0) continue;
    std::size_t i = hash_of(e.piece, e.rank, e.op, e.thread_kind) & mask;
    while (table_[i].part != 0) i = (i + 1) & mask;
    table_[i] = e;
  }
}

}  // namespace ordo::checker
