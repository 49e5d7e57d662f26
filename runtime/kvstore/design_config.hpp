// Which way the KVStore embeds its collectives into the engine (design.md §2), with the knobs
// each design has, selected by name as in the paper: "naive", "funnel", "concom", "depcha".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/dag/program.hpp"

namespace ordo::kvstore {

enum class DesignKind : std::uint8_t { naive, funnel, concom, depcha };
// "safe": weights broadcast by ops chained through one token var. "fig4": the paper's Fig. 4,
// broadcast ops that write nothing, which may run in different orders on different ranks.
enum class InitKind : std::uint8_t { safe, fig4 };

struct DesignConfig {
  DesignKind kind = DesignKind::depcha;
  InitKind init = InitKind::safe;
  std::uint32_t compute_threads = 2;
  std::uint32_t copy_threads = 1;
  std::uint32_t comm_threads = 2;  // threads of the pool that runs collective ops
  std::uint32_t ncomm = 2;         // concom: communicators the allreduces rotate over
  std::uint32_t outstanding = 2;   // concom: keys between the main thread's barriers
  friend bool operator==(const DesignConfig&, const DesignConfig&) = default;
};

// Fixed pool ids of every step program, so that designs and builders agree without lookups.
inline constexpr dag::PoolId compute_pool = 0;
inline constexpr dag::PoolId copy_pool = 1;
inline constexpr dag::PoolId comm_pool = 2;
// Comm 0 is always the world; concom's rotation uses comms 1..ncomm.
inline constexpr dag::CommId world_comm = 0;

std::string_view to_string(DesignKind kind);
std::string_view to_string(InitKind kind);
// Throws std::invalid_argument listing the known names.
DesignKind parse_design(std::string_view name);
InitKind parse_init(std::string_view name);
// Throws std::invalid_argument when a thread count or concom knob is zero or out of bounds.
void check_config(const DesignConfig& config);

std::vector<dag::Pool> step_pools(const DesignConfig& config);
std::vector<dag::Communicator> step_comms(const DesignConfig& config);
// "concom(ncomm=2, outstanding=4, comm_threads=2)": how reports name a configuration.
std::string describe(const DesignConfig& config);

}  // namespace ordo::kvstore
