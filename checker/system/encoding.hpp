// A state's canonical encodings (what the searches store to recognise a state seen before) and
// the pieces they are made of, which the searches' compact keys (search/state_keys.hpp) reuse.
#pragma once

#include <cstdint>
#include <string>

#include "checker/system/state.hpp"
#include "checker/system/system.hpp"
#include "runtime/comm/rules/match_state.hpp"

namespace ordo::checker {

// A byte string that is equal for two states exactly when they have the same future: it names
// ops by program op id (never by rules slot) and run queues by order (never by sequence number).
// Why that suffices: a var's grants are a function of the accesses submitted to it (fixed by the
// main pc, since each rank submits in program order) and of which of them completed, because the
// grant rule is a greedy prefix of the var's queue that a completion can only extend; everything
// else the rules hold (thread occupancy, pending counts, op states) is encoded explicitly.
std::string encode(const System& model, const State& state);

// Equal for two states exactly when one is the other with ranks renamed. Requires
// model.ranks_interchangeable(): then renamed states have renamed futures, so one of them
// stands for all (symmetry reduction); the search still walks real states, so a witness is a
// real schedule.
std::string encode_up_to_rank_renaming(const System& model, const State& state);

// LEB128: seven bits a byte, high bit set on every byte but the last. Prefix-free, so a
// concatenation of values decodes uniquely, and the small values states hold take one byte.
inline void put_uint(std::string& out, std::uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>(static_cast<unsigned char>((value & 0x7f) | 0x80)));
    value >>= 7;
  }
  out.push_back(static_cast<char>(static_cast<unsigned char>(value)));
}
// The rank's part of encode(), cached in the rank until it is written.
const std::string& rank_encoding(const State& state, dag::Rank rank);
// One communicator's part of encode().
void put_comm(const comm::MatchState& comm, std::string& out);
// What one member sees of a communicator: its next sequence number, its calls in flight and,
// per unmatched slot, whether it posted and with which tag. With the slots' sequence numbers
// (put_slot_seqs) the members' views make up the communicator.
void put_member_view(const comm::MatchState& comm, std::size_t member, std::string& out);
void put_slot_seqs(const comm::MatchState& comm, std::string& out);

}  // namespace ordo::checker
