// The happens-before graph of one rank's program: the orderings the engine guarantees on every
// schedule, and only those. Var queues order accesses; a FIFO pool of one thread also orders two
// of its ops when the first is ready before the second is submitted (docs/symbolic.md, Lemma 4).
// Other dispatch orders (priority pools, several threads) can order more; the graph leaves them
// out, so an ordering proven from it holds on every schedule, and an ordering it cannot prove is
// only a candidate violation until a concrete run confirms it.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "runtime/dag/program.hpp"

namespace ordo::checker::symbolic {

using EventId = std::uint32_t;

enum class EventKind : std::uint8_t {
  main,      // a main action: a submission, a wait, or the issue of a main-thread collective
  returned,  // a main-thread collective returns (at its match, or early: docs/semantics.md C4)
  start,     // an op starts; a collective op issues its call when it starts
  complete,  // an op completes
};

struct Event {
  EventKind kind = EventKind::main;
  std::uint32_t index = 0;  // the main action's index, or the op's id
};

// A collective call of the program, by the events that issue and complete it. `complete` is the
// op's completion, or the return of a main-thread collective; both happen once the call matched
// on every member, or earlier once the members it needs issued (docs/semantics.md, C4).
struct CallEvents {
  EventId issue = 0;
  EventId complete = 0;
  std::optional<dag::OpId> op;    // nullopt: the main thread
  std::uint32_t main_action = 0;  // the action that submits the op, or that calls the collective
  dag::Collective collective;
  bool blocking = true;  // holds its issuer (a pool thread, or the main thread) until it matched
};

// Event ids are a topological order of the graph, which the queries and the profiles rely on:
// every edge goes from a smaller id to a larger one. The main actions come in program order; a
// submitted op's start and completion follow its submission, and a main-thread collective's return
// follows its issue.
class HappensBefore {
 public:
  // Requires a program that passed dag::validate (every op submitted once, references in range);
  // throws std::invalid_argument otherwise.
  explicit HappensBefore(const dag::Program& program);

  std::uint32_t events() const { return static_cast<std::uint32_t>(events_.size()); }
  const Event& event(EventId e) const { return events_.at(e); }
  // The events that must happen right before `e` (the edges into it); transitively, every event
  // that happens before it.
  const std::vector<EventId>& preds(EventId e) const { return preds_.at(e); }
  std::uint64_t edges() const { return edges_; }
  // The edges the FIFO-dispatch rule added (Lemma 4), for reports.
  std::uint64_t fifo_edges() const { return fifo_edges_; }

  EventId main(std::uint32_t action) const { return main_.at(action); }
  EventId start(dag::OpId op) const { return start_.at(op); }
  EventId complete(dag::OpId op) const { return complete_.at(op); }

  // Every collective call, in event order.
  const std::vector<CallEvents>& calls() const { return calls_; }

  // Whether `from` happens before `to` on every schedule (a path of edges), by search; for tests
  // and reports, not for the queries.
  bool reaches(EventId from, EventId to) const;
  // `target` and every event that happens before it.
  std::vector<bool> ancestors(EventId target) const;
  // The targets and every event that happens before one of them.
  std::vector<bool> ancestors(const std::vector<EventId>& targets) const;

 private:
  EventId add(EventKind kind, std::uint32_t index);
  void edge(EventId from, EventId to);
  void fifo_edge(const dag::Program& program, dag::OpId a, dag::OpId b, EventId submit_b);

  std::vector<Event> events_;
  std::vector<std::vector<EventId>> preds_;
  std::uint64_t edges_ = 0;
  std::uint64_t fifo_edges_ = 0;
  std::vector<EventId> main_;
  std::vector<EventId> start_;
  std::vector<EventId> complete_;
  std::vector<std::size_t> readiness_;  // per op: how many of its start's preds make it ready
  std::vector<CallEvents> calls_;
};

}  // namespace ordo::checker::symbolic
