#include "checker/symbolic/decide.hpp"

#include <z3++.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "checker/symbolic/budget.hpp"
#include "checker/symbolic/buffer_order.hpp"
#include "checker/symbolic/confirm.hpp"
#include "checker/symbolic/cut_query.hpp"
#include "checker/symbolic/order_queries.hpp"
#include "checker/symbolic/pool_query.hpp"
#include "checker/symbolic/programs.hpp"
#include "checker/symbolic/stretch_chains.hpp"
#include "checker/symbolic/timeline.hpp"
#include "runtime/bounds/seconds.hpp"
#include "runtime/comm/rules/buffer_touch.hpp"
#include "runtime/comm/rules/violation.hpp"

namespace ordo::checker::symbolic {

namespace {

std::string quoted(const std::string& name) { return "'" + name + "'"; }

std::string plural(std::uint64_t n, const std::string& what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

// What a stage of the decision leaves behind: nothing settled, so the next stage runs; or the
// outcome is settled (safe, unsafe or undecided, in out_) and the decision ends.
enum class Flow : std::uint8_t { go_on, settled };

class Decision {
 public:
  Decision(const System& model, const SymbolicLimits& limits)
      : model_(model), limits_(limits), budget_(limits.seconds_max), programs_(model) {
    out_.result.ranks = model.ranks();
    out_.result.verdict = Verdict::unknown;
  }

  SymbolicResult run() {
    try {
      for (std::uint32_t p = 0; p < programs_.size(); ++p) {
        timelines_.push_back(std::make_unique<Timeline>(ctx_, programs_.hb(p)));
      }
      if (buffers() == Flow::go_on && orders() == Flow::go_on && sequences() == Flow::go_on) {
        progress();
      }
    } catch (const z3::exception& e) {
      undecided(std::string("Z3 failed: ") + e.msg());
    }
    // Soundness rests on these: `safe` only from a theorem's premises, `unsafe` only with a
    // witness the explicit transition system took (confirm.hpp), `undecided` always says why.
    if (out_.outcome == SymbolicResult::Outcome::unsafe &&
        (out_.result.witness.empty() || !out_.result.violation)) {
      throw std::logic_error("symbolic stage: unsafe without a confirmed witness");
    }
    if (out_.outcome == SymbolicResult::Outcome::undecided && out_.undecided_reason.empty()) {
      throw std::logic_error("symbolic stage: undecided without a reason");
    }
    for (const auto& t : timelines_) out_.queries += t->checks();
    out_.seconds = budget_.elapsed();
    out_.result.stats.seconds = out_.seconds;
    return std::move(out_);
  }

 private:
  bool uniform() const { return programs_.size() == 1; }

  std::string program_prefix(std::uint32_t p) const {
    return uniform() ? "" : "program " + quoted(programs_.program(p).name) + ", ";
  }

  std::string comm_name(dag::CommId c) const { return quoted(model_.job().comms.at(c).name); }

  std::string call_name(std::uint32_t p, const CallEvents& call) const {
    const std::string who = call.op ? "op " + quoted(programs_.program(p).ops[*call.op].name)
                                    : "main action " + std::to_string(call.main_action);
    return describe(model_, call.collective) + " (" + who + ")";
  }

  // Whether a check may start; sets `undecided` when the time is up.
  bool time_left() {
    if (!budget_.spent()) return true;
    undecided("the time limit of " + std::to_string(limits_.seconds_max) + " s ran out");
    out_.result.bound = Bound::seconds_max;
    out_.result.bound_value = bounds::whole_seconds(limits_.seconds_max);
    return false;
  }

  bool answered(Answer a, const std::string& what, const std::string& reason) {
    if (a != Answer::unknown) return true;
    if (!time_left()) return false;
    undecided("Z3 could not answer " + what + ": " + reason);
    return false;
  }

  // P5 for every program: each pair of touches that could race is ordered by happens-before
  // paths. A pair left unordered goes to the explicit search, which has the schedules and the
  // other ranks' matching that may still order it.
  Flow buffers() {
    for (std::uint32_t p = 0; p < programs_.size(); ++p) {
      const BufferOrder b =
          check_buffer_order(model_, programs_.program(p), programs_.hb(p), programs_.ranks_of(p));
      if (b.unordered) {
        undecided(program_prefix(p) + *b.unordered +
                  " (P5, docs/semantics.md B1-B3), and happens-before does not order them");
        return Flow::settled;
      }
      if (b.pairs > 0) {
        fact(program_prefix(p) + "buffers: " + plural(b.pairs, "pair") +
             " of touches that could race, each ordered (happens-before paths)");
      }
    }
    return Flow::go_on;
  }

  // (a) for every program and communicator.
  Flow orders() {
    for (std::uint32_t p = 0; p < programs_.size(); ++p) {
      Timeline& tl = *timelines_[p];
      for (dag::CommId c = 0; c < model_.comms(); ++c) {
        const std::vector<std::uint32_t> calls = calls_on(programs_.hb(p), c);
        if (calls.empty()) continue;
        if (!time_left()) return Flow::settled;
        ChainAnswer a = check_chain(tl, calls, Link::matched_before_issue, budget_.left());
        if (a.by_paths) ++out_.graph_proofs;
        if (!answered(a.answer, "the call order on " + comm_name(c),
                      a.reason.empty() ? tl.reason() : a.reason)) {
          return Flow::settled;
        }
        if (a.answer == Answer::sat) return order_broken(p, c, calls, std::move(a));
        fact(program_prefix(p) + "comm " + comm_name(c) + ": " + chain_fact(p, calls, a));
      }
    }
    return Flow::go_on;
  }

  // What (a) proved about the calls on one communicator.
  static const char* proof_of(const ChainAnswer& a) {
    return a.by_paths ? " (happens-before paths)" : " (Z3: unsat)";
  }

  std::string chain_fact(std::uint32_t p, const std::vector<std::uint32_t>& calls,
                         const ChainAnswer& a) const {
    if (calls.size() == 1) return "1 collective, nothing to order";
    bool async_links = false;
    const std::vector<CallEvents>& all = programs_.hb(p).calls();
    for (std::size_t i = 0; i + 1 < calls.size(); ++i) {
      async_links = async_links || !all[calls[i]].blocking;
    }
    const std::string each = async_links ? "each blocking one matched before the next issues"
                                         : "each one completing before the next issues";
    return plural(calls.size(), "collective") + " issued in one order, " + each + proof_of(a);
  }

  // Always settles: unsafe when a guided run confirms the broken order, else undecided.
  Flow order_broken(std::uint32_t p, dag::CommId c, const std::vector<std::uint32_t>& calls,
                    ChainAnswer a) {
    const HappensBefore& hb = programs_.hb(p);
    const CallEvents& first = hb.calls()[calls[a.link]];
    const CallEvents& second = hb.calls()[calls[a.link + 1]];
    const std::string what = program_prefix(p) + "comm " + comm_name(c) + ": " +
                             call_name(p, second) + " may issue before " + call_name(p, first) +
                             (first.blocking ? " completes" : " issues") + " (Z3: sat)";
    fact(what);
    OrderCandidate candidate{p, calls, a.link, Link::matched_before_issue, std::move(a.times), {}};
    if (time_left()) {
      Timeline& tl = *timelines_[p];
      std::vector<std::int64_t> kept;
      if (tl.check(!link_broken(tl, calls, a.link, Link::matched_before_issue), budget_.left(),
                   &kept) == Answer::sat) {
        candidate.kept_times = std::move(kept);
      }
    }
    if (std::optional<Result> r =
            confirm_order(model_, programs_, candidate, budget_, &out_.guided_runs)) {
      return unsafe(std::move(*r));
    }
    if (!time_left()) return Flow::settled;
    undecided(what +
              ", but no guided run reached a violation: the pools' dispatch order or "
              "thread counts may still order them, which only explicit search can tell");
    return Flow::settled;
  }

  // Jobs whose ranks run different programs: every member of a communicator must issue the same
  // calls there, in its own proven order.
  Flow sequences() {
    if (uniform()) return Flow::go_on;
    for (dag::CommId c = 0; c < model_.comms(); ++c) {
      const std::vector<dag::Rank>& members = model_.members(c);
      if (members.empty()) continue;
      std::optional<std::uint32_t> first_program;
      std::vector<const CallEvents*> reference;
      std::uint64_t longest = 0;
      bool same = true;
      for (dag::Rank m : members) {
        const std::uint32_t p = programs_.of_rank(m);
        const HappensBefore& hb = programs_.hb(p);
        std::vector<const CallEvents*> mine;
        for (std::uint32_t i : calls_on(hb, c)) mine.push_back(&hb.calls()[i]);
        longest = std::max<std::uint64_t>(longest, mine.size());
        if (!first_program) {
          first_program = p;
          reference = std::move(mine);
          continue;
        }
        if (p == *first_program) continue;
        const std::size_t common = std::min(mine.size(), reference.size());
        for (std::size_t n = 0; n < common; ++n) {
          if (!comm::matches(comm::call_of(mine[n]->collective), mine[n]->blocking,
                             comm::call_of(reference[n]->collective), reference[n]->blocking)) {
            return sequences_differ(c, n, members.front(), m);
          }
        }
        same = same && mine.size() == reference.size();
      }
      if (longest == 0) continue;
      if (same) {
        fact("comm " + comm_name(c) + ": its " + plural(members.size(), "member") +
             " issue the same " + plural(longest, "collective") + " in the same order");
      } else {
        fact("comm " + comm_name(c) +
             ": some members issue fewer collectives than others "
             "(the stuck-cut query decides whether that deadlocks)");
      }
    }
    return Flow::go_on;
  }

  // Always settles, as order_broken.
  Flow sequences_differ(dag::CommId c, std::size_t n, dag::Rank a, dag::Rank b) {
    const std::string what = "comm " + comm_name(c) + ": ranks " + std::to_string(a) + " and " +
                             std::to_string(b) + " issue different collectives as call " +
                             std::to_string(n);
    fact(what);
    if (std::optional<Result> r =
            confirm_in_event_order(model_, programs_, budget_, &out_.guided_runs)) {
      return unsafe(std::move(*r));
    }
    if (!time_left()) return Flow::settled;
    undecided(what + ", and a run in event order did not reach them both");
    return Flow::settled;
  }

  // P3: the deadlock theorem, or the stuck-cut query at a fixed rank count.
  void progress() {
    if (uniform()) {
      Timeline& tl = *timelines_[0];
      const std::vector<std::uint32_t> calls = all_calls(programs_.hb(0));
      if (!time_left()) return;
      // Only whether, and which link: no schedule is run from it.
      const ChainAnswer b =
          check_chain(tl, calls, Link::issue_before_issue, budget_.left(), /*times_needed=*/false);
      if (b.by_paths) ++out_.graph_proofs;
      if (!answered(b.answer, "the order of all calls",
                    b.reason.empty() ? tl.reason() : b.reason)) {
        return;
      }
      if (b.answer == Answer::unsat) {
        fact("all " + plural(calls.size(), "collective") +
             " of the program, on every communicator, issued in one order" + proof_of(b));
        runs_of_any_length();
        return safe_by_theorem();
      }
      const HappensBefore& hb = programs_.hb(0);
      fact("the calls on different communicators are not in one order: " +
           call_name(0, hb.calls()[calls[b.link + 1]]) + " may issue before " +
           call_name(0, hb.calls()[calls[b.link]]) +
           (b.by_paths ? " (no happens-before path between them)" : " (Z3: sat)"));
      const std::optional<bool> never_exhausted = pools_never_exhausted();
      if (!never_exhausted) return;  // settled: undecided
      if (*never_exhausted) return safe_by_theorem();
    }
    stuck_cuts();
  }

  // (c) for every pool: whether no pool can be exhausted; nullopt when that is not known (time
  // out, or Z3 gave no answer), which settles the decision as undecided.
  std::optional<bool> pools_never_exhausted() {
    const dag::Program& program = programs_.program(0);
    bool all = true;
    for (dag::PoolId pool = 0; pool < program.pools.size(); ++pool) {
      if (!time_left()) return std::nullopt;
      const PoolAnswer a = check_pool(ctx_, programs_.hb(0), program, pool, budget_.left());
      if (a.by_width) ++out_.graph_proofs;
      if (!a.counted && !a.by_width) ++out_.queries;
      const std::string name = "pool " + quoted(program.pools[pool].name) + " (" +
                               plural(program.pools[pool].threads, "thread") + ")";
      if (!answered(a.answer, "the exhaustion of " + name, a.reason)) return std::nullopt;
      if (a.answer == Answer::sat) {
        fact(name +
             ": may have every thread held by a blocking collective while another of "
             "its ops is ready (Z3: sat)");
        all = false;
      } else if (a.counted) {
        fact(name + ": " + plural(a.blocking_ops, "blocking collective op") + " among " +
             plural(a.ops, "op") + ", too few to hold every thread with work waiting");
      } else if (a.by_width) {
        fact(name +
             ": never has every thread held by blocking collectives while another of its "
             "ops is ready (happens-before order: at most " +
             plural(a.blocking_width, "blocking op") + " of its " + std::to_string(a.ops) +
             " in flight together, and no other op beside that many)");
      } else {
        fact(name +
             ": never has every thread held by blocking collectives while another of its "
             "ops is ready (Z3: unsat over " +
             plural(a.ops, "op") + ", " + plural(a.ordered_pairs, "ordered pair") + ")");
      }
    }
    return all;
  }

  void stuck_cuts() {
    const std::uint32_t n = model_.ranks();
    std::uint64_t booleans = 0;
    for (dag::Rank r = 0; r < n; ++r) booleans += programs_.hb_of_rank()[r]->events();
    if (booleans <= limits_.deadlock_events_max) {
      CutProblem problem;
      for (dag::Rank r = 0; r < n; ++r) {
        problem.ranks.push_back(CutRank{&model_.program(r), programs_.hb_of_rank()[r]});
      }
      for (dag::CommId c = 0; c < model_.comms(); ++c) problem.members.push_back(model_.members(c));
      problem.matchable.assign(model_.comms(), std::numeric_limits<std::uint64_t>::max());
      std::vector<std::uint32_t> identity(n);
      for (dag::Rank r = 0; r < n; ++r) identity[r] = r;
      return cut_query(problem, identity, n);
    }
    const std::uint64_t pair = 2 * std::uint64_t{programs_.hb(0).events()};
    if (uniform() && n >= 2 && pair <= limits_.deadlock_events_max) {
      // Two ranks in two different states, the rest copying the second: a stuck cut of two ranks
      // lifts to any rank count, since every call needs the same members either way.
      CutProblem problem;
      for (int r = 0; r < 2; ++r)
        problem.ranks.push_back(CutRank{&programs_.program(0), &programs_.hb(0)});
      for (dag::CommId c = 0; c < model_.comms(); ++c) problem.members.push_back({0, 1});
      problem.matchable.assign(model_.comms(), std::numeric_limits<std::uint64_t>::max());
      std::vector<std::uint32_t> lifted(n, 1);
      lifted[0] = 0;
      return cut_query(problem, lifted, 2);
    }
    undecided("deadlock freedom needs the stuck-cut query, and " + plural(booleans, "boolean") +
              " at " + plural(n, "rank") + " is over deadlock_events_max (" +
              std::to_string(limits_.deadlock_events_max) + ")");
  }

  void cut_query(const CutProblem& problem, const std::vector<std::uint32_t>& cut_of_rank,
                 std::uint32_t cut_ranks) {
    if (!time_left()) return;
    const CutAnswer a = check_stuck_cut(ctx_, problem, budget_.left());
    ++out_.queries;
    const std::string at = plural(cut_ranks, "rank");
    if (!answered(a.answer, "the stuck-cut query at " + at, a.reason)) return;
    if (a.answer == Answer::unsat) {
      if (cut_ranks != model_.ranks()) {
        undecided("no stuck cut of " + at + " (Z3: unsat), but at " +
                  plural(model_.ranks(), "rank") +
                  " more than two distinct rank states could still deadlock, and the query there "
                  "is over deadlock_events_max");
        return;
      }
      fact("no reachable stuck state at " + at +
           ": no happens-before cut with every pool, main "
           "thread and call blocked (Z3: unsat over " +
           plural(a.booleans, "boolean") + ")");
      return safe(false);
    }
    fact("a stuck cut at " + at + " satisfies every constraint (Z3: sat)");
    if (std::optional<Result> r =
            confirm_cut(model_, programs_, a.done, cut_of_rank, budget_, &out_.guided_runs)) {
      unsafe(std::move(*r));
      return;
    }
    if (!time_left()) return;
    undecided("a stuck cut at " + at +
              " satisfies the constraints, but a guided run did not "
              "reach it: the pools' dispatch order may exclude it");
  }

  // Theorem 4: what the program proves about runs longer than it.
  void runs_of_any_length() {
    const std::optional<std::vector<std::string>> chains =
        stretch_chains(programs_.program(0));
    // The theorem is about call order; P5 is proven for the program as given, and repeated steps
    // could set an uncovered touch beside a copy of itself, so it is claimed only where no touch
    // is uncovered (comm::may_race: then no repetition can race either).
    if (!chains || comm::may_race(programs_.program(0))) return;
    std::string vars;
    for (std::size_t i = 0; i < chains->size(); ++i) {
      if (i > 0) vars += i + 1 == chains->size() ? " and " : ", ";
      vars += quoted((*chains)[i]);
    }
    fact("every call is an op that writes its stretch's var (" + vars +
         ", one per stretch between wait_for_all): so does every call of these steps repeated "
         "any number of times, with or without a wait_for_all between them, and every such "
         "program is safe at every rank count (docs/symbolic.md, Theorem 4)");
  }

  void safe_by_theorem() {
    fact(
        "P1 and P2 hold at every rank count: every rank runs this program, so every rank issues "
        "the same calls on each communicator in the proven order (docs/symbolic.md, Theorem 1)");
    fact(
        "P3 holds at every rank count: a stuck state would need an unmatched call whose missing "
        "rank waits behind an earlier unmatched call, without end (docs/symbolic.md, Theorem 2)");
    safe(!model_.job().ranks.has_value());
  }

  void safe(bool every_rank_count) {
    fact(
        "P4 holds: a rank with no call in flight always has a transition, since its happens-before "
        "graph is acyclic and only collectives wait on other ranks (docs/symbolic.md, Lemma 3)");
    out_.outcome = SymbolicResult::Outcome::safe;
    out_.every_rank_count = every_rank_count;
    out_.result.verdict = Verdict::safe;
  }

  Flow unsafe(Result r) {
    out_.outcome = SymbolicResult::Outcome::unsafe;
    r.ranks = model_.ranks();
    fact(std::string(to_string(*r.property)) + " fails: a guided run of " +
         plural(r.witness.size(), "transition") + " reaches it on the explicit transition system");
    out_.result = std::move(r);
    return Flow::settled;
  }

  void undecided(std::string reason) {
    out_.outcome = SymbolicResult::Outcome::undecided;
    out_.result.verdict = Verdict::unknown;
    if (out_.undecided_reason.empty()) out_.undecided_reason = std::move(reason);
  }

  void fact(std::string text) { out_.facts.push_back(std::move(text)); }

  const System& model_;
  SymbolicLimits limits_;
  Budget budget_;
  Programs programs_;
  z3::context ctx_;
  std::vector<std::unique_ptr<Timeline>> timelines_;
  SymbolicResult out_;
};

}  // namespace

SymbolicResult decide(const System& model, const SymbolicLimits& limits) {
  return Decision(model, limits).run();
}

std::string_view to_string(SymbolicResult::Outcome outcome) {
  switch (outcome) {
    case SymbolicResult::Outcome::safe:
      return "safe";
    case SymbolicResult::Outcome::unsafe:
      return "unsafe";
    case SymbolicResult::Outcome::undecided:
      return "undecided";
  }
  return "?";
}

std::string from_words(const System& model) {
  if (model.valid_from() <= 1 && model.valid_divides() == 0) return "";
  return valid_counts_words(model) + " (the job is not valid at other counts)";
}

std::string report(const System& model, const SymbolicResult& result) {
  std::string out = "symbolic: " + std::string(to_string(result.outcome));
  if (result.outcome == SymbolicResult::Outcome::safe) {
    out += result.every_rank_count ? " at every rank count" + from_words(model)
                                   : " at " + plural(result.result.ranks, "rank");
  }
  out += "\n";
  for (const std::string& f : result.facts) out += "  - " + f + "\n";
  if (result.outcome == SymbolicResult::Outcome::unsafe) out += report(model, result.result);
  if (result.outcome == SymbolicResult::Outcome::undecided) {
    out += "undecided: " + result.undecided_reason + "\n";
  }
  out += std::to_string(result.queries) + (result.queries == 1 ? " Z3 query, " : " Z3 queries, ") +
         plural(result.graph_proofs, "proof") + " from the graph alone, " +
         plural(result.guided_runs, "guided run") + ", " + std::to_string(result.seconds) + " s\n";
  return out;
}

}  // namespace ordo::checker::symbolic
