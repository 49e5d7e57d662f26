#include "checker/symbolic/buffer_order.hpp"

#include <map>
#include <utility>
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

// The rank's role in each call of the program, in the order of hb.calls(): whether it is the
// call's root. Blocks are taken whole, so that is all that tells ranks apart (B2).
using Roles = std::vector<bool>;

// A member of the call's communicator in that role, blocks whole (size 0).
comm::Member member_in(const dag::Collective& call, bool root) {
  if (!call.root) return comm::Member{0, 0};
  return comm::Member{root ? *call.root : (*call.root == 0 ? 1 : 0), 0};
}

std::vector<Span> spans_of(const dag::Program& program, const HappensBefore& hb,
                           const Roles& roles) {
  std::vector<Span> spans;
  std::vector<std::optional<bool>> op_role(program.ops.size());
  for (std::size_t i = 0; i < hb.calls().size(); ++i) {
    const CallEvents& call = hb.calls()[i];
    if (call.op) {
      op_role.at(*call.op) = roles[i];
      continue;
    }
    spans.push_back(
        {comm::main_touches(program, call.main_action, member_in(call.collective, roles[i])),
         call.issue, call.complete,
         "the main thread's call at action " + std::to_string(call.main_action)});
  }
  for (dag::OpId op = 0; op < program.ops.size(); ++op) {
    const dag::Op& o = program.ops[op];
    const comm::Member member =
        o.collective ? member_in(*o.collective, op_role[op].value_or(false)) : comm::Member{0, 0};
    comm::PartyTouches touches = comm::op_touches(program, op, member);
    if (touches.touches.empty()) continue;
    spans.push_back({std::move(touches), hb.start(op), hb.complete(op), "op '" + o.name + "'"});
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

Roles roles_of(const System& model, const HappensBefore& hb, dag::Rank rank) {
  Roles roles;
  for (const CallEvents& call : hb.calls()) {
    const dag::Collective& c = call.collective;
    roles.push_back(c.root && model.member_of(c.comm, rank) == static_cast<std::int64_t>(*c.root));
  }
  return roles;
}

}  // namespace

BufferOrder check_buffer_order(const System& model, const dag::Program& program,
                               const HappensBefore& hb, const std::vector<dag::Rank>& ranks) {
  BufferOrder out;
  if (!comm::may_race(program)) return out;
  // The patterns of the ranks given, and, for a program of every rank in a job that fixes no
  // rank count, a rank that is the root of nothing: every larger count has one, so the answer
  // holds there too.
  std::map<Roles, std::string> patterns;
  for (dag::Rank r : ranks) patterns.emplace(roles_of(model, hb, r), "rank " + std::to_string(r));
  if (!model.job().ranks && !program.ranks) {
    patterns.emplace(Roles(hb.calls().size(), false), "a rank that is the root of no call");
  }
  // Whether the graph orders spans i and j: the same question for every pattern, since the
  // spans are the program's parties in one order whatever the rank.
  std::map<std::pair<std::size_t, std::size_t>, bool> ordered;
  for (const auto& [roles, who] : patterns) {
    const std::vector<Span> spans = spans_of(program, hb, roles);
    for (std::size_t i = 0; i < spans.size(); ++i) {
      for (std::size_t j = i + 1; j < spans.size(); ++j) {
        const std::optional<std::string> var = racing_var(program, spans[i], spans[j]);
        if (!var) continue;
        ++out.pairs;
        const auto [at, fresh] = ordered.emplace(std::pair(i, j), false);
        if (fresh) {
          at->second =
              hb.reaches(spans[i].end, spans[j].begin) || hb.reaches(spans[j].end, spans[i].begin);
        }
        if (at->second) continue;
        out.unordered = "at " + who + ", " + spans[i].name + " and " + spans[j].name +
                        " may touch '" + *var + "' at once, one of them writing";
        return out;
      }
    }
  }
  return out;
}

}  // namespace ordo::checker::symbolic
