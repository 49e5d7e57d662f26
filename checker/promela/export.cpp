#include "checker/promela/export.hpp"

#include <sstream>

#include "checker/promela/bounds.hpp"
#include "checker/promela/generic_model.hpp"
#include "checker/promela/instance.hpp"

namespace ordo::checker::promela {

namespace {

// Each main action is one transition and the main thread's end one more; each op is claimed and
// completes once, and a collective op issues once in between; init takes one transition for its
// tables and one per process it starts. Twice that leaves room for SPIN's own bookkeeping
// transitions, and costs only stack.
std::uint64_t depth_max(const System& model, const Bounds& b) {
  std::uint64_t transitions = 2 + b.processes;
  for (dag::Rank r = 0; r < model.ranks(); ++r) {
    const dag::Program& p = model.program(r);
    transitions += p.main.size() + 1 + 2 * p.ops.size();
    for (const dag::Op& op : p.ops) {
      if (dag::is_collective(op.kind)) ++transitions;
    }
  }
  return 2 * transitions + 64;
}

// The bytes of the global state (state.pml's typedefs, one byte per field, bits included) and
// of the processes (a few bytes each, their parameters included), with room to spare: SPIN
// refuses to run when the vector exceeds VECTORSZ, and a larger bound costs nothing per state.
std::uint64_t vector_bytes(const Bounds& b) {
  const std::uint64_t var = 5 + 2 * std::uint64_t{b.var_queue};
  const std::uint64_t pool = 2 + std::uint64_t{b.run_queue} + b.threads;
  const std::uint64_t rank = 3 + 4 * std::uint64_t{b.ops} + b.vars * var + b.pools * pool;
  const std::uint64_t comm =
      1 + b.members + 2 * std::uint64_t{b.calls} + std::uint64_t{b.members} * b.calls;
  const std::uint64_t stream = 1 + 3 * std::uint64_t{b.stream};  // counted for MPI too: it is small
  const std::uint64_t total =
      b.ranks * (rank + stream) + b.comms * comm + 8 * std::uint64_t{b.processes};
  const std::uint64_t padded = 2 * total + 256;
  return (padded + 1023) / 1024 * 1024;
}

void write_header(std::ostream& out, const System& model, const SpinHints& hints) {
  out << "/*\n"
         " * The ordo engine and collective semantics (docs/semantics.md) for one job, exported\n"
         " * by `ordo export-promela`; docs/promela.md explains the model.\n"
      << " * Job: " << model.ranks() << " rank(s), " << model.comms() << " communicator(s).\n"
      << " * Check every execution:\n"
         " *   spin -a FILE\n"
      << " *   cc -O2 -DSAFETY -DVECTORSZ=" << hints.vector_bytes << " -o pan pan.c\n"
      << " *   ./pan -m" << hints.depth_max << "\n"
      << " * errors: 0 (with no 'max search depth too small'): safe, P1-P4 hold at this rank "
         "count\n"
         " * assertion violated p1_order_consistent: P1, the n-th calls on a communicator differ\n"
         " * assertion violated p2_thread_rule_kept: P2, the MPI thread rule is broken\n"
         " * invalid end state: P3 (P4 when no collective is involved), ranks are stuck\n"
         " * One property alone: spin -DORDO_REPORT_P1=0 and/or -DORDO_REPORT_P2=0 -a FILE;\n"
         " * ./pan -E leaves deadlocks out.\n"
         " */\n\n";
}

}  // namespace

SpinHints spin_hints(const System& model) {
  const Bounds b = compute_bounds(model);
  return SpinHints{depth_max(model, b), vector_bytes(b), b.processes};
}

std::string export_promela(const System& model) {
  const Bounds bounds = compute_bounds(model);
  const SpinHints hints{depth_max(model, bounds), vector_bytes(bounds), bounds.processes};
  std::ostringstream out;
  write_header(out, model, hints);
  out << "/* The instance's bounds. */\n";
  write_defines(out, bounds, model.backend());
  out << '\n' << generic_model() << '\n';
  out << "/* The instance: every rank's program and every communicator, then the processes. */\n";
  write_init(out, model);
  return out.str();
}

}  // namespace ordo::checker::promela
