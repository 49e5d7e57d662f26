#include "checker/symbolic/order_queries.hpp"

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
  // The thread rule allows two non-blocking calls in flight on one communicator; matching still
  // needs them issued in one order. Once a blocking call is involved, the earlier call must have
  // matched, and a call completes only after it matched (its own and every earlier call on the
  // communicator, since members issue in sequence order).
  const bool must_match = link == Link::matched_before_issue && (a.blocking || b.blocking);
  return timeline.t(b.issue) < timeline.t(must_match ? a.complete : a.issue);
}

ChainAnswer check_chain(Timeline& timeline, const std::vector<std::uint32_t>& calls, Link link,
                        double seconds) {
  ChainAnswer out;
  if (calls.size() < 2) {
    out.answer = Answer::unsat;
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
    const bool must_match = link == Link::matched_before_issue && (a.blocking || b.blocking);
    if (out.times[b.issue] < out.times[must_match ? a.complete : a.issue]) {
      out.link = i;
      break;
    }
  }
  return out;
}

}  // namespace ordo::checker::symbolic
