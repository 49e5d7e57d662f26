// The sizes of an export's arrays: the largest table of any rank's program, the longest queue
// that can form. Computing them is also where every limit of the Promela model is checked, so
// an instance that does not fit fails here, with the count and the limit, before any text exists.
#pragma once

#include <cstdint>

#include "checker/system/system.hpp"

namespace ordo::checker::promela {

struct Bounds {
  std::uint32_t ranks = 0;
  std::uint32_t comms = 1;      // at least 1: Promela has no empty arrays
  std::uint32_t ops = 1;        // per program
  std::uint32_t vars = 1;       // per program
  std::uint32_t pools = 1;      // per program
  std::uint32_t actions = 1;    // main actions per program
  std::uint32_t accesses = 1;   // vars one op names
  std::uint32_t threads = 1;    // per pool
  std::uint32_t var_queue = 1;  // accesses that can wait on one var: the ops naming it
  std::uint32_t run_queue = 1;  // ops that can be ready in one pool: the ops it runs
  std::uint32_t members = 1;    // per communicator
  std::uint32_t calls = 1;      // calls one rank issues on one communicator
  std::uint32_t stream = 1;     // calls one rank issues in all: its stream's length at most
  std::uint32_t processes = 1;  // init, then per rank: main, pool threads, async callbacks
  // Some call may return before its match (docs/semantics.md, C4): the model then carries the
  // early returns and the Sync process (docs/promela.md, "Early returns").
  bool early = false;
};

// How a call may return before its match, as the model's tables say it: 0 never (it needs
// every member), 1 as a bcast or scatter (a root at once, a non-root once the root issued), 2 as
// a reduce or gather (a non-root at once), 3 as a scan or exscan (member i once members 0 to i
// issued). Under a backend that never returns early, always 0.
std::uint32_t early_kind(const System& model, const dag::Collective& collective);

// Throws ExportError naming the first count that does not fit.
Bounds compute_bounds(const System& model);

}  // namespace ordo::checker::promela
