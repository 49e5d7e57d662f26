#include <array>
#include <cassert>
#include <limits>
#include <string_view>

#include "runtime/dag/detail/read_parts.hpp"
#include "runtime/dag/limits.hpp"
#include "runtime/json/pointer.hpp"

namespace ordo::dag::detail {
namespace {

constexpr std::array<std::string_view, 5> program_required = {"name", "pools", "vars", "ops",
                                                              "main"};
constexpr std::array<std::string_view, 1> program_optional = {"ranks"};
constexpr json::ObjectSpec program_spec = {"a program", program_required, program_optional};

constexpr std::array<std::string_view, 2> pool_required = {"name", "threads"};
constexpr std::array<std::string_view, 1> pool_optional = {"kind"};
constexpr json::ObjectSpec pool_spec = {"a pool", pool_required, pool_optional};

constexpr std::array<std::string_view, 1> var_required = {"name"};
constexpr std::array<std::string_view, 3> var_optional = {"kind", "bytes", "dtype"};
constexpr json::ObjectSpec var_spec = {"a var", var_required, var_optional};

// "all" and an absent field both mean every rank of the job.
std::optional<std::vector<Rank>> read_program_ranks(const std::optional<Node>& node) {
  if (!node.has_value()) {
    return std::nullopt;
  }
  if (node->value().is_string()) {
    json::read_choice(*node, std::array<std::string_view, 1>{"all"}, "rank selection");
    return std::nullopt;
  }
  if (!node->value().is_array()) {
    node->fail_found("\"all\" or an array of ranks");
  }
  return read_rank_list(*node);
}

std::vector<Pool> read_pools(const json::Node& node, NameTable& names) {
  const std::size_t count = json::read_array(node, limits::pools_max, "pools");
  names.reserve(count);
  std::vector<Pool> pools(count);
  for (std::size_t i = 0; i < count; ++i) {
    const json::ObjectNode object(node.element(i), pool_spec);
    object.reject_unknown_fields();
    Pool& pool = pools[i];
    pool.name = names.add(object.required("name"));
    pool.threads = static_cast<std::uint32_t>(
        json::read_unsigned(object.required("threads"), limits::pool_threads_max));
    if (const std::optional<Node> kind = object.optional("kind")) {
      pool.kind = read_enum<PoolKind>(*kind, "pool kind");
    }
  }
  return pools;
}

std::vector<Var> read_vars(const json::Node& node, NameTable& names) {
  const std::size_t count = json::read_array(node, limits::vars_max, "vars");
  names.reserve(count);
  std::vector<Var> vars(count);
  for (std::size_t i = 0; i < count; ++i) {
    const json::ObjectNode object(node.element(i), var_spec);
    object.reject_unknown_fields();
    Var& var = vars[i];
    var.name = names.add(object.required("name"));
    if (const std::optional<Node> kind = object.optional("kind")) {
      var.kind = read_enum<VarKind>(*kind, "var kind");
    }
    if (const std::optional<Node> bytes = object.optional("bytes")) {
      var.bytes = json::read_unsigned(*bytes, std::numeric_limits<std::uint64_t>::max());
    }
    if (const std::optional<Node> dtype = object.optional("dtype")) {
      var.dtype = read_enum<DType>(*dtype, "dtype");
    }
  }
  return vars;
}

}  // namespace

std::vector<Rank> read_rank_list(const json::Node& node) {
  static_assert(limits::ranks_max > 0);
  const std::size_t count = json::read_array(node, limits::ranks_max, "ranks");
  std::vector<Rank> ranks(count);
  for (std::size_t i = 0; i < count; ++i) {
    ranks[i] = static_cast<Rank>(json::read_unsigned(node.element(i), limits::ranks_max - 1));
  }
  return ranks;
}

Program read_program(const json::Node& node, std::uint64_t version, const NameTable& comms,
                     NameTable& programs) {
  const json::ObjectNode object(node, program_spec);
  object.reject_unknown_fields();
  Program program;
  program.name = programs.add(object.required("name"));
  program.ranks = read_program_ranks(object.optional("ranks"));

  NameTable pools("pool", json::pointer_child(node.pointer(), "pools"));
  NameTable vars("var", json::pointer_child(node.pointer(), "vars"));
  NameTable ops("op", json::pointer_child(node.pointer(), "ops"));
  program.pools = read_pools(object.required("pools"), pools);
  program.vars = read_vars(object.required("vars"), vars);
  program.ops = read_ops(object.required("ops"), version, comms, pools, vars, ops);
  program.main = read_main(object.required("main"), version, comms, vars, ops);
  assert(pools.size() == program.pools.size() && vars.size() == program.vars.size());
  assert(ops.size() == program.ops.size());
  return program;
}

}  // namespace ordo::dag::detail
