#include "checker/witness/dot.hpp"

#include <sstream>

namespace ordo::checker {

namespace {

// A Graphviz double-quoted string: only the quote and the backslash need escaping.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + '"';
}

std::string rank_node(dag::Rank rank) { return "rank" + std::to_string(rank); }

void deadlock_graph(const comm::Deadlock& d, std::ostringstream& out) {
  const std::vector<std::string> lines = comm::wait_lines(d);
  for (dag::Rank rank : d.ranks_blocked) {
    std::string label = "rank " + std::to_string(rank);
    const std::string prefix = "rank " + std::to_string(rank) + " ";
    for (const std::string& w : lines) {
      if (w.rfind(prefix, 0) == 0) label += "\n" + w.substr(prefix.size());
    }
    out << "  " << rank_node(rank) << " [shape=box, label=" << quoted(label) << "];\n";
  }
  for (const comm::WaitEdge& e : comm::wait_edges(d)) {
    out << "  " << rank_node(e.from) << " -> " << rank_node(e.to) << " [color=red, label="
        << quoted(e.party + " in '" + e.comm_name + "' call " + std::to_string(e.seq)) << "];\n";
  }
}

std::string call_label(const comm::IssuedCall& call, const std::string& comm_name) {
  return "rank " + std::to_string(call.issuer.rank) + " " + call.issuer.name +
         (call.blocking ? "" : " (non-blocking)") + "\n" + comm::describe(call.call, comm_name);
}

void mismatch_graph(const comm::Mismatch& m, std::ostringstream& out) {
  const std::string slot = "slot";
  out << "  " << slot << " [shape=diamond, color=red, label="
      << quoted("'" + m.comm_name + "' call " + std::to_string(m.seq) + "\nmismatch") << "];\n";
  for (std::size_t i = 0; i < m.calls.size(); ++i) {
    const bool offending = i + 1 == m.calls.size();
    out << "  call" << i << " [shape=box, label=" << quoted(call_label(m.calls[i], m.comm_name))
        << (offending ? ", color=red" : "") << "];\n";
    out << "  call" << i << " -> " << slot << (offending ? " [color=red]" : "") << ";\n";
  }
}

void thread_rule_graph(const comm::ThreadRuleBreak& t, std::ostringstream& out) {
  out << "  comm [shape=diamond, label=" << quoted("'" + t.comm_name + "'") << "];\n";
  out << "  first [shape=box, label="
      << quoted(call_label(t.in_flight, t.comm_name) + "\nin flight") << "];\n";
  out << "  second [shape=box, color=red, label="
      << quoted(call_label(t.second, t.comm_name) + "\nissued meanwhile") << "];\n";
  out << "  first -> comm;\n  second -> comm [color=red];\n";
}

// The var as one node, the touch in flight and the one that began beside it.
void buffer_race_graph(const comm::BufferRace& b, std::ostream& out) {
  out << "  var [shape=cylinder, label="
      << quoted("rank " + std::to_string(b.rank) + ": '" + b.var + "'") << "];\n";
  out << "  first [shape=box, label=" << quoted(comm::describe(b.ongoing) + "\nin flight")
      << "];\n";
  out << "  second [shape=box, color=red, label="
      << quoted(comm::describe(b.starting) + "\nbegan meanwhile") << "];\n";
  out << "  first -> var;\n  second -> var [color=red];\n";
}

}  // namespace

std::string to_dot(const System& model, const Result& result) {
  std::ostringstream out;
  out << "digraph ordo {\n  rankdir=LR;\n  node [fontname=\"monospace\"];\n";
  if (result.verdict != Verdict::unsafe || !result.violation) {
    out << "  note [shape=note, label="
        << quoted(std::string(to_string(result.verdict)) + " at " + std::to_string(model.ranks()) +
                  " ranks: nothing to draw")
        << "];\n}\n";
    return out.str();
  }
  out << "  label=" << quoted(std::string(to_string(*result.property))) << ";\n";
  if (const auto* d = std::get_if<comm::Deadlock>(&*result.violation)) deadlock_graph(*d, out);
  if (const auto* m = std::get_if<comm::Mismatch>(&*result.violation)) mismatch_graph(*m, out);
  if (const auto* t = std::get_if<comm::ThreadRuleBreak>(&*result.violation))
    thread_rule_graph(*t, out);
  if (const auto* b = std::get_if<comm::BufferRace>(&*result.violation)) buffer_race_graph(*b, out);
  out << "}\n";
  return out.str();
}

}  // namespace ordo::checker
