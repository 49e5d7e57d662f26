#include "checker/timing/timed_run.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "checker/system/state.hpp"
#include "checker/system/system.hpp"
#include "checker/system/transitions.hpp"
#include "runtime/dag/names.hpp"

namespace ordo::checker::timing {

namespace {

bool is_update(const dag::Op& op) { return op.name.find("update.") != std::string::npos; }

// Who takes part in a communicator's calls, and over which link.
struct CommLink {
  std::uint32_t members = 1;
  bool in_node = false;
};

std::vector<CommLink> comm_links(const dag::Job& job, const TimedOptions& options) {
  std::vector<CommLink> links;
  for (const dag::Communicator& c : job.comms) {
    CommLink l;
    // One rank: compute alone, every collective free.
    l.members = options.ranks == 1 ? 1
                : c.members      ? static_cast<std::uint32_t>(c.members->size())
                                 : options.ranks;
    if (options.node_ranks > 0 && c.members && !c.members->empty()) {
      const dag::Rank node = c.members->front() / options.node_ranks;
      l.in_node = std::all_of(c.members->begin(), c.members->end(),
                              [&](dag::Rank r) { return r / options.node_ranks == node; });
    }
    links.push_back(l);
  }
  return links;
}

class Clock {
 public:
  Clock(const System& model, const TimedOptions& options, std::vector<CommLink> links)
      : model_(model), options_(options), links_(std::move(links)) {}

  // Each loop takes one transition, so what is enabled is worked out from what changed, never
  // by a scan of every op (checker::enabled_transitions): the run is linear in the program's
  // length, not quadratic. The choice is enabled_transitions' order all the same: the main
  // thread's action, then each pool's next start, then the claimed collective of the lowest op id.
  TimedResult run() {
    State state = initial_state(model_);
    while (true) {
      if (result_.transitions > options_.transitions_max) {
        throw std::runtime_error("the timed run took more than " +
                                 std::to_string(options_.transitions_max) + " transitions");
      }
      if (const std::optional<dag::Transition> now = instant(state)) {
        take(state, *now);
        continue;
      }
      if (!advance(state)) break;
    }
    if (!finished(model_, state)) {
      throw std::runtime_error("the timed run stopped at " + std::to_string(now_us_) +
                               " us with the rank's program unfinished (a wait nothing satisfies)");
    }
    result_.total_us = now_us_;
    return result_;
  }

 private:
  // The first transition that takes no time and may happen now: the main thread's action (once
  // a collective it called has ended), a claim, an issue. Completions wait for their time.
  std::optional<dag::Transition> instant(const State& state) const {
    const RankState& r = state.rank(0);
    if (now_us_ >= main_free_us_ && main_enabled(model_, r, 0)) {
      return dag::Transition{dag::Transition::Kind::main, 0, 0, std::nullopt};
    }
    for (dag::PoolId pool = 0; pool < r.rules.pools(); ++pool) {
      if (const std::optional<engine::StartChoice> start = r.rules.next_start(pool)) {
        return dag::Transition{dag::Transition::Kind::claim, 0, r.op_of_slot.at(start->op.slot),
                               start->thread};
      }
    }
    if (!claimed_.empty()) {
      return dag::Transition{dag::Transition::Kind::issue, 0, *claimed_.begin(), std::nullopt};
    }
    return std::nullopt;
  }

  // When the collective ends: after the calls before it on its link, plus its own time. comm_us
  // counts the network link only (the node's link is not the network's M).
  double on_link(const dag::Collective& c) {
    const CommLink& l = links_.at(c.comm);
    const double us = collective_us(c, l.members, l.in_node ? options_.node_link : options_.link);
    double& free_us = l.in_node ? node_link_free_us_ : link_free_us_;
    const double start = std::max(now_us_, free_us);
    free_us = start + us;
    if (!l.in_node) result_.comm_us += us;
    return free_us;
  }

  void take(State& state, const dag::Transition& t) {
    const dag::Program& program = model_.program(0);
    std::optional<dag::Collective> main_call;
    if (t.kind == dag::Transition::Kind::main) {
      if (const auto* c = std::get_if<dag::CollectiveAction>(&program.main[state.rank(0).pc])) {
        main_call = c->collective;
      }
    }
    if (const std::optional<comm::Violation> v = apply(model_, state, t)) {
      throw std::runtime_error("the timed run broke a collective rule on one rank: " +
                               comm::describe(*v));
    }
    ++result_.transitions;
    if (main_call) {
      main_free_us_ = on_link(*main_call);
      return;
    }
    if (t.kind == dag::Transition::Kind::main) return;
    const dag::Op& op = program.ops.at(t.op);
    const OpPhase phase = state.rank(0).phase.at(t.op);
    if (phase == OpPhase::claimed) {
      claimed_.insert(t.op);
    } else {
      claimed_.erase(t.op);
    }
    if (phase == OpPhase::running) {
      const double cost = op.cost_us * (is_update(op) ? 1.0 : options_.compute_scale);
      due(t.op, now_us_ + cost);
      result_.compute_us += cost;
    } else if (phase == OpPhase::fired && !scheduled_.contains(t.op)) {
      due(t.op, on_link(*op.collective));
    }
  }

  void due(dag::OpId op, double at) {
    scheduled_.insert(op);
    due_.insert({at, op});
  }

  // Moves the clock to the next completion (or the end of the main thread's collective) and takes
  // the completions due then, in op id order; false when nothing is left to happen.
  bool advance(State& state) {
    double next = std::numeric_limits<double>::infinity();
    if (!due_.empty()) next = due_.begin()->first;
    if (main_free_us_ > now_us_) next = std::min(next, main_free_us_);
    if (!std::isfinite(next)) return false;
    now_us_ = next;
    std::vector<dag::OpId> now;
    while (!due_.empty() && due_.begin()->first <= now_us_) {
      now.push_back(due_.begin()->second);
      due_.erase(due_.begin());
    }
    std::sort(now.begin(), now.end());
    for (const dag::OpId op : now) {
      const dag::Transition complete{dag::Transition::Kind::complete, 0, op, std::nullopt};
      if (apply(model_, state, complete)) throw std::logic_error("a completion broke a rule");
      ++result_.transitions;
      scheduled_.erase(op);
    }
    return true;
  }

  const System& model_;
  const TimedOptions& options_;
  TimedResult result_;
  double now_us_ = 0.0;
  double main_free_us_ = 0.0;
  double link_free_us_ = 0.0;
  double node_link_free_us_ = 0.0;
  std::vector<CommLink> links_;  // per communicator
  // Every running or matched op by its completion time, and the same ops by id.
  std::set<std::pair<double, dag::OpId>> due_;
  std::unordered_set<dag::OpId> scheduled_;
  std::set<dag::OpId> claimed_;  // collective ops claimed, their calls not issued yet
};

}  // namespace

TimedResult timed_run(const dag::Job& job, const TimedOptions& options) {
  check_link(options.link);
  if (options.ranks == 0) throw std::invalid_argument("the timed run needs at least one rank");
  if (!std::isfinite(options.compute_scale) || options.compute_scale < 0) {
    throw std::invalid_argument("compute scale " + std::to_string(options.compute_scale) +
                                " is negative or not finite");
  }
  check_link(options.node_link);
  if (job.programs.size() != 1) {
    throw std::invalid_argument("the timed run takes one program, not " +
                                std::to_string(job.programs.size()));
  }
  // A message needs its peer's program; the one rank stands for all and has no peer.
  for (const dag::Op& op : job.programs[0].ops) {
    if (op.collective && dag::is_point_to_point(op.collective->kind)) {
      throw std::invalid_argument("the timed run models one rank of a data-parallel step; op '" +
                                  op.name + "' makes a " +
                                  std::string(dag::to_string(op.collective->kind)) +
                                  ", whose time depends on its peer's program");
    }
  }
  for (const dag::Action& a : job.programs[0].main) {
    const auto* c = std::get_if<dag::CollectiveAction>(&a);
    if (c != nullptr && dag::is_point_to_point(c->collective.kind)) {
      throw std::invalid_argument(
          "the timed run models one rank of a data-parallel step; its main thread makes a " +
          std::string(dag::to_string(c->collective.kind)) +
          ", whose time depends on its peer's program");
    }
  }
  // The one rank stands for every rank of the job, whatever count the job fixes; the member
  // lists only say how many take part, and over which link.
  std::vector<CommLink> links = comm_links(job, options);
  dag::Job one = job;
  one.ranks.reset();
  one.programs[0].ranks.reset();
  for (dag::Communicator& c : one.comms) c.members.reset();
  const System model(std::move(one), 1);
  return Clock(model, options, std::move(links)).run();
}

}  // namespace ordo::checker::timing
