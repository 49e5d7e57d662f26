// The jobs `ordo fuzz`'s tests run campaigns on: designs' steps on small networks, with known
// verdicts, and checkers that a test forges to make the checker and the runtime disagree.
#pragma once

#include "fuzz/lib/agreement.hpp"
#include "runtime/dag/program.hpp"
#include "runtime/designs/design_config.hpp"

namespace ordo::fuzz::testing {

// A design's step on a two-layer mlp, valid at any rank count.
dag::Job mlp_step(designs::DesignKind kind, std::uint32_t comm_threads);

// A checker that answers `verdict` whatever the job, with no witness: the forged answer of a
// checker with a bug.
Decider forged(checker::Verdict verdict);

}  // namespace ordo::fuzz::testing
