// Training-step jobs the KVStore designs give for random networks: SPMD jobs (every rank runs
// the same step program) and heterogeneous ones, where each rank runs its own program built
// with a design configuration, init or model that may depart from the others'. Both come from
// the same builder the runtime and `ordo step-dag` use, so the checker and the runtime are held
// to the programs users actually run.
#pragma once

#include <rapidcheck.h>

#include "fuzz/lib/instance.hpp"

namespace ordo::fuzz {

rc::Gen<Instance> design_jobs();
rc::Gen<Instance> heterogeneous_jobs();

}  // namespace ordo::fuzz
