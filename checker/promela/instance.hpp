// The instance part of an export, the text around the generic model: the bounds as #defines
// before it, and after it the init process that writes the job's tables and starts every
// process. Ops, vars, pools and communicators keep their ids from the job; comments give their
// names, so that a SPIN trail reads against the dump.
#pragma once

#include <ostream>

#include "checker/promela/bounds.hpp"
#include "checker/system/system.hpp"

namespace ordo::checker::promela {

// `backend` decides whether the model completes calls through streams (ORDO_STREAMS).
void write_defines(std::ostream& out, const Bounds& bounds, comm::Backend backend);

// Throws ExportError when the job has more distinct collective signatures than the model holds.
void write_init(std::ostream& out, const System& model);

}  // namespace ordo::checker::promela
