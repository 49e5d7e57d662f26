#include "checker/search/state_keys.hpp"

#include <algorithm>
#include <atomic>

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

StateKeys::StateKeys(const Model& model, bool symmetry)
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

std::string_view StateKeys::key(const State& state) {
  // A sample of the communicators' parts is read back too (they are not stored as pieces).
  if ((keys_made_++ & comm_check_mask) == 0) {
    for (dag::CommId id = 0; id < state.comm_count(); ++id) {
      comm_bytes_.clear();
      put_comm(state.comm(id), comm_bytes_);
      check_comm_encoding(state.comm(id), comm_bytes_);
    }
  }
  out_.clear();
  if (!symmetric_) {
    for (dag::Rank rank = 0; rank < model_.ranks(); ++rank) put_uint(out_, piece(state, rank));
    for (dag::CommId id = 0; id < state.comm_count(); ++id) put_comm(state.comm(id), out_);
    return out_;
  }
  // As encode_up_to_rank_renaming, with each rank's encoding named by its place.
  rank_keys_.resize(model_.ranks());
  for (dag::Rank rank = 0; rank < model_.ranks(); ++rank) {
    std::string& key = rank_keys_[rank];
    key.clear();
    put_uint(key, piece(state, rank));
    for (dag::CommId c = 0; c < state.comm_count(); ++c) put_member_view(state.comm(c), rank, key);
  }
  std::sort(rank_keys_.begin(), rank_keys_.end());
  for (dag::CommId id = 0; id < state.comm_count(); ++id) put_slot_seqs(state.comm(id), out_);
  for (const std::string& key : rank_keys_) {
    put_uint(out_, key.size());
    out_ += key;
  }
  return out_;
}

}  // namespace ordo::checker
