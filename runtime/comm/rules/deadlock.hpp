// A deadlock's description (comm::Deadlock, violation.hpp), built in one place for every side
// that finds one: the checker from a stuck state, the runtime's controlled run and the simulated
// world's watchdog from theirs. Each side gives what only it knows, its ranks' own account of
// their main threads and ops; the calls and the streams are read here from the matching states
// and streams, which every side holds in the same types (MatchState, DeviceStream).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/comm/rules/device_streams.hpp"
#include "runtime/comm/rules/match_state.hpp"
#include "runtime/comm/rules/violation.hpp"

namespace ordo::comm {

// One rank's own account of the stuck state.
struct RankAccount {
  dag::Rank rank = 0;
  bool finished = false;  // main past its last action, not blocked, every op it submitted completed
  MainWait main;          // read only when not finished
  std::vector<OpWait> ops;
};

// A communicator as the side holding its matching state names it.
struct CommView {
  const std::string* name = nullptr;
  const std::vector<dag::Rank>* members = nullptr;  // world ranks, in communicator-rank order
  const MatchState* match = nullptr;
};

// Who launched the call with `tag` on `rank`'s stream: "main" or the op's name.
using PartyOfLaunch = std::function<std::string(dag::Rank rank, std::uint64_t tag)>;

// The description of a stuck state. `ranks` holds every rank, in rank order; `streams` is null
// unless the backend is stream-ordered, and `party_of_launch` is read only then.
Deadlock describe_deadlock(std::vector<RankAccount> ranks, const std::vector<CommView>& comms,
                           const StreamSet* streams, const PartyOfLaunch& party_of_launch);

// The writes completed and submitted to a var, where the side can read them.
using WritesOf = std::function<std::optional<std::pair<std::uint64_t, std::uint64_t>>(dag::VarId)>;

// A blocked rank's main thread at position `pc` of `program`, blocked in its collective when
// `in_call`: its action in words (dag::describe_main), and for a wait what it waits for, from
// `writes` and `ops_incomplete`. The checker and the controlled run, which both hold a program
// position and an engine, read their main threads here.
MainWait main_wait(dag::Rank rank, const dag::Program& program,
                   const std::vector<dag::Communicator>& comms, std::uint32_t pc, bool in_call,
                   const WritesOf& writes, std::uint64_t ops_incomplete);

}  // namespace ordo::comm
