// Promela for a job: the generic model of specs/promela/ followed by the instance's tables, one
// self-contained file that SPIN checks for the properties checker::explore decides
// (docs/promela.md). It exists so that an independent model checker can confirm the explicit
// checker's verdicts: SPIN's answer must equal ordo's on every instance both can finish.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "checker/system/system.hpp"

namespace ordo::checker::promela {

// A job the Promela model cannot express: a count beyond what its byte-sized fields hold, more
// processes than SPIN runs, a collective on a communicator its rank is not a member of. The
// message names the program or rank, the count and the limit.
class ExportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What pan needs to search an export completely.
struct SpinHints {
  std::uint64_t depth_max = 0;     // no execution of the model is longer (pan -m)
  std::uint64_t vector_bytes = 0;  // above the model's state vector (cc -DVECTORSZ=)
  std::uint32_t processes = 0;     // SPIN processes the model runs, init included
};

// The Promela text for `model` at its rank count. Throws ExportError.
std::string export_promela(const System& model);

// Throws ExportError exactly when export_promela does.
SpinHints spin_hints(const System& model);

}  // namespace ordo::checker::promela
