// ORDO_DEBUG, the environment's switch for fingerprint mode (docs/diagnostics.md), so that a job
// launched by a script the user cannot edit can still be run checked, as PyTorch users set
// TORCH_DISTRIBUTED_DEBUG=DETAIL.
#pragma once

namespace ordo::diag {

// false when ORDO_DEBUG is unset, empty or "off"; true for "detail" (either in any case). Throws
// std::invalid_argument naming the variable and the values it takes for anything else.
bool check_collectives_from_env();

}  // namespace ordo::diag
