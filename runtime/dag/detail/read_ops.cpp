#include <array>
#include <cassert>
#include <limits>
#include <string>
#include <string_view>

#include "runtime/dag/detail/read_parts.hpp"
#include "runtime/dag/dump_format.hpp"
#include "runtime/dag/limits.hpp"
#include "runtime/json/quote.hpp"

namespace ordo::dag::detail {
namespace {

constexpr std::array<std::string_view, 3> op_required = {"name", "kind", "pool"};
constexpr std::array<std::string_view, 5> op_optional = {"reads", "writes", "priority", "cost_us",
                                                         "collective"};
constexpr json::ObjectSpec op_spec = {"an op", op_required, op_optional};

constexpr std::array<std::string_view, 6> collective_required = {"kind",  "comm",  "key",
                                                                 "count", "dtype", "reduction"};
constexpr std::array<std::string_view, 4> collective_optional = {"root", "offset", "peer", "tag"};
constexpr json::ObjectSpec collective_spec = {"a collective", collective_required,
                                              collective_optional};

// Actions are told apart by their "action" field; each kind then has its own fields. The submit
// action's spelling depends on the dump's version (dump_format.hpp), the others' do not.
enum class ActionKind : std::size_t { submit, wait_to_read, wait_for_all, collective };
using ActionKinds = std::array<std::string_view, 4>;
constexpr ActionKinds action_kinds(std::uint64_t version) {
  return {submit_action_spelling(version), "wait_to_read", "wait_for_all", "collective"};
}
constexpr std::array<std::string_view, 1> action_required = {"action"};
constexpr std::array<std::string_view, 0> no_fields = {};
constexpr json::ObjectSpec action_spec = {"an action", action_required, no_fields};
constexpr std::array<std::string_view, 2> submit_required = {"action", "op"};
constexpr json::ObjectSpec submit_spec = {"a submit action", submit_required, no_fields};
// Version 1's name for the submit action.
constexpr json::ObjectSpec submit_v1_spec = {"a push action", submit_required, no_fields};
constexpr std::array<std::string_view, 2> wait_to_read_required = {"action", "var"};
constexpr json::ObjectSpec wait_to_read_spec = {"a wait_to_read action", wait_to_read_required,
                                                no_fields};
constexpr json::ObjectSpec wait_for_all_spec = {"a wait_for_all action", action_required,
                                                no_fields};
constexpr std::array<std::string_view, 2> collective_action_required = {"action", "collective"};
constexpr std::array<std::string_view, 1> collective_action_optional = {"buffer"};
constexpr json::ObjectSpec collective_action_spec = {
    "a collective action", collective_action_required, collective_action_optional};

// A field that exists from version 6 on (point to point) in an older dump.
void reject_before_point_to_point(const json::Node& field, std::string_view what,
                                  std::uint64_t version) {
  if (version >= first_version_of_point_to_point) return;
  const std::string first = std::to_string(first_version_of_point_to_point);
  field.fail(std::string(what) + " in a version " + std::to_string(version) +
                 " dump (it exists from version " + first + ")",
             "no " + std::string(what) + ", or version " + first);
}

// A send's or recv's peer (a rank of the communicator, or "any" for a recv from any source) and
// tag. Whether the kind takes them is the validator's to say, with the spec's location.
void read_peer_fields(const json::ObjectNode& object, std::uint64_t version,
                      Collective& collective) {
  if (const std::optional<json::Node> peer = object.optional("peer")) {
    reject_before_point_to_point(*peer, "a peer", version);
    if (peer->value().is_string()) {
      const std::string& text = json::read_string(*peer, "a peer");
      if (text != "any") {
        peer->fail("peer " + json::quote(text),
                   "a rank of the communicator, or \"any\" (a recv from any source)");
      }
      collective.peer = any_source;
    } else {
      collective.peer = static_cast<Rank>(json::read_unsigned(*peer, limits::ranks_max - 1));
    }
  }
  if (const std::optional<json::Node> tag = object.optional("tag")) {
    reject_before_point_to_point(*tag, "a tag", version);
    collective.tag = static_cast<std::uint32_t>(json::read_unsigned(*tag, tag_max));
  }
}

Collective read_collective(const json::Node& node, std::uint64_t version, const NameTable& comms) {
  const json::ObjectNode object(node, collective_spec);
  object.reject_unknown_fields();
  Collective collective;
  const json::Node kind = object.required("kind");
  collective.kind = read_enum<CollectiveKind>(kind, "collective kind");
  if (const std::uint64_t first = first_version_of(collective.kind); version < first) {
    kind.fail("collective kind " + json::quote(to_string(collective.kind)) + " in a version " +
                  std::to_string(version) + " dump (it exists from version " +
                  std::to_string(first) + ")",
              first == first_version_of_reduce_kinds
                  ? "allreduce, bcast or barrier, or version " + std::to_string(first)
                  : "a kind of version " + std::to_string(version) + ", or version " +
                        std::to_string(first));
  }
  collective.comm = comms.resolve(object.required("comm"));
  collective.key =
      json::read_signed(object.required("key"), std::numeric_limits<std::int64_t>::min(),
                        std::numeric_limits<std::int64_t>::max());
  collective.count =
      json::read_unsigned(object.required("count"), std::numeric_limits<std::uint64_t>::max());
  collective.dtype = read_enum<DType>(object.required("dtype"), "dtype");
  collective.reduction = read_enum<Reduction>(object.required("reduction"), "reduction");
  if (const std::optional<json::Node> root = object.optional("root")) {
    collective.root = static_cast<Rank>(json::read_unsigned(*root, limits::ranks_max - 1));
  }
  if (const std::optional<json::Node> offset = object.optional("offset")) {
    if (version < first_version_of_offsets) {
      offset->fail("a collective's offset in a version " + std::to_string(version) +
                       " dump (it exists from version " + std::to_string(first_version_of_offsets) +
                       ")",
                   "no offset, or version " + std::to_string(first_version_of_offsets));
    }
    collective.offset = json::read_unsigned(*offset, std::numeric_limits<std::uint64_t>::max());
  }
  read_peer_fields(object, version, collective);
  return collective;
}

std::vector<VarId> read_var_list(const json::Node& node, const NameTable& vars) {
  const std::size_t count = json::read_array(node, limits::op_vars_max, "var names");
  std::vector<VarId> ids(count);
  for (std::size_t i = 0; i < count; ++i) {
    ids[i] = vars.resolve(node.element(i));
  }
  return ids;
}

Op read_op(const json::ObjectNode& object, std::uint64_t version, const NameTable& comms,
           const NameTable& pools, const NameTable& vars) {
  Op op;
  op.kind = read_enum<OpKind>(object.required("kind"), "op kind");
  op.pool = pools.resolve(object.required("pool"));
  if (const std::optional<json::Node> reads = object.optional("reads")) {
    op.reads = read_var_list(*reads, vars);
  }
  if (const std::optional<json::Node> writes = object.optional("writes")) {
    op.writes = read_var_list(*writes, vars);
  }
  if (const std::optional<json::Node> priority = object.optional("priority")) {
    op.priority = static_cast<std::int32_t>(
        json::read_signed(*priority, std::numeric_limits<std::int32_t>::min(),
                          std::numeric_limits<std::int32_t>::max()));
  }
  if (const std::optional<json::Node> cost = object.optional("cost_us")) {
    op.cost_us = json::read_number(*cost, 0.0);
  }
  if (const std::optional<json::Node> collective = object.optional("collective")) {
    op.collective = read_collective(*collective, version, comms);
  }
  return op;
}

CollectiveAction read_collective_action(const json::Node& node, std::uint64_t version,
                                        const NameTable& comms, const NameTable& vars) {
  const json::ObjectNode object(node, collective_action_spec);
  object.reject_unknown_fields();
  CollectiveAction action{read_collective(object.required("collective"), version, comms),
                          std::nullopt};
  if (const std::optional<json::Node> buffer = object.optional("buffer")) {
    action.buffer = vars.resolve(*buffer);
  }
  return action;
}

// The submit action under the other version's spelling is an error of its own: the dump mixes
// versions (a version edited by hand, actions pasted from another dump), and saying so helps more
// than "unknown action".
void reject_other_submit_spelling(const json::Node& kind, std::uint64_t version,
                                  const ActionKinds& kinds) {
  // Every version after 1 spells it "submit"; name the first of them.
  const std::uint64_t other = version == 1 ? 2 : 1;
  const std::string_view spelling = submit_action_spelling(other);
  if (!kind.value().is_string() || kind.value().get_ref<const std::string&>() != spelling) return;
  std::string expected = "action, one of: ";
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    expected += i == 0 ? "" : ", ";
    expected += kinds[i];
  }
  kind.fail("action " + json::quote(spelling) + " in a version " + std::to_string(version) +
                " dump (" + json::quote(spelling) + " is version " + std::to_string(other) +
                "'s spelling of " + json::quote(kinds[0]) + ")",
            expected);
}

Action read_action(const json::Node& node, std::uint64_t version, const NameTable& comms,
                   const NameTable& vars, const NameTable& ops) {
  const ActionKinds kinds = action_kinds(version);
  const json::Node kind = json::ObjectNode(node, action_spec).required("action");
  reject_other_submit_spelling(kind, version, kinds);
  const std::size_t index = json::read_choice(kind, kinds, "action");
  assert(index < kinds.size());
  switch (static_cast<ActionKind>(index)) {
    case ActionKind::submit: {
      const json::ObjectNode object(node, version == 1 ? submit_v1_spec : submit_spec);
      object.reject_unknown_fields();
      return SubmitAction{ops.resolve(object.required("op"))};
    }
    case ActionKind::wait_to_read: {
      const json::ObjectNode object(node, wait_to_read_spec);
      object.reject_unknown_fields();
      return WaitToReadAction{vars.resolve(object.required("var"))};
    }
    case ActionKind::wait_for_all:
      json::ObjectNode(node, wait_for_all_spec).reject_unknown_fields();
      return WaitForAllAction{};
    case ActionKind::collective:
      break;
  }
  return read_collective_action(node, version, comms, vars);
}

}  // namespace

std::vector<Op> read_ops(const json::Node& node, std::uint64_t version, const NameTable& comms,
                         const NameTable& pools, const NameTable& vars, NameTable& ops) {
  const std::size_t count = json::read_array(node, limits::ops_max, "ops");
  ops.reserve(count);
  std::vector<Op> result;
  result.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const json::ObjectNode object(node.element(i), op_spec);
    object.reject_unknown_fields();
    const std::string& name = ops.add(object.required("name"));
    result.push_back(read_op(object, version, comms, pools, vars));
    result.back().name = name;
  }
  return result;
}

std::vector<Action> read_main(const json::Node& node, std::uint64_t version, const NameTable& comms,
                              const NameTable& vars, const NameTable& ops) {
  const std::size_t count = json::read_array(node, limits::actions_max, "actions");
  std::vector<Action> actions;
  actions.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    actions.push_back(read_action(node.element(i), version, comms, vars, ops));
  }
  return actions;
}

}  // namespace ordo::dag::detail
