// How big a generated instance may get. The explicit checker has no partial-order or symmetry
// reduction yet and visits about 10^4 states per second in a release build, so every family stays
// small enough that most instances are decided within the fuzz limits; the rest end `unknown` and
// are counted as such. Bugs in engine/collective interplay show up on a handful of keys and ops,
// which is also what a shrunk counterexample should read like.
#pragma once

#include <cstdint>

namespace ordo::fuzz::sizes {

// Layered networks for the KVStore designs.
inline constexpr int layers_max = 3;
inline constexpr int params_per_layer_max = 2;
inline constexpr int inputs_per_layer_max = 2;
inline constexpr std::uint32_t keys_max = 3;  // parameters past this are dropped
inline constexpr std::uint64_t param_count_max = 16;

// Design knobs; the checker must see both sides of every knob's threshold.
inline constexpr std::uint32_t threads_max = 3;
inline constexpr std::uint32_t ncomm_max = 3;
inline constexpr std::uint32_t outstanding_max = 3;

// Raw engine programs.
inline constexpr std::uint32_t raw_ranks_max = 3;
inline constexpr int raw_events_max = 8;  // actions of one rank's main thread, submissions included
inline constexpr int raw_data_vars_max = 3;
inline constexpr int raw_tokens_max = 2;
inline constexpr int raw_pools_max = 2;
inline constexpr std::uint32_t raw_pool_threads_max = 2;
inline constexpr int raw_extra_comms_max = 2;
inline constexpr std::uint64_t raw_count_max = 4;
// Every data var holds this many bytes, so that any generated count of any dtype fits the
// buffer it fills, a rank's one extra element included: (count_max + 1) * 8 bytes (f64, i64).
inline constexpr std::uint64_t raw_var_bytes = (raw_count_max + 1) * 8;

}  // namespace ordo::fuzz::sizes
