// The check that stands between a search and an `unsafe` answer (docs/checker.md): the witness is
// taken again, transition by transition, from the initial state on the transition system, and must
// end in the violation claimed. A search or a reduction that mislabelled a path, or a shortening
// that broke it, is caught here in every build, not only in debug builds, since an `unsafe` without
// a real witness is an answer the checker must never give.
#pragma once

#include "checker/search/verdict.hpp"
#include "checker/system/system.hpp"

namespace ordo::checker {

// Throws std::logic_error unless `result` is not `unsafe`, or its witness is a legal schedule whose
// last transition causes the reported P1/P2 violation (every earlier transition none), or leads to
// a state where nothing can move and some rank has not finished (P3, P4) that is described as the
// result describes it; and the property claimed is the violation's (property_of).
void confirm_witness(const System& model, const Result& result);

}  // namespace ordo::checker
