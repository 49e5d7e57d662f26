// The human form of a Verification (`ordo verify` without --json).
#include <cstdio>

#include "checker/verify/undecided.hpp"
#include "checker/verify/verify.hpp"

namespace ordo::checker {

namespace {

std::string upper(std::string_view word) {
  std::string s(word);
  for (char& c : s) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  return s;
}

std::string method_words(Method method) {
  return method == Method::symbolic ? "symbolic: the happens-before order, with Z3"
                                    : "explicit search";
}

std::string figures(const Stats& s) {
  char line[256];
  std::snprintf(
      line, sizeof line,
      "%llu states, %llu transitions, depth %llu, %llu final states, %.0f states/s; "
      "partial-order reduction %s (%llu transitions deferred), symmetry %s",
      static_cast<unsigned long long>(s.states), static_cast<unsigned long long>(s.transitions),
      static_cast<unsigned long long>(s.depth_max), static_cast<unsigned long long>(s.finals),
      s.states_per_second, s.partial_order ? "on" : "off",
      static_cast<unsigned long long>(s.transitions_deferred), s.symmetry ? "on" : "off");
  return line;
}

std::string witness_lines(const System& model, const Verification& v) {
  std::string s;
  const std::vector<WitnessStep> steps = witness_steps(model, v.result.witness);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const bool critical = v.critical_transition && *v.critical_transition == i + 1;
    s += (critical ? "  * " : "    ") + std::to_string(i + 1) + ". " + steps[i].what + "\n";
  }
  return s;
}

}  // namespace

std::string human_report(const System& model, const Verification& v) {
  const Result& r = v.result;
  std::string s = upper(to_string(r.verdict)) + " at " + std::to_string(r.ranks) + " rank(s)";
  if (r.verdict == Verdict::safe && v.every_rank_count) {
    s += " and at every rank count" + valid_counts_words(model);
    if (model.valid_from() > 1 || model.valid_divides() > 0)
      s += " (the job is not valid at other counts)";
  }
  if (r.verdict != Verdict::unknown) s += " (" + method_words(v.decided_by) + ")";
  if (model.backend() != comm::Backend::mpi) {
    s += " under the " + std::string(comm::to_string(model.backend())) + " semantics";
  }
  s += "\n";
  if (r.verdict == Verdict::safe) {
    s += "P1 order consistency, P2 thread rule, P3 deadlock freedom, P4 termination and P5 buffer "
         "safety hold in every schedule.\n";
  }
  if (!v.facts.empty()) {
    s += "proven:\n";
    for (const std::string& f : v.facts) s += "  - " + f + "\n";
  }
  if (r.verdict == Verdict::unsafe && r.property && r.violation) {
    s += "violated: " + std::string(to_string(*r.property)) + "\n" + describe(*r.violation) + "\n";
    if (!v.critical_transition) {
      s += "critical transition: not found (not searched above 16 ranks, or a search hit its "
           "bound)\n";
    } else {
      if (*v.critical_transition == 0) {
        s += "critical transition: none; no execution of this job can finish\n";
      } else {
        s += "critical transition: " + std::to_string(*v.critical_transition) +
             " (marked *): after it no execution can finish without a violation\n";
      }
    }
    s += "witness: " + std::to_string(r.witness.size()) +
         " transitions from the initial state (replay with `ordo replay`):\n" +
         witness_lines(model, v);
  }
  if (r.verdict == Verdict::unknown) {
    if (r.bound) {
      // Seconds are a fraction for a small --timeout; the whole number would read 0.
      const std::string value =
          *r.bound == Bound::seconds_max ? "" : " = " + std::to_string(r.bound_value);
      s += "bound " + std::string(to_string(*r.bound)) + value +
           " reached before the search ended; raise " + std::string(option_of(*r.bound)) + "\n";
    }
    if (v.symbolic_note) s += "symbolic stage: " + *v.symbolic_note + "\n";
  }
  if (v.decided_by == Method::explicit_search) s += figures(r.stats) + "\n";
  char total[64];
  std::snprintf(total, sizeof total, "time to verdict: %.3f s\n", v.seconds);
  return s + total;
}

}  // namespace ordo::checker
