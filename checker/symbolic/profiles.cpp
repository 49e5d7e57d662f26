#include "checker/symbolic/profiles.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "checker/symbolic/guided_run.hpp"

namespace ordo::checker::symbolic {

std::vector<std::uint64_t> in_event_order(const HappensBefore& hb) {
  std::vector<std::uint64_t> out(hb.events());
  std::iota(out.begin(), out.end(), std::uint64_t{0});
  return out;
}

std::vector<std::uint64_t> staged(const HappensBefore& hb, const std::vector<EventId>& targets,
                                  std::uint64_t first_stage, std::optional<EventId> held_back) {
  const std::uint64_t width = hb.events();
  const std::uint64_t rest = targets.size();
  std::vector<std::uint64_t> stage(hb.events(), rest);
  for (std::uint64_t k = targets.size(); k-- > 0;) {
    // Later targets first, so that an event shared with an earlier stage ends up there.
    const std::vector<bool> before = hb.ancestors(targets[k]);
    for (EventId e = 0; e < hb.events(); ++e) {
      if (before[e]) stage[e] = k;
    }
  }
  if (held_back) stage.at(*held_back) = rest + 1;
  std::vector<std::uint64_t> out(hb.events());
  for (EventId e = 0; e < hb.events(); ++e) out[e] = (first_stage + stage[e]) * width + e;
  return out;
}

std::vector<std::uint64_t> by_times(const HappensBefore& hb,
                                    const std::vector<std::int64_t>& times) {
  if (times.size() != hb.events()) throw std::invalid_argument("model times do not fit the graph");
  std::vector<EventId> order(hb.events());
  std::iota(order.begin(), order.end(), EventId{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](EventId a, EventId b) { return times[a] < times[b]; });
  std::vector<std::uint64_t> out(hb.events());
  for (std::uint64_t i = 0; i < order.size(); ++i) out[order[i]] = i;
  return out;
}

std::vector<std::uint64_t> within_cut(const HappensBefore& hb, const std::vector<bool>& done,
                                      const std::vector<EventId>& rush_to) {
  if (done.size() != hb.events()) throw std::invalid_argument("cut does not fit the graph");
  std::vector<bool> first(hb.events(), false);
  for (EventId target : rush_to) {
    const std::vector<bool> before = hb.ancestors(target);
    for (EventId e = 0; e < hb.events(); ++e) first[e] = first[e] || before[e];
  }
  std::vector<std::uint64_t> out(hb.events());
  for (EventId e = 0; e < hb.events(); ++e) {
    out[e] = !done[e] ? never : first[e] ? e : std::uint64_t{hb.events()} + e;
  }
  return out;
}

}  // namespace ordo::checker::symbolic
