// P5 on a happens-before graph (docs/semantics.md, B1-B3): two touches of one var race only where
// one of them is not covered by its party's grant (a main-thread call's buffer, an op's call
// writing a buffer the op declares only as read), they overlap, one writes, and nothing orders
// them. A pair the graph orders (one party ends before the other starts, on a path of edges)
// never races on any schedule; a pair it leaves unordered is only a candidate, since dispatch
// order and cross-rank matching may still order it, so the explicit search decides it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "checker/symbolic/hb.hpp"
#include "runtime/dag/program.hpp"

namespace ordo::checker::symbolic {

struct BufferOrder {
  std::uint64_t pairs = 0;  // pairs of touches that could race, each checked for an order
  // The first pair left unordered, in words ("the main thread's allreduce ... and op 'norm'").
  std::optional<std::string> unordered;
};

// Touches are taken as the member that uses each call's buffer most (comm::buffer_use without
// a member), so that one answer holds for every rank running the program.
BufferOrder check_buffer_order(const dag::Program& program, const HappensBefore& hb);

}  // namespace ordo::checker::symbolic
