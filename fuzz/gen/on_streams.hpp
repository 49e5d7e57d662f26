// Any family's jobs under the NCCL semantics (docs/semantics.md, §3a): the same programs, run by
// the checker and the runtime with every call a launch completed in stream order. The MPI
// families stay as they are, so their counts keep checking what they always checked.
#pragma once

#include <rapidcheck.h>

#include "fuzz/lib/instance.hpp"

namespace ordo::fuzz {

rc::Gen<Instance> on_streams(rc::Gen<Instance> family);

}  // namespace ordo::fuzz
