// Jobs aimed at the gaps between what a pool worker does under the engine lock and what it does
// outside it (docs/semantics.md, S3), and at the rules a collective call must keep at the rank
// count it runs at (C2, V1): a few collective ops with their own buffers on one pool of two or
// three threads, blocking and non-blocking mixed, sometimes a rank issuing the other form, a
// token chain or a main-thread barrier between some of them, and bcast roots at the edge of the
// communicator's size. Most of these are unsafe; the safe ones are exactly the jobs whose order
// the runtime cannot break, so the threaded run is their test.
#pragma once

#include "fuzz/lib/draws.hpp"
#include "fuzz/lib/instance.hpp"

namespace ordo::fuzz {

Instance draw_racy_job(Draws& draws);

}  // namespace ordo::fuzz
