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
#include <vector>

#include "checker/symbolic/hb.hpp"
#include "checker/system/system.hpp"
#include "runtime/dag/program.hpp"

namespace ordo::checker::symbolic {

struct BufferOrder {
  std::uint64_t pairs = 0;  // pairs of touches that could race, each checked for an order
  // The first pair left unordered, in words ("the main thread's call at action 3 and op 'norm'
  // may touch 'buf' at once, one of them writing", with the rank it is found at).
  std::optional<std::string> unordered;
};

// `ranks` run `program` in `model`. A rank's calls use their buffers by its role in each (the
// root of a bcast only reads, a non-root writes: B2), so the ranks are taken once per pattern of
// roles, a handful however many ranks there are, and, where more ranks may run the program (no
// fixed rank count), once more as a rank that is the root of no call; blocks are taken whole,
// so that one answer holds for every rank of a pattern.
BufferOrder check_buffer_order(const System& model, const dag::Program& program,
                               const HappensBefore& hb, const std::vector<dag::Rank>& ranks);

}  // namespace ordo::checker::symbolic
