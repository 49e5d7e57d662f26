// Jobs of sends and recvs (docs/semantics.md, §3b): two or three ranks that exchange a few
// messages around a ring, each exchange one rank sending first and the other receiving first or
// both the same way round, by blocking or non-blocking ops on pools of one or two threads or by
// the main thread, with recvs from any source, tags, keys and counts that a rank may change, and
// an allreduce among them now and then. The shared script keeps the messages lined up unless an
// order, a departure or the engine's freedom breaks them, so safe and unsafe jobs both come out:
// head-to-head blocking sends (P3), a recv that takes the wrong sender's message (P1), a message
// never received (P3).
#pragma once

#include "fuzz/lib/draws.hpp"
#include "fuzz/lib/instance.hpp"

namespace ordo::fuzz {

Instance draw_message_job(Draws& draws);

}  // namespace ordo::fuzz
