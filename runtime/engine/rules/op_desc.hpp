// What the engine needs to know about an op, mirroring dag::Op field for field so that recording
// the program is a plain translation (var handles become var ids).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/dag/program.hpp"
#include "runtime/engine/rules/handles.hpp"

namespace ordo::engine {

// Every member has a default so that aggregate initialisation may stop after any field.
struct OpDesc {
  std::string name{};
  std::vector<VarHandle> reads{};
  std::vector<VarHandle> writes{};
  dag::PoolId pool = 0;
  std::int32_t priority = 0;  // used by priority pools only; higher runs first
  // async_collective exactly for ops submitted with submit_async; the IR has no other async kind.
  dag::OpKind kind = dag::OpKind::compute;
  double cost_us = 0.0;  // recorded for simulators, never read by the semantics
  std::optional<dag::Collective> collective{};  // present exactly for collective kinds
};

// The engine's view of a program op, its vars named through `var_of` (a program var id to the
// engine's handle: the identity in the checker, the executor's table at run time).
template <class VarOf>
OpDesc desc_of(const dag::Op& op, VarOf&& var_of) {
  OpDesc d;
  d.name = op.name;
  for (dag::VarId v : op.reads) d.reads.push_back(var_of(v));
  for (dag::VarId v : op.writes) d.writes.push_back(var_of(v));
  d.pool = op.pool;
  d.priority = op.priority;
  d.kind = op.kind;
  d.cost_us = op.cost_us;
  d.collective = op.collective;
  return d;
}

// Whether running the op's body is a transition of its own, after the claim (docs/semantics.md,
// S3). A worker claims an op under the engine lock and runs its body outside it, so other threads
// act in between. For a collective op that gap is visible: its body issues the call, and another
// worker of the same pool can claim and issue first. Any other op's body touches only the vars it
// was granted, which no other party reads or writes before the op completes, so its claim and
// body may be taken as one transition without losing an outcome. This is the one place that
// decides it; the controlled scheduler and the checker both ask here.
inline bool body_is_own_transition(dag::OpKind kind) { return dag::is_collective(kind); }

}  // namespace ordo::engine
