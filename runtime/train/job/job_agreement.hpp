// The collectives the job's main thread makes outside the step program, before and after
// training (docs/train.md, "Calls the trainer makes outside the step program"): agreements that
// keep every rank doing what the others do, so that none goes on alone and leaves the others
// waiting in a collective for ever.
#pragma once

#include <cstdint>

#include "runtime/comm/communicator.hpp"

namespace ordo::train {

// Their key: below every gradient key, so that diagnostics tell them apart.
inline constexpr std::int64_t agree_key = -1;

// Whether any rank failed; every rank learns it. On communicator 0, collective.
bool any_rank_failed(comm::World& world, bool failed);

}  // namespace ordo::train
