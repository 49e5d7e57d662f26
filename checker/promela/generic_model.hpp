// The generic Promela model (specs/promela/*.pml), compiled into the library at build time so
// that an export is self-contained and never looks for files at run time.
#pragma once

#include <string_view>

namespace ordo::checker::promela {

// The four parts in the order an export needs them (state, collectives, engine, processes): an
// inline must be declared before it is used.
std::string_view generic_model();

}  // namespace ordo::checker::promela
