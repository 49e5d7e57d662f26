#include "checker/promela/bounds.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "checker/promela/export.hpp"
#include "checker/symbolic/buffer_order.hpp"
#include "checker/symbolic/hb.hpp"
#include "runtime/comm/rules/completion.hpp"

namespace ordo::checker::promela {

namespace {

// Every field of the model is a byte. 255 is reserved where a field also says "none" (a free
// thread's op, the main thread as issuer), hence the lower limit there.
constexpr std::uint64_t byte_max = 255;
constexpr std::uint64_t byte_max_with_none = 254;
// SPIN numbers processes with a byte.
constexpr std::uint64_t processes_max = 255;

void check(std::uint64_t count, std::uint64_t limit, const std::string& what) {
  if (count > limit) {
    throw ExportError(what + " is " + std::to_string(count) + "; the Promela model holds at most " +
                      std::to_string(limit));
  }
}

std::string program_label(const dag::Program& program) { return "program '" + program.name + "'"; }

// Calls per communicator that one run of `program` issues: its collective ops and its
// main-thread collectives.
std::map<dag::CommId, std::uint64_t> calls_per_comm(const dag::Program& program) {
  std::map<dag::CommId, std::uint64_t> calls;
  for (const dag::Op& op : program.ops) {
    if (op.collective) ++calls[op.collective->comm];
  }
  for (const dag::Action& action : program.main) {
    if (const auto* call = std::get_if<dag::CollectiveAction>(&action)) {
      ++calls[call->collective.comm];
    }
  }
  return calls;
}

void fold_program(const dag::Program& program, Bounds& b) {
  const std::string label = program_label(program);
  check(program.ops.size(), byte_max_with_none, "the op count of " + label);
  check(program.vars.size(), byte_max, "the var count of " + label);
  check(program.pools.size(), byte_max, "the pool count of " + label);
  check(program.main.size(), byte_max, "the main action count of " + label);
  b.ops = std::max(b.ops, static_cast<std::uint32_t>(program.ops.size()));
  b.vars = std::max(b.vars, static_cast<std::uint32_t>(program.vars.size()));
  b.pools = std::max(b.pools, static_cast<std::uint32_t>(program.pools.size()));
  b.actions = std::max(b.actions, static_cast<std::uint32_t>(program.main.size()));
  for (const dag::Pool& pool : program.pools) {
    check(pool.threads, byte_max_with_none,
          "the thread count of pool '" + pool.name + "' in " + label);
    b.threads = std::max(b.threads, pool.threads);
  }
  std::vector<std::uint64_t> per_var(program.vars.size(), 0);
  std::vector<std::uint64_t> per_pool(program.pools.size(), 0);
  for (const dag::Op& op : program.ops) {
    const std::uint64_t accesses = op.reads.size() + op.writes.size();
    check(accesses, byte_max, "the var count of op '" + op.name + "' in " + label);
    b.accesses = std::max(b.accesses, static_cast<std::uint32_t>(accesses));
    for (const dag::VarId v : op.reads) ++per_var.at(v);
    for (const dag::VarId v : op.writes) ++per_var.at(v);
    ++per_pool.at(op.pool);
  }
  for (std::size_t v = 0; v < per_var.size(); ++v) {
    check(per_var[v], byte_max,
          "the number of ops naming var '" + program.vars[v].name + "' in " + label);
    b.var_queue = std::max(b.var_queue, static_cast<std::uint32_t>(per_var[v]));
  }
  for (std::size_t p = 0; p < per_pool.size(); ++p) {
    check(per_pool[p], byte_max,
          "the number of ops of pool '" + program.pools[p].name + "' in " + label);
    b.run_queue = std::max(b.run_queue, static_cast<std::uint32_t>(per_pool[p]));
  }
  std::uint64_t all_calls = 0;
  for (const auto& [comm, calls] : calls_per_comm(program)) {
    check(calls, byte_max, "the number of calls " + label + " issues on one communicator");
    b.calls = std::max(b.calls, static_cast<std::uint32_t>(calls));
    all_calls += calls;
  }
  check(all_calls, byte_max, "the number of calls " + label + " issues");
  b.stream = std::max(b.stream, static_cast<std::uint32_t>(all_calls));
}

// The checker refuses a call on a communicator its rank is not in only when an execution
// reaches it; the model has no such refusal, so the export refuses it up front.
void check_membership(const System& model, dag::Rank rank) {
  const dag::Program& program = model.program(rank);
  for (const auto& [comm, calls] : calls_per_comm(program)) {
    if (model.member_of(comm, rank) < 0) {
      throw ExportError("rank " + std::to_string(rank) + " runs " + program_label(program) +
                        ", which issues collectives on communicator '" +
                        model.job().comms.at(comm).name + "', and is not a member of it");
    }
  }
}

// Whether some call of the rank's program may return before its match.
bool returns_early(const System& model, dag::Rank rank) {
  const dag::Program& program = model.program(rank);
  for (const dag::Op& op : program.ops) {
    if (op.collective && early_kind(model, *op.collective) != 0) return true;
  }
  for (const dag::Action& a : program.main) {
    const auto* c = std::get_if<dag::CollectiveAction>(&a);
    if (c != nullptr && early_kind(model, c->collective) != 0) return true;
  }
  return false;
}

}  // namespace

std::uint32_t early_kind(const System& model, const dag::Collective& collective) {
  if (!comm::may_complete_early(model.backend()) || model.members(collective.comm).size() < 2) {
    return 0;
  }
  // The model's three shapes of comm::completion_needs, read from the rule itself.
  const comm::Call call = comm::call_of(collective);
  if (comm::completion_needs(call, 0) == comm::CompletionNeeds::prefix) return 3;
  if (!call.root) return 0;
  const std::size_t root = *call.root;
  const comm::CompletionNeeds at_root = comm::completion_needs(call, root);
  const comm::CompletionNeeds elsewhere = comm::completion_needs(call, root == 0 ? 1 : 0);
  if (at_root == comm::CompletionNeeds::own && elsewhere == comm::CompletionNeeds::root) return 1;
  if (at_root == comm::CompletionNeeds::all && elsewhere == comm::CompletionNeeds::own) return 2;
  return 0;
}

Bounds compute_bounds(const System& model) {
  // The model states collectives matched by call order (C1-C5); it has no channels (§3b).
  if (dag::has_point_to_point(model.job())) {
    throw ExportError(
        "the job sends and receives messages (docs/semantics.md, §3b), and the Promela model "
        "states collectives only; check it with the explicit search");
  }
  // Nor does it state buffers (B1-B3): SPIN's "safe" covers P5 only where happens-before orders
  // every pair of touches that could race, which is then a proof of P5 of its own.
  for (dag::Rank r = 0; r < model.ranks(); ++r) {
    if (!model.may_race(r)) continue;
    const symbolic::BufferOrder order = symbolic::check_buffer_order(
        model, model.program(r), symbolic::HappensBefore(model.program(r)), {r});
    if (order.unordered) {
      throw ExportError(*order.unordered +
                        " (docs/semantics.md, B1-B3), and the Promela model states P1-P4 only; "
                        "check P5 with the explicit search");
    }
  }
  Bounds b;
  check(model.ranks(), byte_max, "the rank count");
  check(model.comms(), byte_max, "the communicator count");
  b.ranks = model.ranks();
  b.comms = std::max<std::uint32_t>(1, model.comms());
  for (dag::CommId c = 0; c < model.comms(); ++c) {
    b.members = std::max(b.members, static_cast<std::uint32_t>(model.members(c).size()));
  }
  std::uint64_t processes = 1;
  for (dag::Rank r = 0; r < model.ranks(); ++r) {
    const dag::Program& program = model.program(r);
    fold_program(program, b);
    check_membership(model, r);
    b.early = b.early || returns_early(model, r);
    processes += 1;
    for (const dag::Pool& pool : program.pools) processes += pool.threads;
    for (const dag::Op& op : program.ops) {
      if (op.kind == dag::OpKind::async_collective) ++processes;
    }
  }
  if (b.early) ++processes;  // Sync
  check(processes, processes_max,
        "the number of SPIN processes (init, Sync where calls may return early, and per rank its "
        "main thread, pool threads and async collective ops)");
  b.processes = static_cast<std::uint32_t>(processes);
  return b;
}

}  // namespace ordo::checker::promela
