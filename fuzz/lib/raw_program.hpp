// Raw engine programs with collectives in arbitrary places: random reads and writes over data
// vars and ordering tokens, compute and copy ops, blocking and async collective ops, main-thread
// waits and collectives, on the world, duplicates of it and subsets of the ranks. All ranks
// share one script of events and each rank builds its own program from it, leaving out events
// or changing a count where the script says so: the collectives line up unless the engine's
// freedom or a per-rank departure reorders them, so safe and unsafe jobs both come out.
#pragma once

#include <cstdint>
#include <vector>

#include "fuzz/lib/draws.hpp"
#include "fuzz/lib/instance.hpp"

namespace ordo::fuzz {

struct CommRecipe {
  std::uint32_t members = 0;  // bit r: world rank r is a member; 0 or every rank: a world dup
  bool reversed = false;      // members in descending world-rank order
};

struct PoolRecipe {
  std::uint32_t threads = 1;
  bool priority = false;
};

// One event of the shared script. Which fields matter depends on `what`.
struct EventRecipe {
  enum What : std::uint32_t {
    compute,
    copy,
    collective_op,
    async_collective_op,
    main_collective,
    wait_to_read,
    wait_for_all,
  };
  std::uint32_t what = compute;
  std::uint32_t pool = 0;    // modulo the pools
  std::uint32_t reads = 0;   // bit v: the op reads var v (data vars first, then tokens)
  std::uint32_t writes = 0;  // bit v: the op writes var v
  std::uint32_t var = 0;     // the buffer of a collective, the var of a wait, a copy's source
  std::int32_t priority = 0;
  std::uint32_t comm = 0;  // modulo the communicators, 0 the world
  std::uint32_t kind = 0;  // modulo the collective kinds, in declaration order
  std::uint64_t count = 0;
  std::uint32_t dtype = 0;
  std::uint32_t reduction = 0;  // modulo sum, prod, min, max
  std::uint32_t root = 0;       // modulo the communicator's size
  std::uint32_t skip = 0;       // bit r: rank r leaves the event out
  std::uint32_t bump = 0;       // bit r: rank r's call has one element more
};

struct RawRecipe {
  std::uint32_t ranks = 2;
  std::vector<CommRecipe> comms;  // besides the world
  std::vector<PoolRecipe> pools;
  std::uint32_t data_vars = 1;
  std::uint32_t tokens = 0;
  std::vector<EventRecipe> events;
};

// Within fuzz/lib/sizes.hpp; a departure from the shared script (an event some rank leaves out
// or calls with one element more) is the exception, one event in seven.
RawRecipe draw_raw_recipe(Draws& draws);
// Every recipe gives a job that validates: events a rank cannot take (a collective on a
// communicator it is not in, a wait with nothing to wait for) become what they can be.
Instance to_instance(const RawRecipe& recipe);
Instance draw_raw_job(Draws& draws);

}  // namespace ordo::fuzz
