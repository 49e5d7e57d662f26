#include "checker/symbolic/order_queries.hpp"

#include <algorithm>
#include <chrono>
#include <optional>

#include "runtime/bounds/seconds.hpp"

namespace ordo::checker::symbolic {

std::vector<std::uint32_t> calls_on(const HappensBefore& hb, dag::CommId comm) {
  std::vector<std::uint32_t> out;
  for (std::uint32_t i = 0; i < hb.calls().size(); ++i) {
    if (hb.calls()[i].collective.comm == comm) out.push_back(i);
  }
  return out;
}

std::vector<std::uint32_t> all_calls(const HappensBefore& hb) {
  std::vector<std::uint32_t> out(hb.calls().size());
  for (std::uint32_t i = 0; i < out.size(); ++i) out[i] = i;
  return out;
}

z3::expr link_broken(Timeline& timeline, const std::vector<std::uint32_t>& calls, std::size_t i,
                     Link link) {
  const CallEvents& a = timeline.hb().calls().at(calls.at(i));
  const CallEvents& b = timeline.hb().calls().at(calls.at(i + 1));
  // The thread rule allows calls after a non-blocking one in flight on one communicator;
  // matching still needs them issued in one order. After a blocking call, the earlier call must
  // have matched, and a call completes only after it matched (its own and every earlier call on
  // the communicator, since members issue in sequence order).
  return timeline.t(b.issue) < timeline.t(must_match(a, link) ? a.complete : a.issue);
}

namespace {

// The event a link's later call must issue after: the earlier call's completion or its issue.
EventId link_start(const CallEvents& a, Link link) {
  return must_match(a, link) ? a.complete : a.issue;
}

struct PathSearch {
  bool finished = true;                   // false: the time ran out first
  std::optional<std::size_t> not_a_path;  // the first link that is no path of edges
};

// Searches the chain's links for paths of edges, in order, until one is none. Event ids are a
// topological order, so a path from `from` to `to` visits only ids between the two: the search
// backwards from `to` stops below `from`. `seen` holds, per event, the number of the search that
// last visited it. Each link costs at most the graph's edges, so the clock is read per link.
PathSearch first_link_not_a_path(const HappensBefore& hb, const std::vector<std::uint32_t>& calls,
                                 Link link, double seconds) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point deadline = bounds::deadline_after(Clock::now(), seconds);
  std::vector<std::uint32_t> seen(hb.events(), 0);
  std::vector<EventId> todo;
  std::uint32_t search = 0;
  for (std::size_t i = 0; i + 1 < calls.size(); ++i) {
    if (Clock::now() >= deadline) return {false, std::nullopt};
    const CallEvents& a = hb.calls()[calls[i]];
    const CallEvents& b = hb.calls()[calls[i + 1]];
    const EventId from = link_start(a, link);
    const EventId to = b.issue;
    if (from >= to) return {true, i};  // no path can lead back in the order
    ++search;
    bool found = false;
    todo.assign(1, to);
    seen[to] = search;
    while (!todo.empty() && !found) {
      const EventId e = todo.back();
      todo.pop_back();
      for (const EventId p : hb.preds(e)) {
        if (p == from) {
          found = true;
          break;
        }
        if (p > from && seen[p] != search) {
          seen[p] = search;
          todo.push_back(p);
        }
      }
    }
    if (!found) return {true, i};
  }
  return {};
}

}  // namespace

ChainAnswer check_chain(Timeline& timeline, const std::vector<std::uint32_t>& calls, Link link,
                        double seconds, bool times_needed) {
  ChainAnswer out;
  if (calls.size() < 2) {
    out.answer = Answer::unsat;
    return out;
  }
  const PathSearch paths = first_link_not_a_path(timeline.hb(), calls, link, seconds);
  if (!paths.finished) {
    out.reason = "the time ran out while searching the happens-before graph for paths";
    return out;
  }
  const std::optional<std::size_t>& not_a_path = paths.not_a_path;
  if (!not_a_path || !times_needed) {
    out.answer = not_a_path ? Answer::sat : Answer::unsat;
    out.link = not_a_path.value_or(0);
    out.by_paths = true;
    return out;
  }
  z3::expr_vector broken(timeline.ctx());
  for (std::size_t i = 0; i + 1 < calls.size(); ++i) {
    broken.push_back(link_broken(timeline, calls, i, link));
  }
  out.answer = timeline.check(z3::mk_or(broken), seconds, &out.times);
  if (out.answer != Answer::sat) return out;
  for (std::size_t i = 0; i + 1 < calls.size(); ++i) {
    const CallEvents& a = timeline.hb().calls()[calls[i]];
    const CallEvents& b = timeline.hb().calls()[calls[i + 1]];
    if (out.times[b.issue] < out.times[must_match(a, link) ? a.complete : a.issue]) {
      out.link = i;
      break;
    }
  }
  return out;
}

}  // namespace ordo::checker::symbolic
