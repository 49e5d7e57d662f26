// The JSON form of a Verification (`ordo verify --json`): field names and meanings are part of
// the interface (docs/checker.md) and change only with the version.
#include <nlohmann/json.hpp>

#include "checker/verify/verify.hpp"
#include "checker/witness/trace_io.hpp"
#include "runtime/dag/names.hpp"

namespace ordo::checker {

namespace {

using nlohmann::json;

json collective_json(const comm::Call& c) {
  json j{{"kind", dag::to_string(c.kind)},
         {"key", c.key},
         {"count", c.count},
         {"dtype", dag::to_string(c.dtype)},
         {"reduction", dag::to_string(c.reduction)}};
  if (c.root) j["root"] = *c.root;
  return j;
}

json call_json(const comm::IssuedCall& call) {
  json j{{"rank", call.issuer.rank},
         {"issuer", call.issuer.name},
         {"blocking", call.blocking},
         {"collective", collective_json(call.call)}};
  return j;
}

json violation_json(const comm::Violation& v) {
  if (const auto* m = std::get_if<comm::Mismatch>(&v)) {
    json calls = json::array();
    for (const comm::IssuedCall& c : m->calls) calls.push_back(call_json(c));
    return {{"kind", "mismatch"}, {"comm", m->comm_name}, {"seq", m->seq}, {"calls", calls}};
  }
  if (const auto* t = std::get_if<comm::ThreadRuleBreak>(&v)) {
    return {{"kind", "thread_rule"},
            {"comm", t->comm_name},
            {"in_flight", call_json(t->in_flight)},
            {"second", call_json(t->second)}};
  }
  if (const auto* b = std::get_if<comm::BufferRace>(&v)) {
    const auto toucher = [](const comm::BufferToucher& t) {
      json j{{"party", t.party}, {"writes", t.writes}, {"first", t.first}, {"bytes", t.bytes}};
      if (t.call) {
        j["collective"] = collective_json(*t.call);
        j["comm"] = t.comm_name;
      }
      return j;
    };
    return {{"kind", "buffer_race"},
            {"rank", b->rank},
            {"var", b->var},
            {"in_flight", toucher(b->ongoing)},
            {"began", toucher(b->starting)}};
  }
  const auto& d = std::get<comm::Deadlock>(v);
  json edges = json::array();
  for (const comm::WaitEdge& e : comm::wait_edges(d)) {
    edges.push_back({{"from", e.from},
                     {"party", e.party},
                     {"comm", e.comm_name},
                     {"seq", e.seq},
                     {"to", e.to}});
  }
  return {{"kind", "deadlock"},
          {"ranks_blocked", d.ranks_blocked},
          {"waits", comm::wait_lines(d)},
          {"edges", edges}};
}

// Every field of the object, each null or empty until the answer fills it: a verification's
// answer and a stopped command's answer are one shape, written here once.
json answer_object(std::string_view verdict, std::optional<std::uint32_t> ranks,
                   comm::Backend backend, std::string_view method) {
  json j;
  j["format"] = "ordo-verify";
  j["version"] = 2;
  j["verdict"] = verdict;
  j["ranks"] = ranks ? json(*ranks) : json(nullptr);
  j["backend"] = comm::to_string(backend);
  j["every_rank_count"] = false;
  j["valid_from"] = nullptr;
  j["valid_divides"] = nullptr;
  j["method"] = method;
  j["facts"] = json::array();
  j["property"] = nullptr;
  j["violation"] = nullptr;
  j["witness_transitions"] = 0;
  j["critical_transition"] = nullptr;
  j["bound"] = nullptr;
  j["symbolic_note"] = nullptr;
  j["stopped"] = nullptr;
  j["stats"] = nullptr;
  j["seconds"] = 0.0;
  j["error"] = nullptr;
  return j;
}

}  // namespace

std::string json_report(const StoppedAnswer& a) {
  json j = answer_object(to_string(Verdict::unknown), a.ranks, a.backend, a.method);
  j["bound"] = {{"name", to_string(a.bound)}, {"value", a.bound_value}};
  j["stopped"] = a.stopped;
  j["seconds"] = a.seconds;
  return j.dump(2) + "\n";
}

std::string json_error_report(const std::string& message) {
  json j = answer_object("error", std::nullopt, comm::Backend::mpi, "");
  j["error"] = message;
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string json_report(const System& model, const Verification& v) {
  const Result& r = v.result;
  json j =
      answer_object(to_string(r.verdict), model.ranks(), model.backend(), to_string(v.decided_by));
  j["every_rank_count"] = r.verdict == Verdict::safe && v.every_rank_count;
  // Where "every rank count" begins: the smallest count at which the job is valid.
  j["valid_from"] = model.valid_from();
  // And, for a job whose reduce_scatter or allgather counts must split, what the count divides.
  j["valid_divides"] = model.valid_divides() > 0 ? json(model.valid_divides()) : json(nullptr);
  j["facts"] = v.facts;
  j["property"] = r.property ? json(short_name(*r.property)) : json(nullptr);
  j["violation"] = r.violation ? violation_json(*r.violation) : json(nullptr);
  j["witness_transitions"] = r.witness.size();
  j["critical_transition"] = v.critical_transition ? json(*v.critical_transition) : json(nullptr);
  j["bound"] =
      r.bound ? json{{"name", to_string(*r.bound)}, {"value", r.bound_value}} : json(nullptr);
  j["symbolic_note"] = v.symbolic_note ? json(*v.symbolic_note) : json(nullptr);
  j["stats"] = {{"states", r.stats.states},
                {"transitions", r.stats.transitions},
                {"depth_max", r.stats.depth_max},
                {"final_states", r.stats.finals},
                {"transitions_deferred", r.stats.transitions_deferred},
                {"partial_order", r.stats.partial_order},
                {"symmetry", r.stats.symmetry},
                {"search_seconds", r.stats.seconds},
                {"states_per_second", r.stats.states_per_second}};
  j["seconds"] = v.seconds;
  return j.dump(2) + "\n";
}

}  // namespace ordo::checker
