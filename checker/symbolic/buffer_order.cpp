#include "checker/symbolic/buffer_order.hpp"

#include <vector>

#include "runtime/comm/rules/buffer_touch.hpp"

namespace ordo::checker::symbolic {

namespace {

// A party's touches and the events that bound them: an op from its start to its completion, a
// main-thread call from its issue to its return.
struct Span {
  comm::PartyTouches party;
  EventId begin = 0;
  EventId end = 0;
  std::string name;
};

std::vector<Span> spans_of(const dag::Program& program, const HappensBefore& hb) {
  std::vector<Span> spans;
  for (const CallEvents& call : hb.calls()) {
    if (call.op) continue;
    spans.push_back({comm::main_touches(program, call.main_action, std::nullopt), call.issue,
                     call.complete,
                     "the main thread's call at action " + std::to_string(call.main_action)});
  }
  for (dag::OpId op = 0; op < program.ops.size(); ++op) {
    comm::PartyTouches touches = comm::op_touches(program, op, std::nullopt);
    if (touches.touches.empty()) continue;
    spans.push_back(
        {std::move(touches), hb.start(op), hb.complete(op), "op '" + program.ops[op].name + "'"});
  }
  return spans;
}

// Whether some touch of `a` and one of `b` could race if they overlapped in time.
std::optional<std::string> racing_var(const dag::Program& program, const Span& a, const Span& b) {
  for (const comm::Touch& x : a.party.touches) {
    for (const comm::Touch& y : b.party.touches) {
      if (x.var != y.var || (x.covered && y.covered) || !(x.writes || y.writes)) continue;
      // The graph bounds a party by its start and end only, so an instant touch (a body's
      // copy at its start) stands for the whole party here: a superset of when it happens.
      comm::Touch held_x = x;
      held_x.instant = false;
      comm::PartyTouches one{a.party.party, {held_x}, a.party.call};
      comm::PartyTouches other{b.party.party, {y}, b.party.call};
      if (comm::first_race(0, program, {}, {one}, other)) return program.vars.at(x.var).name;
    }
  }
  return std::nullopt;
}

}  // namespace

BufferOrder check_buffer_order(const dag::Program& program, const HappensBefore& hb) {
  BufferOrder out;
  if (!comm::may_race(program)) return out;
  const std::vector<Span> spans = spans_of(program, hb);
  for (std::size_t i = 0; i < spans.size(); ++i) {
    for (std::size_t j = i + 1; j < spans.size(); ++j) {
      const std::optional<std::string> var = racing_var(program, spans[i], spans[j]);
      if (!var) continue;
      ++out.pairs;
      if (hb.reaches(spans[i].end, spans[j].begin) || hb.reaches(spans[j].end, spans[i].begin)) {
        continue;
      }
      out.unordered = spans[i].name + " and " + spans[j].name + " may touch '" + *var +
                      "' at once, one of them writing";
      return out;
    }
  }
  return out;
}

}  // namespace ordo::checker::symbolic
