// Random KVStore design configurations: every design, the paper's Fig. 4 init or the safe one,
// with or without the init broadcasts, in-place or copied buffers, and random thread counts,
// communicators and outstanding keys (concom), bucket sizes (fused), slice and credit sizes
// (priority) and the order guard left out, one step or two overlapped ones, on both sides of the
// thresholds where a design turns unsafe.
#pragma once

#include <rapidcheck.h>

#include <cstdint>

#include "runtime/designs/design_config.hpp"
#include "runtime/designs/step_builder.hpp"

namespace ordo::fuzz {

struct DesignRecipe {
  designs::DesignConfig config;
  designs::StepOptions step;
};

rc::Gen<DesignRecipe> design_recipes();

// How one rank of a heterogeneous job departs from the job's design; zeros keep it. Shrinks to
// no departure at all.
struct RankVariation {
  std::uint32_t design = 0;           // 1 + DesignKind: this rank runs another design
  std::uint32_t comm_threads = 0;     // another comm pool size
  std::uint32_t compute_threads = 0;  // another compute pool size
  bool flip_init = false;             // broadcast the weights first when the others do not
  std::uint64_t count_delta = 0;      // this rank's first key has more elements
};

rc::Gen<RankVariation> rank_variations();

DesignRecipe vary(const DesignRecipe& base, const RankVariation& variation);

}  // namespace ordo::fuzz
