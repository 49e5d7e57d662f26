// The three renderings of an Analysis: for a person, as stable JSON, and as a Graphviz picture.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "runtime/dag/names.hpp"
#include "runtime/diag/analysis.hpp"

namespace ordo::diag {
namespace {

std::string call_line(const RankCall& rc, std::string_view comm_name) {
  const DumpCall& c = rc.call;
  std::string text = "rank " + std::to_string(rc.rank) + " (" + c.issuer;
  if (!c.pool.empty()) text += " on pool '" + c.pool + "' thread " + std::to_string(c.thread);
  text += c.blocking ? ", blocking" : ", non-blocking";
  return text + ", " + c.state + "): " + comm::describe(c.call, comm_name);
}

std::string ranks_list(const std::vector<dag::Rank>& ranks) {
  std::string text;
  for (const dag::Rank r : ranks) text += (text.empty() ? "" : ", ") + std::to_string(r);
  return text;
}

nlohmann::json call_json(const RankCall& rc) {
  const DumpCall& c = rc.call;
  nlohmann::json collective = {{"kind", dag::to_string(c.call.kind)},
                               {"key", c.call.key},
                               {"count", c.call.count},
                               {"dtype", dag::to_string(c.call.dtype)},
                               {"reduction", dag::to_string(c.call.reduction)}};
  if (c.call.root) collective["root"] = *c.call.root;
  if (dag::is_point_to_point(c.call.kind)) {
    collective["peer"] = c.call.peer.value_or(0);
    collective["tag"] = c.call.tag;
  }
  nlohmann::json j = {{"rank", rc.rank},
                      {"issuer", c.issuer},
                      {"blocking", c.blocking},
                      {"state", c.state},
                      {"collective", collective}};
  if (!c.pool.empty()) {
    j["pool"] = c.pool;
    j["thread"] = c.thread;
  }
  return j;
}

nlohmann::json edge_json(const comm::WaitEdge& e) {
  return {
      {"from", e.from}, {"party", e.party}, {"comm", e.comm_name}, {"seq", e.seq}, {"to", e.to}};
}

std::string dot_text(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

std::string human_report(const Analysis& a) {
  std::ostringstream out;
  out << "analyze: " << to_string(a.finding) << " at " << a.world_size << " ranks ("
      << a.world_size - a.missing.size() << " dumps): " << a.headline << "\n";
  if (!a.missing.empty()) {
    out << "\nmissing: rank(s) " << ranks_list(a.missing)
        << " left no dump: killed (a signal), stopped, or lost with their node\n";
  }
  for (const Divergence& d : a.divergences) {
    out << "\nfirst divergence on communicator " << d.comm << " ('" << d.comm_name << "') at seq "
        << d.seq << ":\n";
    for (const RankCall& rc : d.calls) out << "  " << call_line(rc, d.comm_name) << "\n";
    if (!d.explanation.empty()) out << "  " << d.explanation << "\n";
  }
  for (const NotIssued& n : a.not_issued) {
    out << "\nwaiting on communicator " << n.comm << " ('" << n.comm_name << "') at seq " << n.seq
        << ":\n";
    for (const RankCall& rc : n.waiting) out << "  " << call_line(rc, n.comm_name) << "\n";
    if (!n.never.empty()) out << "  never issued by rank(s) " << ranks_list(n.never) << "\n";
    if (n.missing_count != 0) {
      out << "  not known for rank(s) " << ranks_list(n.missing)
          << (n.missing_count > n.missing.size() ? ", ..." : "") << " (" << n.missing_count
          << " without a dump)\n";
    }
  }
  for (const Unmatched& u : a.unmatched) {
    out << "\nunmatched on communicator " << u.comm << " ('" << u.comm_name << "'):\n  "
        << unmatched_text(u) << "\n";
  }
  if (!a.cycle.empty()) {
    out << "\nwait cycle across communicators:";
    for (const comm::WaitEdge& e : a.cycle) out << " " << e.from << " ->";
    out << " " << a.cycle.front().from << "\n";
    for (const comm::WaitEdge& e : a.cycle) {
      out << "  rank " << e.from << " (" << e.party << ") waits in '" << e.comm_name << "' seq "
          << e.seq << ", which rank " << e.to << " never issued\n";
    }
  }
  for (const PoolExhaustion& x : a.exhausted) {
    out << "\npool exhaustion on rank " << x.rank << ": every thread of pool '" << x.pool
        << "' is held by a blocking collective that waits (";
    for (std::size_t i = 0; i < x.holding.size(); ++i) out << (i ? ", " : "") << x.holding[i];
    out << "), and ready ops cannot start (";
    for (std::size_t i = 0; i < x.ready.size(); ++i) out << (i ? ", " : "") << x.ready[i];
    out << ")\n";
  }
  out << "\nranks:\n";
  for (const RankState& s : a.ranks) {
    out << "  rank " << s.rank << ": ";
    if (!s.dumped) {
      out << "no dump\n";
      continue;
    }
    out << "dumped on " << s.reason << " (" << s.detail << ")\n";
    for (const std::string& o : s.open) out << "    open: " << o << "\n";
    if (!s.main.empty()) out << "    main thread: " << s.main << "\n";
    for (const std::string& p : s.program_ops) out << "    in the program: " << p << "\n";
  }
  return out.str();
}

namespace {

nlohmann::json analysis_object(const Analysis& a) {
  nlohmann::json j;
  j["format"] = "ordo-analyze";
  j["version"] = 2;
  j["finding"] = to_string(a.finding);
  j["headline"] = a.headline;
  j["world_size"] = a.world_size;
  j["missing"] = a.missing;
  nlohmann::json divergences = nlohmann::json::array();
  for (const Divergence& d : a.divergences) {
    nlohmann::json calls = nlohmann::json::array();
    for (const RankCall& rc : d.calls) calls.push_back(call_json(rc));
    divergences.push_back({{"comm", d.comm_name},
                           {"comm_id", d.comm},
                           {"seq", d.seq},
                           {"calls", calls},
                           {"explanation", d.explanation}});
  }
  j["divergences"] = std::move(divergences);
  nlohmann::json not_issued = nlohmann::json::array();
  for (const NotIssued& n : a.not_issued) {
    nlohmann::json waiting = nlohmann::json::array();
    for (const RankCall& rc : n.waiting) waiting.push_back(call_json(rc));
    not_issued.push_back({{"comm", n.comm_name},
                          {"comm_id", n.comm},
                          {"seq", n.seq},
                          {"waiting", waiting},
                          {"never_issued_by", n.never},
                          {"missing", n.missing},
                          {"missing_count", n.missing_count}});
  }
  j["not_issued"] = std::move(not_issued);
  nlohmann::json unmatched = nlohmann::json::array();
  for (const Unmatched& u : a.unmatched) {
    nlohmann::json waiting = call_json(u.waiting);
    waiting["nth"] = u.waiting.call.nth;
    unmatched.push_back({{"comm", u.comm_name},
                         {"comm_id", u.comm},
                         {"waiting", std::move(waiting)},
                         {"peer", u.peer ? nlohmann::json(*u.peer) : nlohmann::json()},
                         {"peer_missing", u.peer_missing},
                         {"peer_issued", u.peer_issued},
                         {"own_issued", u.own_issued},
                         {"text", unmatched_text(u)}});
  }
  j["unmatched"] = std::move(unmatched);
  nlohmann::json edges = nlohmann::json::array();
  for (const comm::WaitEdge& e : a.edges) edges.push_back(edge_json(e));
  j["edges"] = std::move(edges);
  nlohmann::json cycle = nlohmann::json::array();
  for (const comm::WaitEdge& e : a.cycle) cycle.push_back(edge_json(e));
  j["cycle"] = std::move(cycle);
  nlohmann::json exhausted = nlohmann::json::array();
  for (const PoolExhaustion& x : a.exhausted) {
    exhausted.push_back(
        {{"rank", x.rank}, {"pool", x.pool}, {"holding", x.holding}, {"ready", x.ready}});
  }
  j["pool_exhaustion"] = std::move(exhausted);
  nlohmann::json ranks = nlohmann::json::array();
  for (const RankState& s : a.ranks) {
    nlohmann::json r = {{"rank", s.rank}, {"dumped", s.dumped}};
    if (s.dumped) {
      r["reason"] = s.reason;
      r["detail"] = s.detail;
      r["open"] = s.open;
      r["main"] = s.main;
      r["program_ops"] = s.program_ops;
    }
    ranks.push_back(std::move(r));
  }
  j["ranks"] = std::move(ranks);
  j["error"] = nullptr;
  return j;
}

std::string dumped(const nlohmann::json& j) {
  return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace

std::string json_report(const Analysis& a) { return dumped(analysis_object(a)); }

std::string json_error_report(const std::string& message) {
  nlohmann::json j = analysis_object(Analysis{});
  j["finding"] = "error";
  j["headline"] = message;
  j["error"] = message;
  return dumped(j);
}

std::string dot_report(const Analysis& a) {
  std::ostringstream out;
  out << "digraph analyze {\n  rankdir=LR;\n  node [shape=box, fontname=\"monospace\"];\n";
  for (const RankState& s : a.ranks) {
    std::string label = "rank " + std::to_string(s.rank);
    if (!s.dumped) label += "\\nno dump";
    for (const std::string& o : s.open) label += "\\n" + dot_text(o);
    out << "  r" << s.rank << " [label=\"" << label << "\"" << (s.dumped ? "" : ", style=dashed")
        << "];\n";
  }
  for (const comm::WaitEdge& e : a.edges) {
    const bool in_cycle = std::find(a.cycle.begin(), a.cycle.end(), e) != a.cycle.end();
    out << "  r" << e.from << " -> r" << e.to << " [color=red, label=\"" << dot_text(e.party)
        << " in '" << dot_text(e.comm_name) << "' seq " << e.seq << "\""
        << (in_cycle ? ", penwidth=3" : "") << "];\n";
  }
  for (const NotIssued& n : a.not_issued) {
    for (const dag::Rank m : n.missing) {
      for (const RankCall& w : n.waiting) {
        out << "  r" << w.rank << " -> r" << m << " [color=red, style=dashed, label=\""
            << dot_text(w.call.issuer) << " in '" << dot_text(n.comm_name) << "' seq " << n.seq
            << "\"];\n";
      }
    }
  }
  for (const Unmatched& u : a.unmatched) {
    if (!u.peer) continue;
    out << "  r" << u.waiting.rank << " -> r" << *u.peer << " [color=red"
        << (u.peer_missing ? ", style=dashed" : "") << ", label=\""
        << dot_text(u.waiting.call.issuer) << ": " << dag::to_string(u.waiting.call.call.kind)
        << " nth " << u.waiting.call.nth << " tag " << u.waiting.call.call.tag << " in '"
        << dot_text(u.comm_name) << "'\"];\n";
  }
  if (!a.divergences.empty()) {
    const Divergence& d = a.divergences.front();
    std::string label =
        dot_text("first divergence on '" + d.comm_name + "' seq " + std::to_string(d.seq));
    for (const RankCall& rc : d.calls) label += "\\n" + dot_text(call_line(rc, d.comm_name));
    out << "  divergence [shape=note, label=\"" << label << "\"];\n";
  }
  out << "}\n";
  return out.str();
}

}  // namespace ordo::diag
