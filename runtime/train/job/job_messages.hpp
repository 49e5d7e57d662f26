// What the job says on standard error. Each message is one line in one write
// (io/message_line.hpp): the ranks' messages reach one terminal through mpirun, and a message
// written in pieces was cut by another rank's ("ordo train: rank ordo train: rank 0: ...").
#pragma once

#include <string_view>

#include "runtime/dag/program.hpp"

namespace ordo::train {

// "ordo train: error: WHAT": what every rank meets alike, said once (by rank 0).
void say_error(std::string_view what);
// "ordo train: rank K: error: WHAT": what this rank met, which the others may not have.
void say_rank_error(dag::Rank rank, std::string_view what);
// "ordo train: rank K: WHAT".
void say_rank(dag::Rank rank, std::string_view what);

}  // namespace ordo::train
