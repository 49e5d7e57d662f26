#include "checker/symbolic/confirm.hpp"

#include "checker/symbolic/guided_run.hpp"
#include "checker/symbolic/profiles.hpp"

namespace ordo::checker::symbolic {

namespace {

// Ranks of the candidate's program use `subject` (the first of them) or `peer` (the others);
// ranks running other programs follow their own event order.
Plan plan_for(const Programs& programs, std::uint32_t program, std::vector<std::uint64_t> subject,
              std::vector<std::uint64_t> peer) {
  Plan plan;
  plan.profiles.push_back(std::move(subject));
  plan.profiles.push_back(std::move(peer));
  std::vector<std::uint32_t> own(programs.size(), 0);
  for (std::uint32_t p = 0; p < programs.size(); ++p) {
    if (p == program) continue;
    own[p] = static_cast<std::uint32_t>(plan.profiles.size());
    plan.profiles.push_back(in_event_order(programs.hb(p)));
  }
  bool subject_taken = false;
  for (dag::Rank r = 0; r < programs.hb_of_rank().size(); ++r) {
    const std::uint32_t p = programs.of_rank(r);
    if (p != program) {
      plan.profile_of_rank.push_back(own[p]);
    } else {
      plan.profile_of_rank.push_back(subject_taken ? 1 : 0);
      subject_taken = true;
    }
  }
  return plan;
}

std::optional<Result> attempt(const System& model, const Programs& programs, const Plan& plan,
                              const Budget& budget, std::uint32_t* runs) {
  if (budget.spent()) return std::nullopt;
  ++*runs;
  GuidedResult r = guided_run(model, programs.hb_of_rank(), plan, budget.left());
  if (r.end != RunEnd::violation) return std::nullopt;
  return std::move(r.result);
}

}  // namespace

std::optional<Result> confirm_order(const System& model, const Programs& programs,
                                    const OrderCandidate& candidate, const Budget& budget,
                                    std::uint32_t* runs) {
  const HappensBefore& hb = programs.hb(candidate.program);
  const CallEvents& first = hb.calls().at(candidate.calls.at(candidate.link));
  const CallEvents& second = hb.calls().at(candidate.calls.at(candidate.link + 1));
  if (must_match(first, candidate.kind)) {
    // Two calls in flight on one rank: that rank goes first and alone (its stages 0 to 2 come
    // before every stage of the others), and the others hold back their first call so that it
    // cannot match in between.
    const Plan plan =
        plan_for(programs, candidate.program, staged(hb, {first.issue, second.issue}, 0),
                 staged(hb, {}, 3, first.issue));
    if (auto r = attempt(model, programs, plan, budget, runs)) return r;
  }
  {
    // Different calls at one sequence number on different ranks.
    const Plan plan =
        plan_for(programs, candidate.program, staged(hb, {second.issue}, 0, first.issue),
                 staged(hb, {first.issue}, 0, second.issue));
    if (auto r = attempt(model, programs, plan, budget, runs)) return r;
  }
  if (!candidate.kept_times.empty()) {
    const Plan plan = plan_for(programs, candidate.program, by_times(hb, candidate.broken_times),
                               by_times(hb, candidate.kept_times));
    if (auto r = attempt(model, programs, plan, budget, runs)) return r;
  }
  return std::nullopt;
}

std::optional<Result> confirm_in_event_order(const System& model, const Programs& programs,
                                             const Budget& budget, std::uint32_t* runs) {
  Plan plan;
  for (std::uint32_t p = 0; p < programs.size(); ++p) {
    plan.profiles.push_back(in_event_order(programs.hb(p)));
  }
  for (dag::Rank r = 0; r < programs.hb_of_rank().size(); ++r) {
    plan.profile_of_rank.push_back(programs.of_rank(r));
  }
  return attempt(model, programs, plan, budget, runs);
}

std::optional<Result> confirm_cut(const System& model, const Programs& programs,
                                  const std::vector<std::vector<bool>>& cuts,
                                  const std::vector<std::uint32_t>& cut_of_rank,
                                  const Budget& budget, std::uint32_t* runs) {
  for (const bool rush : {true, false}) {
    Plan plan;
    plan.profile_of_rank = cut_of_rank;
    for (std::uint32_t k = 0; k < cuts.size(); ++k) {
      // The ranks mapped to one cut run one program; any of them names it.
      dag::Rank any = 0;
      while (any < cut_of_rank.size() && cut_of_rank[any] != k) ++any;
      if (any == cut_of_rank.size()) {
        plan.profiles.emplace_back();
        continue;
      }
      const HappensBefore& hb = *programs.hb_of_rank().at(any);
      std::vector<EventId> in_flight;
      for (const CallEvents& call : hb.calls()) {
        if (rush && cuts[k].at(call.issue) && !cuts[k].at(call.complete)) {
          in_flight.push_back(call.issue);
        }
      }
      plan.profiles.push_back(within_cut(hb, cuts[k], in_flight));
    }
    if (auto r = attempt(model, programs, plan, budget, runs)) return r;
  }
  return std::nullopt;
}

}  // namespace ordo::checker::symbolic
