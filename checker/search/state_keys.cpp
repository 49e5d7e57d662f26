#include "checker/search/state_keys.hpp"

#include <algorithm>
#include <atomic>
#include <stdexcept>

#include "checker/system/encoding.hpp"
#include "checker/system/encoding_check.hpp"

namespace ordo::checker {

namespace {

// Table ids start at 1 (0 means none) and are never reused, so a rank's cached place can never
// be read against another table that happens to live at the same address.
std::uint64_t next_table_id() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

StateKeys::StateKeys(const System& model, bool symmetry)
    : model_(model),
      symmetric_(symmetry && model.ranks_interchangeable()),
      table_id_(next_table_id()) {}

VisitedSet::Place StateKeys::piece(const State& state, dag::Rank rank) {
  const RankState& r = state.rank(rank);
  if (r.encoded.table != table_id_) {
    const std::string& bytes = rank_encoding(state, rank);
    const VisitedSet::Found found = pieces_.find_or_insert(bytes);
    // Every new piece is read back: a piece stands for every rank state with its bytes.
    if (found.inserted) check_rank_encoding(r, bytes);
    r.encoded.piece = found.place;
    r.encoded.table = table_id_;
  }
  return r.encoded.piece;
}

void StateKeys::sample_comm_check(const State& state) {
  // A sample of the communicators' parts is read back too (rank pieces are, each new one).
  if ((keys_made_++ & comm_check_mask) != 0) return;
  for (dag::CommId id = 0; id < state.comm_count(); ++id) {
    comm_bytes_.clear();
    put_comm(state.comm(id), comm_bytes_);
    check_comm_encoding(state.comm(id), comm_bytes_);
  }
}

VisitedSet::Place StateKeys::views_number(const State& state, dag::Rank rank) {
  part_.clear();
  for (dag::CommId c = 0; c < state.comm_count(); ++c) put_member_view(state.comm(c), rank, part_);
  return views_.find_or_insert(part_).place;
}

VisitedSet::Place StateKeys::comms_number(const State& state) {
  part_.clear();
  for (dag::CommId id = 0; id < state.comm_count(); ++id) {
    if (symmetric_) {
      put_slot_seqs(state.comm(id), part_);
    } else {
      put_comm(state.comm(id), part_);
    }
  }
  return comm_parts_.find_or_insert(part_).place;
}

std::string_view StateKeys::assemble(const Parts& parts, dag::Rank replaced,
                                     VisitedSet::Place piece) {
  const auto piece_of = [&](std::size_t r) { return r == replaced ? piece : parts.ranks[r]; };
  out_.clear();
  put_uint(out_, parts.comms);
  if (!symmetric_) {
    for (std::size_t r = 0; r < parts.ranks.size(); ++r) put_uint(out_, piece_of(r));
    return out_;
  }
  // Sorting the ranks' (piece, views) pairs forgets which rank holds which, as sorting the ranks'
  // keys does in encode_up_to_rank_renaming.
  sorted_.resize(parts.ranks.size());
  for (std::size_t r = 0; r < parts.ranks.size(); ++r) sorted_[r] = {piece_of(r), parts.views[r]};
  std::sort(sorted_.begin(), sorted_.end());
  for (const auto& [rank_piece, rank_views] : sorted_) {
    put_uint(out_, rank_piece);
    put_uint(out_, rank_views);
  }
  return out_;
}

std::string_view StateKeys::key(const State& state, Parts& parts) {
  sample_comm_check(state);
  parts.ranks.resize(model_.ranks());
  parts.views.resize(symmetric_ ? model_.ranks() : 0);
  parts.comms = comms_number(state);
  for (dag::Rank rank = 0; rank < model_.ranks(); ++rank) {
    if (symmetric_) parts.views[rank] = views_number(state, rank);
    parts.ranks[rank] = piece(state, rank);
  }
  return assemble(parts);
}

std::string_view StateKeys::key_after(const State& state, dag::Rank rank, const Parts& parent,
                                      Parts& parts) {
  sample_comm_check(state);
  parts.ranks = parent.ranks;
  parts.views = parent.views;
  parts.comms = parent.comms;
  parts.ranks.at(rank) = piece(state, rank);
  return assemble(parts);
}

std::string_view StateKeys::key_ahead(dag::Rank rank, VisitedSet::Place piece,
                                      const Parts& parent) {
  if (rank >= parent.ranks.size()) throw std::out_of_range("key_ahead: no such rank");
  return assemble(parent, rank, piece);
}

}  // namespace ordo::checker
