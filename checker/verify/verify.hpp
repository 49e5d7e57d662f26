// `ordo verify` as a library: decide P1-P5 for a job at a rank count, first symbolically (Z3 on
// the happens-before order of one rank's program, which can cover every rank count at once),
// then, where that does not decide, by explicit search with reductions. The answer says which
// method decided and what it covers; `unsafe` always carries a witness that the explicit
// transition system took transition by transition.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checker/search/explore.hpp"
#include "checker/search/verdict.hpp"
#include "checker/system/system.hpp"

namespace ordo::checker {

enum class Method : std::uint8_t { automatic, explicit_search, symbolic };

struct VerifyOptions {
  Method method = Method::automatic;
  ExploreLimits limits{5'000'000, 60.0};  // the whole verification's budget
  bool critical_transition = true;        // look for the witness's critical transition
  // Shortening the witness and finding its critical transition make a witness easier to read but
  // are not needed for the verdict: they get this much time (within the budget), then stop with
  // what they have.
  double witness_seconds = 1.0;
};

struct Verification {
  Result result;
  Method decided_by = Method::explicit_search;
  bool every_rank_count = false;             // a `safe` that holds at any number of ranks
  std::vector<std::string> facts;            // what the symbolic stage proved, in words
  std::optional<std::string> symbolic_note;  // why the symbolic stage did not decide
  // The number of witness transitions after which the job is doomed.
  std::optional<std::size_t> critical_transition;
  double seconds = 0.0;
};

Verification verify(const System& model, const VerifyOptions& options);

std::string_view to_string(Method method);  // "auto", "explicit", "symbolic"

// The human report: verdict line, what it covers, the violation with the first divergence or
// the blocked parties, the critical transition, the witness, the figures.
std::string human_report(const System& model, const Verification& verification);
// Stable JSON (format "ordo-verify", version 2, docs/checker.md).
std::string json_report(const System& model, const Verification& verification);

// An `unknown` given before any verification exists: the command's bound stopped a stage that
// cannot stop by itself (reading the input, building the model, one Z3 call). The same object
// as json_report, with `stats` null and `stopped` saying why.
struct StoppedAnswer {
  std::optional<std::uint32_t> ranks;  // once known
  comm::Backend backend = comm::Backend::mpi;
  std::string method;  // as asked: "auto", "explicit" or "symbolic"
  Bound bound = Bound::seconds_max;
  std::uint64_t bound_value = 0;
  std::string stopped;  // "the time limit (--timeout) ran out while building the model"
  double seconds = 0.0;
};
std::string json_report(const StoppedAnswer& answer);

// The object `--json` prints for bad input (exit 2): the same shape, verdict "error" and `error`
// the message standard error gives, so that a CI step parsing standard output never meets an
// empty one.
std::string json_error_report(const std::string& message);

}  // namespace ordo::checker
