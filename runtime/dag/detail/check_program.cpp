// Rules for a program's tables: pools, vars and ops, each op's var lists and collective spec.
#include <algorithm>
#include <cassert>
#include <cmath>

#include "runtime/dag/collective_buffer.hpp"
#include "runtime/dag/detail/check_parts.hpp"
#include "runtime/dag/limits.hpp"
#include "runtime/json/pointer.hpp"
#include "runtime/json/quote.hpp"

namespace ordo::dag::detail {
namespace {

void check_pools(const ProgramScope& scope, Findings& findings) {
  const std::vector<Pool>& pools = scope.program().pools;
  const std::string where = json::pointer_child(scope.pointer(), "pools");
  check_table_size(pools.size(), limits::pools_max, where, "pools", findings);
  check_entry_names(pools, where, "pool", findings);
  for (std::size_t i = 0; i < pools.size(); ++i) {
    if (pools[i].threads == 0 || pools[i].threads > limits::pool_threads_max) {
      findings.push_back({Location(where, i, "threads").str(),
                          "pool " + json::quote(pools[i].name) + " has " +
                              std::to_string(pools[i].threads) + " threads",
                          "from 1 to " + std::to_string(limits::pool_threads_max) + " threads"});
    }
    check_enum(pools[i].kind, Location(where, i, "kind"), "pool kind", findings);
  }
}

void check_vars(const ProgramScope& scope, Findings& findings) {
  const std::vector<Var>& vars = scope.program().vars;
  const std::string where = json::pointer_child(scope.pointer(), "vars");
  check_table_size(vars.size(), limits::vars_max, where, "vars", findings);
  check_entry_names(vars, where, "var", findings);
  for (std::size_t i = 0; i < vars.size(); ++i) {
    check_enum(vars[i].kind, Location(where, i, "kind"), "var kind", findings);
    check_enum(vars[i].dtype, Location(where, i, "dtype"), "dtype", findings);
  }
}

// One var of an op's lists, for finding repeats by sorting: entries of one var end up together,
// reads before writes, each list in its own order.
struct VarUse {
  VarId var = 0;
  bool written = false;
  std::size_t position = 0;
  friend auto operator<=>(const VarUse&, const VarUse&) = default;
};

// Each var at most once per op: a var read and written is simply written (a write excludes every
// other access), and a repeated var would make the engine queue the op twice on it. Sorting keeps
// the cost at n log n for lists of any length.
void check_op_vars(const ProgramScope& scope, const Op& op, const std::string& op_where,
                   std::vector<VarUse>& uses, Findings& findings) {
  const std::vector<Var>& vars = scope.program().vars;
  const std::string reads_where = json::pointer_child(op_where, "reads");
  const std::string writes_where = json::pointer_child(op_where, "writes");
  check_table_size(op.reads.size(), limits::op_vars_max, reads_where, "vars", findings);
  check_table_size(op.writes.size(), limits::op_vars_max, writes_where, "vars", findings);
  uses.clear();
  for (const bool written : {false, true}) {
    const std::vector<VarId>& list = written ? op.writes : op.reads;
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (check_index(list[i], vars.size(), Location(written ? writes_where : reads_where, i),
                      "var", findings)) {
        uses.push_back({list[i], written, i});
      }
    }
  }
  std::sort(uses.begin(), uses.end());
  const VarUse* first_read = nullptr;  // of the var being looked at
  const VarUse* first_write = nullptr;
  for (std::size_t i = 0; i < uses.size(); ++i) {
    const VarUse& use = uses[i];
    if (i == 0 || use.var != uses[i - 1].var) {
      first_read = nullptr;
      first_write = nullptr;
    }
    const VarUse*& first_in_list = use.written ? first_write : first_read;
    const std::string& list_where = use.written ? writes_where : reads_where;
    if (first_in_list != nullptr) {
      findings.push_back({json::pointer_child(list_where, use.position),
                          "var " + json::quote(vars[use.var].name) + " is listed twice in " +
                              (use.written ? "writes" : "reads") + " (first at " +
                              json::pointer_child(list_where, first_in_list->position) + ")",
                          "each var once per op"});
    } else if (use.written && first_read != nullptr) {
      findings.push_back({json::pointer_child(list_where, use.position),
                          "var " + json::quote(vars[use.var].name) +
                              " is both read and written by op " + json::quote(op.name) +
                              " (read at " +
                              json::pointer_child(reads_where, first_read->position) + ")",
                          "a var in reads or in writes, not both (a write may also read)"});
    }
    if (first_in_list == nullptr) {
      first_in_list = &use;
    }
  }
}

// Collective kinds carry exactly one spec; the spec's own rules are check_collective's.
void check_op_collective(ProgramScope& scope, const Op& op, const std::string& op_where,
                         Findings& findings) {
  if (!is_collective(op.kind)) {
    if (op.collective.has_value()) {
      findings.push_back({json::pointer_child(op_where, "collective"),
                          std::string(to_string(op.kind)) + " op " + json::quote(op.name) +
                              " has a collective spec",
                          "no 'collective' field on compute and copy ops"});
    }
    return;
  }
  if (!op.collective.has_value()) {
    findings.push_back({op_where,
                        std::string(to_string(op.kind)) + " op " + json::quote(op.name) +
                            " has no collective spec",
                        "a 'collective' field on collective and async_collective ops"});
    return;
  }
  // The var the collective fills is the one the runtime picks (dag::collective_buffer).
  const std::vector<Var>& vars = scope.program().vars;
  const std::optional<VarId> picked = collective_buffer(op, vars).buffer;
  const Var* buffer = picked ? &vars[*picked] : nullptr;
  const Collective& c = *op.collective;
  if (buffer == nullptr && c.kind != CollectiveKind::barrier && c.count > 0) {
    findings.push_back({op_where,
                        std::string(to_string(op.kind)) + " op " + json::quote(op.name) +
                            " moves " + std::to_string(c.count) +
                            " elements but reads and writes no data var",
                        "a tensor or buffer var among its writes (or reads) to hold the data"});
  }
  check_collective(c, json::pointer_child(op_where, "collective"), buffer, scope, findings);
}

// The runtime's copy op moves one var's bytes into another, packs several vars end to end into
// one (a fused bucket) or unpacks one into several; packed parts must fill the whole exactly, so
// that what is unpacked is what was packed, and hold the whole's element type: a bucket is
// reduced by one call of one datatype, and an f64 part reduced as f32 pairs would be summed as
// the wrong numbers on every rank alike, which no call order reveals (MPI-3.1 section 3.3.1: the
// type of each variable in a buffer must match the call's datatype). Token parts carry no data.
void check_copy(const Op& op, const std::vector<Var>& vars, const std::string& op_where,
                Findings& findings) {
  if (op.kind != OpKind::copy) return;
  if (op.reads.empty() || op.writes.empty() || (op.reads.size() > 1 && op.writes.size() > 1)) {
    findings.push_back({op_where,
                        "copy op " + json::quote(op.name) + " reads " +
                            std::to_string(op.reads.size()) + " var(s) and writes " +
                            std::to_string(op.writes.size()),
                        "a copy reads one var and writes one, reads several and writes one "
                        "(pack) or reads one and writes several (unpack)"});
    return;
  }
  if (op.reads.size() == 1 && op.writes.size() == 1) return;
  const bool pack = op.reads.size() > 1;
  const std::vector<VarId>& parts = pack ? op.reads : op.writes;
  const VarId whole = pack ? op.writes[0] : op.reads[0];
  std::uint64_t bytes = 0;
  bool overflow = false;
  for (VarId v : parts) {
    if (v >= vars.size() || whole >= vars.size()) return;  // check_op_vars reports those
    overflow |= __builtin_add_overflow(bytes, vars[v].bytes, &bytes);
  }
  if (overflow || bytes != vars[whole].bytes) {
    findings.push_back({op_where,
                        std::string(pack ? "pack" : "unpack") + " op " + json::quote(op.name) +
                            " moves " +
                            (overflow ? std::string("more than 2^64") : std::to_string(bytes)) +
                            " bytes of parts but var " + json::quote(vars[whole].name) + " holds " +
                            std::to_string(vars[whole].bytes),
                        "parts whose bytes add up to the whole's"});
  }
  const auto other_type = std::find_if(parts.begin(), parts.end(), [&](VarId v) {
    return vars[v].kind != VarKind::token && vars[v].dtype != vars[whole].dtype;
  });
  if (other_type != parts.end()) {
    findings.push_back(
        {op_where,
         std::string(pack ? "pack" : "unpack") + " op " + json::quote(op.name) + " " +
             (pack ? "packs" : "unpacks") + " var " + json::quote(vars[*other_type].name) + " of " +
             std::string(to_string(vars[*other_type].dtype)) + (pack ? " into " : " out of ") +
             "var " + json::quote(vars[whole].name) + " of " +
             std::string(to_string(vars[whole].dtype)),
         "parts of the whole's dtype (one bucket, one datatype)"});
  }
}

void check_op(ProgramScope& scope, std::size_t index, std::vector<VarUse>& uses,
              Findings& findings) {
  const Program& program = scope.program();
  const Op& op = program.ops[index];
  const std::string where = json::pointer_child(json::pointer_child(scope.pointer(), "ops"), index);
  check_index(op.pool, program.pools.size(), Location(where, "pool"), "pool", findings);
  check_op_vars(scope, op, where, uses, findings);
  if (!std::isfinite(op.cost_us) || op.cost_us < 0) {
    findings.push_back({json::pointer_child(where, "cost_us"),
                        "cost_us " + std::to_string(op.cost_us) + " is negative or not finite",
                        "a finite number of at least 0"});
  }
  if (check_enum(op.kind, Location(where, "kind"), "op kind", findings)) {
    check_op_collective(scope, op, where, findings);
    check_copy(op, program.vars, where, findings);
  }
}

}  // namespace

void check_program(ProgramScope& scope, Findings& findings) {
  const Program& program = scope.program();
  check_pools(scope, findings);
  check_vars(scope, findings);
  const std::string ops_where = json::pointer_child(scope.pointer(), "ops");
  check_table_size(program.ops.size(), limits::ops_max, ops_where, "ops", findings);
  check_entry_names(program.ops, ops_where, "op", findings);
  std::vector<VarUse> uses;  // reused by every op
  for (std::size_t i = 0; i < program.ops.size(); ++i) {
    check_op(scope, i, uses, findings);
  }
  check_main(scope, findings);
}

}  // namespace ordo::dag::detail
