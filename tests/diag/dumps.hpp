// Hand-built hang dumps for the analysis and reader tests: a world of ranks, each with the calls
// its flight recorder would hold.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/diag/rank_dump.hpp"

namespace ordo::diag::testing {

comm::Call allreduce(std::int64_t key, std::uint64_t count = 4);
comm::Call barrier();

// A dump of `rank` in a world of `world_size` with one communicator per name in `comms` (every
// rank a member), no calls yet.
RankDump empty_dump(dag::Rank rank, std::uint32_t world_size,
                    std::initializer_list<std::string> comms = {"grads"});

// A send to, or a recv from, `peer` (a rank of the communicator, or dag::any_source) with `tag`.
comm::Call send(dag::Rank peer, std::uint32_t tag = 0, std::uint64_t count = 4);
comm::Call recv(dag::Rank peer, std::uint32_t tag = 0, std::uint64_t count = 4);

// Appends a send or recv to the communicator's messages, at the next place of its stream, which
// it counts; `open` leaves it in flight.
void add_message(RankDump& dump, std::size_t comm_index, const comm::Call& call, bool open = false,
                 const std::string& issuer = "op");

// Appends a call at the communicator's next seq, issued by `issuer`; `open` leaves it in flight.
void add_call(RankDump& dump, std::size_t comm_index, const comm::Call& call, bool open = false,
              const std::string& issuer = "op", const std::string& pool = "comm");

}  // namespace ordo::diag::testing
