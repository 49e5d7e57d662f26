// A schedule saved as JSON (format "ordo-trace", docs/checker.md): the witness of an unsafe
// verdict, one object per transition with its rank, event, op and thread, so that `ordo replay` can
// run it on the runtime's controlled run and a user can read it. Reading checks structure only; the
// transition's meaning against a job (does the op exist, is the transition legal) is checked by
// replaying it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checker/search/verdict.hpp"
#include "checker/system/system.hpp"
#include "runtime/dag/transition.hpp"
#include "runtime/errors/input_error.hpp"

namespace ordo::checker {

struct Trace {
  std::uint32_t ranks = 0;
  comm::Backend backend = comm::Backend::mpi;  // the semantics the witness was found under
  std::optional<std::string> property;         // "P1".."P4", when the trace is a witness
  std::vector<dag::Transition> transitions;
  // Per transition, the op's name when the file gives one; replay checks it against the job so that
  // a trace is never silently run against a different program.
  std::vector<std::optional<std::string>> op_names;
};

// "P1".."P4", and back (nullopt for anything else).
std::string_view short_name(Property property);
std::optional<Property> parse_property(std::string_view name);

// The witness of an unsafe result (or an empty schedule otherwise) with op names and a line of
// words per transition.
std::string write_trace(const System& model, const Result& result);

// Throws errors::InputError (where, problem, expected) for any text that is not a well-formed
// trace.
Trace read_trace(std::string_view text);

// The first transition of `trace` that names a rank, op or thread the model does not have, or an op
// name that differs from the model's, in words; nullopt when every transition fits.
std::optional<std::string> trace_mismatch(const System& model, const Trace& trace);

}  // namespace ordo::checker
