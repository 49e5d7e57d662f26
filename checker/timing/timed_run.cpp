#include "checker/timing/timed_run.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>

#include "checker/system/model.hpp"
#include "checker/system/state.hpp"
#include "checker/system/transitions.hpp"

namespace ordo::checker::timing {

namespace {

bool is_update(const dag::Op& op) { return op.name.find("update.") != std::string::npos; }

class Clock {
 public:
  Clock(const Model& model, const TimedOptions& options) : model_(model), options_(options) {}

  TimedResult run() {
    State state = initial_state(model_);
    std::vector<dag::Transition> enabled;
    while (true) {
      if (result_.transitions > options_.transitions_max) {
        throw std::runtime_error("the timed run took more than " +
                                 std::to_string(options_.transitions_max) + " transitions");
      }
      enabled_transitions(model_, state, enabled);
      if (const dag::Transition* now = instant(enabled)) {
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
  const dag::Transition* instant(const std::vector<dag::Transition>& enabled) const {
    for (const dag::Transition& t : enabled) {
      if (t.kind == dag::Transition::Kind::complete) continue;
      if (t.kind == dag::Transition::Kind::main && now_us_ < main_free_us_) continue;
      return &t;
    }
    return nullptr;
  }

  // The link's next free moment after `from`, for a collective of `us` microseconds.
  double on_link(double us) {
    const double start = std::max(now_us_, link_free_us_);
    link_free_us_ = start + us;
    result_.comm_us += us;
    return link_free_us_;
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
      main_free_us_ = on_link(collective_us(*main_call, options_.ranks, options_.link));
      return;
    }
    if (t.kind == dag::Transition::Kind::main) return;
    const dag::Op& op = program.ops.at(t.op);
    const OpPhase phase = state.rank(0).phase.at(t.op);
    if (phase == OpPhase::running) {
      const double cost = op.cost_us * (is_update(op) ? 1.0 : options_.compute_scale);
      due_[t.op] = now_us_ + cost;
      result_.compute_us += cost;
    } else if (phase == OpPhase::fired && !due_.contains(t.op)) {
      due_[t.op] = on_link(collective_us(*op.collective, options_.ranks, options_.link));
    }
  }

  // Moves the clock to the next completion (or the end of the main thread's collective) and takes
  // the completions due then; false when nothing is left to happen.
  bool advance(State& state) {
    double next = std::numeric_limits<double>::infinity();
    for (const auto& [op, at] : due_) next = std::min(next, at);
    if (main_free_us_ > now_us_) next = std::min(next, main_free_us_);
    if (!std::isfinite(next)) return false;
    now_us_ = next;
    for (auto it = due_.begin(); it != due_.end();) {
      if (it->second > now_us_) {
        ++it;
        continue;
      }
      const dag::Transition complete{dag::Transition::Kind::complete, 0, it->first, std::nullopt};
      if (apply(model_, state, complete)) throw std::logic_error("a completion broke a rule");
      ++result_.transitions;
      it = due_.erase(it);
    }
    return true;
  }

  const Model& model_;
  const TimedOptions& options_;
  TimedResult result_;
  double now_us_ = 0.0;
  double main_free_us_ = 0.0;
  double link_free_us_ = 0.0;
  std::map<dag::OpId, double> due_;  // completion time of every running or matched op
};

}  // namespace

TimedResult timed_run(const dag::Job& job, const TimedOptions& options) {
  check_link(options.link);
  if (options.ranks == 0) throw std::invalid_argument("the timed run needs at least one rank");
  if (!std::isfinite(options.compute_scale) || options.compute_scale < 0) {
    throw std::invalid_argument("compute scale " + std::to_string(options.compute_scale) +
                                " is negative or not finite");
  }
  if (job.programs.size() != 1) {
    throw std::invalid_argument("the timed run takes one SPMD program, not " +
                                std::to_string(job.programs.size()));
  }
  // The one rank stands for every rank of the job, whatever count the job fixes.
  dag::Job one = job;
  one.ranks.reset();
  one.programs[0].ranks.reset();
  const Model model(std::move(one), 1);
  return Clock(model, options).run();
}

}  // namespace ordo::checker::timing
