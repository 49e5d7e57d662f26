// Preference profiles for guided runs (guided_run.hpp), each ranking the events of one program.
// They turn a query's answer into a schedule: rush towards the events a candidate violation
// needs (the happens-before ancestors of a call's issue, nothing else), hold back the event that
// would resolve it, follow a model's timestamps, or stay inside a stuck cut.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "checker/symbolic/hb.hpp"

namespace ordo::checker::symbolic {

// Event order itself, a linearization of happens-before.
std::vector<std::uint64_t> in_event_order(const HappensBefore& hb);

// Stage k holds the ancestors of targets[k] (the target included) not in an earlier stage; then
// come the other events, then `held_back` if given. Stages are numbered from `first_stage`, so
// that profiles of different ranks can be interleaved stage by stage; within a stage, event
// order.
std::vector<std::uint64_t> staged(const HappensBefore& hb, const std::vector<EventId>& targets,
                                  std::uint64_t first_stage,
                                  std::optional<EventId> held_back = std::nullopt);

// The order of a model's timestamps, ties broken by event order.
std::vector<std::uint64_t> by_times(const HappensBefore& hb,
                                    const std::vector<std::int64_t>& times);

// The events of a cut, the others never. First the ancestors of `rush_to` (in event order), then
// the rest of the cut: a stuck cut's in-flight calls must take their threads before the ops
// queued behind them become ready, which event order alone does not ensure.
std::vector<std::uint64_t> within_cut(const HappensBefore& hb, const std::vector<bool>& done,
                                      const std::vector<EventId>& rush_to = {});

}  // namespace ordo::checker::symbolic
