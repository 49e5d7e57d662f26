#include "checker/verify/verify_sarif.hpp"

#include <map>
#include <tuple>
#include <utility>

#include "checker/verify/property_rules.hpp"
#include "checker/verify/undecided.hpp"
#include "checker/witness/trace_io.hpp"

namespace ordo::checker {

namespace {

// A party a violation names, with what it does there in words.
struct Party {
  dag::Rank rank = 0;
  std::string name;  // "main" or the op's name
  std::string comm;
  std::string words;
};

// The party that broke the property first (the offending call, the second call, the first
// waiting party), then the others.
std::vector<Party> parties_of(const comm::Violation& violation) {
  std::vector<Party> parties;
  const auto call = [&parties](const comm::IssuedCall& c, const std::string& comm,
                               std::string prefix) {
    parties.push_back({c.issuer.rank, c.issuer.name, comm, prefix + comm::describe(c, comm)});
  };
  if (const auto* m = std::get_if<comm::Mismatch>(&violation)) {
    if (!m->calls.empty()) call(m->calls.back(), m->comm_name, "the call that disagrees: ");
    for (std::size_t i = 0; i + 1 < m->calls.size(); ++i) {
      call(m->calls[i], m->comm_name, "at the same position: ");
    }
  } else if (const auto* t = std::get_if<comm::ThreadRuleBreak>(&violation)) {
    call(t->second, t->comm_name, "issued: ");
    call(t->in_flight, t->comm_name, "while in flight: ");
  } else if (const auto* b = std::get_if<comm::BufferRace>(&violation)) {
    parties.push_back({b->rank, b->starting.party, b->starting.comm_name,
                       "began: " + comm::describe(b->starting)});
    parties.push_back({b->rank, b->ongoing.party, b->ongoing.comm_name,
                       "in flight: " + comm::describe(b->ongoing)});
  } else {
    // One party per call it waits in, with every rank that call waits for.
    std::map<std::tuple<dag::Rank, std::string, std::string, std::uint64_t>, std::size_t> seen;
    for (const comm::WaitEdge& e : comm::wait_edges(std::get<comm::Deadlock>(violation))) {
      const auto [at, added] =
          seen.emplace(std::tuple(e.from, e.party, e.comm_name, e.seq), parties.size());
      if (!added) {
        parties[at->second].words += ", " + std::to_string(e.to);
        continue;
      }
      parties.push_back({e.from, e.party, e.comm_name,
                         "rank " + std::to_string(e.from) + " (" + e.party + ") waits in call " +
                             std::to_string(e.seq) + " on '" + e.comm_name + "' for rank(s) " +
                             std::to_string(e.to)});
    }
  }
  return parties;
}

std::string at_ranks(std::uint32_t ranks) { return "at " + std::to_string(ranks) + " rank(s)"; }

report::SarifRun verify_run() {
  report::SarifRun run;
  run.rules = property_rules();
  return run;
}

report::SarifResult violation_result(const System& model, const Verification& v,
                                     const JobSource& source) {
  const Result& r = v.result;
  report::SarifResult result;
  result.rule_id = std::string(short_name(*r.property));
  std::string headline = std::string(to_string(*r.property)) + " fails " + at_ranks(r.ranks);
  if (model.backend() != comm::Backend::mpi) {
    headline += " under the " + std::string(comm::to_string(model.backend())) + " semantics";
  }
  result.message = headline + "\n" + comm::describe(*r.violation);

  JobPlaces places(model, source);
  const std::vector<ProgramPart> parts = witness_parts(model, r.witness);
  const std::vector<Party> parties = parties_of(*r.violation);
  for (std::size_t i = 0; i < parties.size(); ++i) {
    const Party& p = parties[i];
    const std::optional<ProgramPart> part = party_part(model, parts, p.rank, p.name, p.comm);
    if (!part) continue;
    report::SarifLocation l = places.location(*part, p.words);
    if (i == 0) {
      result.location = std::move(l);
    } else {
      result.related.push_back(std::move(l));
    }
  }
  // A deadlock with no call in flight (P4) names no party: the last transition led into it.
  if (!result.location && !parts.empty()) {
    result.location = places.location(parts.back(), "the last transition before the violation");
  }
  if (!result.location) result.location = report::whole_file(source.dump_path, source.name);
  for (std::size_t i = 0; i < r.witness.size(); ++i) {
    report::SarifStep step;
    step.location = places.location(parts[i], describe(model, r.witness[i], parts[i].action));
    // The critical transition: after it no execution can finish without a violation.
    if (v.critical_transition && *v.critical_transition == i + 1) step.importance = "essential";
    result.steps.push_back(std::move(step));
  }
  return result;
}

}  // namespace

report::SarifRun verify_sarif(const System& model, const Verification& v, const JobSource& source) {
  const Result& r = v.result;
  report::SarifRun run = verify_run();
  run.properties = {
      {"verdict", std::string(to_string(r.verdict))},
      {"ranks", std::int64_t{r.ranks}},
      {"backend", std::string(comm::to_string(model.backend()))},
      {"method", std::string(to_string(v.decided_by))},
      {"every_rank_count", r.verdict == Verdict::safe && v.every_rank_count},
      {"seconds", v.seconds},
  };
  if (r.verdict == Verdict::unsafe && r.property && r.violation) {
    run.results.push_back(violation_result(model, v, source));
  }
  if (r.verdict == Verdict::unknown) {
    std::string words = undecided_words(v);
    if (r.bound) run.properties.emplace_back("bound", std::string(to_string(*r.bound)));
    if (v.symbolic_note) words += "\nsymbolic stage: " + *v.symbolic_note;
    run.notifications.push_back({"warning", words});
  }
  return run;
}

report::SarifRun verify_sarif_unknown(std::string_view why, std::uint32_t ranks) {
  report::SarifRun run = verify_run();
  run.properties = {{"verdict", std::string("unknown")}};
  if (ranks != 0) run.properties.emplace_back("ranks", std::int64_t{ranks});
  run.notifications.push_back({"warning", "not decided" +
                                              (ranks != 0 ? " " + at_ranks(ranks) : std::string()) +
                                              ": " + std::string(why)});
  return run;
}

report::SarifRun verify_sarif_failed(std::string_view error) {
  report::SarifRun run = verify_run();
  run.execution_successful = false;
  run.notifications.push_back({"error", std::string(error)});
  return run;
}

}  // namespace ordo::checker
