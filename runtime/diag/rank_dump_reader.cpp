#include <array>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "runtime/comm/rules/call.hpp"
#include "runtime/dag/json_fields.hpp"
#include "runtime/dag/limits.hpp"
#include "runtime/diag/flight_recorder.hpp"
#include "runtime/diag/rank_dump_io.hpp"
#include "runtime/errors/input_error.hpp"
#include "runtime/json/file.hpp"
#include "runtime/json/node.hpp"
#include "runtime/json/parse.hpp"

namespace ordo::diag {
namespace {

using json::Node;
using json::ObjectNode;
using json::ObjectSpec;

constexpr std::array<std::string_view, 10> dump_required = {
    "format", "version",    "rank",           "world_size",    "reason",
    "detail", "written_us", "hang_timeout_s", "ring_capacity", "comms"};
constexpr std::array<std::string_view, 3> dump_optional = {"program", "main", "engine"};
constexpr ObjectSpec dump_spec = {"an ordo-flight dump", dump_required, dump_optional};

constexpr std::array<std::string_view, 7> comm_required = {"id",     "name",       "rank", "size",
                                                           "issued", "unrecorded", "calls"};
constexpr std::array<std::string_view, 2> comm_optional = {"members", "messages"};
constexpr ObjectSpec comm_spec = {"a communicator", comm_required, comm_optional};

constexpr std::array<std::string_view, 10> call_required = {
    "seq",       "kind",     "key",    "count", "dtype",
    "reduction", "blocking", "issuer", "state", "issued_us"};
constexpr std::array<std::string_view, 9> call_optional = {
    "root", "offset", "pool", "thread", "started_us", "ended_us", "peer", "tag", "nth"};
constexpr ObjectSpec call_spec = {"a recorded call", call_required, call_optional};

constexpr std::array<std::string_view, 4> messages_required = {"issued", "unrecorded", "calls",
                                                               "streams"};
constexpr ObjectSpec messages_spec = {"a communicator's messages", messages_required, {}};
constexpr std::array<std::string_view, 4> stream_required = {"kind", "peer", "tag", "issued"};
constexpr ObjectSpec stream_spec = {"a stream of messages", stream_required, {}};
constexpr std::array<std::string_view, 2> message_kinds = {"send", "recv"};

constexpr std::array<std::string_view, 3> main_required = {"state", "what", "since_us"};
constexpr ObjectSpec main_spec = {"the main thread's position", main_required, {}};

constexpr std::array<std::string_view, 7> engine_required = {
    "ops_incomplete", "ops_live", "pools", "ops", "vars", "ops_omitted", "vars_omitted"};
constexpr ObjectSpec engine_spec = {"an engine state", engine_required, {}};
constexpr std::array<std::string_view, 4> pool_required = {"name", "threads", "ready",
                                                           "ready_first"};
constexpr ObjectSpec pool_spec = {"a pool", pool_required, {}};
constexpr std::array<std::string_view, 6> op_required = {
    "name", "state", "pool", "accesses_pending", "async", "blocking"};
constexpr std::array<std::string_view, 1> op_optional = {"thread"};
constexpr ObjectSpec op_spec = {"an engine op", op_required, op_optional};
constexpr std::array<std::string_view, 8> var_required = {
    "name",     "reads_active", "write_active", "writes_submitted", "writes_completed",
    "poisoned", "waiting",      "waiting_first"};
constexpr ObjectSpec var_spec = {"a var", var_required, {}};
constexpr std::array<std::string_view, 2> access_required = {"op", "mode"};
constexpr ObjectSpec access_spec = {"a waiting access", access_required, {}};

constexpr std::array<std::string_view, 4> reasons = {"hang", "signal", "error", "request"};
constexpr std::array<std::string_view, 4> call_states = {"issued", "in_flight", "completed",
                                                         "failed"};
constexpr std::array<std::string_view, 5> main_states = {"running", "waiting_var", "waiting_all",
                                                         "in_collective", "finished"};
constexpr std::array<std::string_view, 3> op_states = {"waiting", "ready", "running"};
constexpr std::array<std::string_view, 2> access_modes = {"read", "write"};

constexpr std::uint64_t engine_items_max = 1u << 16;
constexpr std::int64_t time_us_max = std::int64_t{1} << 60;

bool read_bool(const Node& node) {
  if (!node.value().is_boolean()) node.fail_found("true or false");
  return node.value().get<bool>();
}

const std::string& read_text(const Node& node, std::string_view what) {
  return json::read_string(node, what);
}

std::int64_t read_time(const Node& node) { return json::read_signed(node, 0, time_us_max); }

std::string read_choice_text(const Node& node, std::span<const std::string_view> choices,
                             std::string_view what) {
  return std::string(choices[json::read_choice(node, choices, what)]);
}

DumpCall read_call(const Node& node, const DumpComm& owner) {
  const ObjectNode object(node, call_spec);
  object.reject_unknown_fields();
  DumpCall c;
  c.seq = json::read_unsigned(object.required("seq"), UINT64_MAX - 1);
  c.call.kind = dag::read_enum<dag::CollectiveKind>(object.required("kind"), "collective kind");
  c.call.key = json::read_signed(object.required("key"), INT64_MIN, INT64_MAX);
  c.call.count = json::read_unsigned(object.required("count"), UINT64_MAX);
  if (const std::optional<Node> offset = object.optional("offset")) {
    c.call.offset = json::read_unsigned(*offset, UINT64_MAX);
  }
  c.call.dtype = dag::read_enum<dag::DType>(object.required("dtype"), "dtype");
  c.call.reduction = dag::read_enum<dag::Reduction>(object.required("reduction"), "reduction");
  if (const std::optional<Node> root = object.optional("root")) {
    c.call.root = static_cast<dag::Rank>(json::read_unsigned(*root, dag::limits::ranks_max));
  }
  if (const std::optional<Node> peer = object.optional("peer")) {
    c.call.peer = static_cast<dag::Rank>(json::read_unsigned(*peer, dag::any_source));
  }
  // A send or recv comes with its peer, tag and place in its stream; a collective with none.
  const std::optional<Node> tag = object.optional("tag");
  const std::optional<Node> nth = object.optional("nth");
  if (dag::is_point_to_point(c.call.kind)) {
    if (!tag || !nth) node.fail("a message without its \"tag\" or \"nth\"", "both");
    c.call.tag = static_cast<std::uint32_t>(json::read_unsigned(*tag, dag::tag_max));
    c.nth = json::read_unsigned(*nth, UINT64_MAX - 1);
  } else if (tag || nth) {
    (tag ? *tag : *nth).fail("a tag or place on a collective", "neither");
  }
  try {
    comm::check_call_shape(c.call, owner.name, owner.size);
  } catch (const std::invalid_argument& e) {
    node.fail(e.what(), "a well-formed collective for this communicator");
  }
  c.blocking = read_bool(object.required("blocking"));
  c.issuer = read_text(object.required("issuer"), "the issuing op's name or \"main\"");
  // "pool" and "thread" are optional fields that come together.
  const std::optional<Node> thread = object.optional("thread");
  if (const std::optional<Node> pool = object.optional("pool")) {
    c.pool = read_text(*pool, "the issuing pool's name");
    if (!thread) pool->fail("a pool without a thread", "\"thread\" beside \"pool\"");
    c.thread =
        static_cast<std::uint32_t>(json::read_unsigned(*thread, dag::limits::pool_threads_max - 1));
  } else if (thread) {
    thread->fail("a thread without a pool", "\"pool\" beside \"thread\"");
  }
  c.state = read_choice_text(object.required("state"), call_states, "call state");
  c.issued_us = read_time(object.required("issued_us"));
  if (const std::optional<Node> t = object.optional("started_us")) c.started_us = read_time(*t);
  if (const std::optional<Node> t = object.optional("ended_us")) c.ended_us = read_time(*t);
  if (!c.open() && !c.ended_us) {
    node.fail("a " + c.state + " call without \"ended_us\"", "the time the call ended");
  }
  return c;
}

// A ring as the writer lists it: entries in increasing seq order, each one of the last
// `ring_capacity` of `issued`, each a collective or each a message as `messages` says.
std::vector<DumpCall> read_ring(const Node& calls, const DumpComm& owner, std::uint64_t issued,
                                std::uint64_t ring_capacity, bool messages) {
  std::vector<DumpCall> out;
  const std::size_t n = json::read_array(calls, ring_capacity, "calls");
  for (std::size_t i = 0; i < n; ++i) {
    DumpCall call = read_call(calls.element(i), owner);
    if (dag::is_point_to_point(call.call.kind) != messages) {
      calls.element(i).fail(std::string(dag::to_string(call.call.kind)) +
                                (messages ? " among the messages" : " among the collectives"),
                            messages ? "a send or a recv" : "a collective kind");
    }
    if (call.seq >= issued) {
      calls.element(i).fail("seq " + std::to_string(call.seq),
                            "a seq below \"issued\", " + std::to_string(issued));
    }
    if (!out.empty() && call.seq <= out.back().seq) {
      calls.element(i).fail(
          "seq " + std::to_string(call.seq) + " after seq " + std::to_string(out.back().seq),
          "calls in increasing seq order");
    }
    if (issued - call.seq > ring_capacity) {
      calls.element(i).fail("seq " + std::to_string(call.seq) + " older than the ring holds",
                            "one of the last " + std::to_string(ring_capacity) + " calls");
    }
    out.push_back(std::move(call));
  }
  return out;
}

// A message's place in its stream is below the stream's count, which the dump must list.
DumpMessages read_messages(const Node& node, const DumpComm& owner, std::uint64_t ring_capacity) {
  const ObjectNode object(node, messages_spec);
  object.reject_unknown_fields();
  DumpMessages m;
  m.issued = json::read_unsigned(object.required("issued"), UINT64_MAX - 1);
  m.unrecorded = json::read_unsigned(object.required("unrecorded"), m.issued);
  const Node streams = object.required("streams");
  // Every stream holds at least one message, so there are no more streams than messages (and no
  // more than the bytes of a dump).
  const std::size_t ns =
      json::read_array(streams, std::min<std::uint64_t>(m.issued, dump_bytes_max), "streams");
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < ns; ++i) {
    const ObjectNode so(streams.element(i), stream_spec);
    so.reject_unknown_fields();
    DumpStream s;
    s.kind = read_choice_text(so.required("kind"), message_kinds, "message kind") == "send"
                 ? dag::CollectiveKind::send
                 : dag::CollectiveKind::recv;
    s.peer = static_cast<dag::Rank>(json::read_unsigned(so.required("peer"), dag::any_source));
    if (s.peer != dag::any_source && s.peer >= owner.size) {
      so.required("peer").fail(
          "peer " + std::to_string(s.peer),
          "a rank below the communicator's size, " + std::to_string(owner.size));
    }
    if (s.peer == dag::any_source && s.kind == dag::CollectiveKind::send) {
      so.required("peer").fail("a send to any source", "a rank of the communicator");
    }
    s.tag = static_cast<std::uint32_t>(json::read_unsigned(so.required("tag"), dag::tag_max));
    s.issued = json::read_unsigned(so.required("issued"), m.issued - total);
    if (s.issued == 0) so.required("issued").fail("a stream of no messages", "at least 1");
    if (!m.streams.empty() && s.key() <= m.streams.back().key()) {
      streams.element(i).fail("a stream out of order or twice",
                              "streams in increasing (kind, peer, tag) order");
    }
    total += s.issued;
    m.streams.push_back(s);
  }
  if (total != m.issued) {
    streams.fail(std::to_string(total) + " messages in the streams",
                 "as many as \"issued\", " + std::to_string(m.issued));
  }
  m.calls = read_ring(object.required("calls"), owner, m.issued, ring_capacity, true);
  for (std::size_t i = 0; i < m.calls.size(); ++i) {
    const DumpCall& c = m.calls[i];
    const std::uint64_t count = stream_count(m, c.call.kind, c.call.peer.value_or(0), c.call.tag);
    if (c.nth >= count) {
      object.required("calls").element(i).fail("nth " + std::to_string(c.nth) +
                                                   " of a stream the dump counts " +
                                                   std::to_string(count) + " messages of",
                                               "a place below its stream's count in \"streams\"");
    }
  }
  return m;
}

DumpComm read_comm(const Node& node, std::uint32_t world_size, std::uint64_t ring_capacity,
                   std::uint64_t version) {
  const ObjectNode object(node, comm_spec);
  object.reject_unknown_fields();
  DumpComm c;
  c.id = static_cast<dag::CommId>(
      json::read_unsigned(object.required("id"), dag::limits::comms_max - 1));
  c.name = read_text(object.required("name"), "the communicator's name");
  if (const std::optional<Node> members = object.optional("members")) {
    const std::size_t n = json::read_array(*members, world_size, "members");
    if (n == 0) members->fail("no members", "at least one world rank");
    std::set<dag::Rank> seen;
    std::vector<dag::Rank> list;
    for (std::size_t i = 0; i < n; ++i) {
      const Node m = members->element(i);
      const auto r = static_cast<dag::Rank>(json::read_unsigned(m, world_size - 1));
      if (!seen.insert(r).second) m.fail("rank " + std::to_string(r) + " twice", "distinct ranks");
      list.push_back(r);
    }
    c.members = std::move(list);
  }
  const std::uint32_t expected_size =
      c.members ? static_cast<std::uint32_t>(c.members->size()) : world_size;
  c.size = static_cast<std::uint32_t>(
      json::read_unsigned(object.required("size"), dag::limits::ranks_max));
  if (c.size != expected_size) {
    object.required("size").fail("size " + std::to_string(c.size),
                                 "the member count, " + std::to_string(expected_size));
  }
  c.rank = static_cast<dag::Rank>(json::read_unsigned(object.required("rank"), c.size - 1));
  c.issued = json::read_unsigned(object.required("issued"), UINT64_MAX - 1);
  c.unrecorded = json::read_unsigned(object.required("unrecorded"), c.issued);
  c.calls = read_ring(object.required("calls"), c, c.issued, ring_capacity, false);
  c.messages_known = version >= 2;
  if (const std::optional<Node> messages = object.optional("messages")) {
    if (version < 2) messages->fail("messages in a dump of version 1", "no \"messages\"");
    c.messages = read_messages(*messages, c, ring_capacity);
  }
  return c;
}

std::vector<std::string> read_names(const Node& node, std::uint64_t max, std::string_view what) {
  const std::size_t n = json::read_array(node, max, what);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(read_text(node.element(i), what));
  return out;
}

engine::EngineSnapshot read_engine(const Node& node) {
  const ObjectNode object(node, engine_spec);
  object.reject_unknown_fields();
  engine::EngineSnapshot e;
  e.ops_incomplete = json::read_unsigned(object.required("ops_incomplete"), UINT64_MAX);
  e.ops_live =
      static_cast<std::uint32_t>(json::read_unsigned(object.required("ops_live"), UINT32_MAX));
  const Node pools = object.required("pools");
  const std::size_t np = json::read_array(pools, dag::limits::pools_max, "pools");
  for (std::size_t i = 0; i < np; ++i) {
    const ObjectNode p(pools.element(i), pool_spec);
    p.reject_unknown_fields();
    engine::SnapshotPool pool;
    pool.name = read_text(p.required("name"), "the pool's name");
    const Node threads = p.required("threads");
    const std::size_t nt = json::read_array(threads, dag::limits::pool_threads_max, "pool threads");
    if (nt == 0) threads.fail("no threads", "at least one thread");
    for (std::size_t t = 0; t < nt; ++t) {
      const Node thread = threads.element(t);
      if (thread.value().is_null()) {
        pool.threads.emplace_back(std::nullopt);
      } else {
        pool.threads.emplace_back(read_text(thread, "the op the thread runs, or null"));
      }
    }
    pool.ready = json::read_unsigned(p.required("ready"), UINT64_MAX);
    pool.ready_first = read_names(p.required("ready_first"), engine_items_max, "ready op names");
    e.pools.push_back(std::move(pool));
  }
  const Node ops = object.required("ops");
  const std::size_t no = json::read_array(ops, engine_items_max, "ops");
  for (std::size_t i = 0; i < no; ++i) {
    const ObjectNode o(ops.element(i), op_spec);
    o.reject_unknown_fields();
    engine::SnapshotOp op;
    op.name = read_text(o.required("name"), "the op's name");
    op.state = read_choice_text(o.required("state"), op_states, "op state");
    op.pool = read_text(o.required("pool"), "the op's pool");
    if (const std::optional<Node> t = o.optional("thread")) {
      op.thread =
          static_cast<std::uint32_t>(json::read_unsigned(*t, dag::limits::pool_threads_max - 1));
    }
    op.accesses_pending =
        static_cast<std::uint32_t>(json::read_unsigned(o.required("accesses_pending"), UINT32_MAX));
    op.async = read_bool(o.required("async"));
    op.blocking = read_bool(o.required("blocking"));
    e.ops.push_back(std::move(op));
  }
  const Node vars = object.required("vars");
  const std::size_t nv = json::read_array(vars, engine_items_max, "vars");
  for (std::size_t i = 0; i < nv; ++i) {
    const ObjectNode v(vars.element(i), var_spec);
    v.reject_unknown_fields();
    engine::SnapshotVar var;
    var.name = read_text(v.required("name"), "the var's name");
    var.reads_active =
        static_cast<std::uint32_t>(json::read_unsigned(v.required("reads_active"), UINT32_MAX));
    var.write_active = read_bool(v.required("write_active"));
    var.writes_submitted = json::read_unsigned(v.required("writes_submitted"), UINT64_MAX);
    var.writes_completed = json::read_unsigned(v.required("writes_completed"), UINT64_MAX);
    var.poisoned = read_bool(v.required("poisoned"));
    var.waiting = json::read_unsigned(v.required("waiting"), UINT64_MAX);
    const Node waiting = v.required("waiting_first");
    const std::size_t nw = json::read_array(waiting, engine_items_max, "waiting accesses");
    for (std::size_t w = 0; w < nw; ++w) {
      const ObjectNode a(waiting.element(w), access_spec);
      a.reject_unknown_fields();
      engine::SnapshotAccess access;
      access.op = read_text(a.required("op"), "the waiting op's name");
      access.write = read_choice_text(a.required("mode"), access_modes, "access mode") == "write";
      var.waiting_first.push_back(std::move(access));
    }
    e.vars.push_back(std::move(var));
  }
  e.ops_omitted = json::read_unsigned(object.required("ops_omitted"), UINT64_MAX);
  e.vars_omitted = json::read_unsigned(object.required("vars_omitted"), UINT64_MAX);
  return e;
}

}  // namespace

RankDump read_rank_dump(std::string_view text) {
  if (text.size() > dump_bytes_max) {
    throw errors::InputError("/", "dump of " + std::to_string(text.size()) + " bytes is too large",
                             "at most " + std::to_string(dump_bytes_max) + " bytes");
  }
  const nlohmann::json document = json::parse_json(text);
  const Node root(document, "");
  const ObjectNode object(root, dump_spec);
  const std::uint64_t version = json::check_format(object, dump_format, 1, dump_version);
  object.reject_unknown_fields();
  RankDump d;
  d.world_size = static_cast<std::uint32_t>(
      json::read_unsigned(object.required("world_size"), dag::limits::ranks_max));
  if (d.world_size == 0) object.required("world_size").fail("zero ranks", "at least 1 rank");
  d.rank = static_cast<dag::Rank>(json::read_unsigned(object.required("rank"), d.world_size - 1));
  d.reason = read_choice_text(object.required("reason"), reasons, "reason");
  d.detail = read_text(object.required("detail"), "what the dump is about");
  d.written_us = read_time(object.required("written_us"));
  d.hang_timeout_s = json::read_number(object.required("hang_timeout_s"), 0.0);
  if (const std::optional<Node> program = object.optional("program")) {
    d.program = read_text(*program, "the program's name");
  }
  d.ring_capacity = json::read_unsigned(object.required("ring_capacity"), ring_capacity_max);
  if (d.ring_capacity == 0) {
    object.required("ring_capacity").fail("a ring of no calls", "at least 1");
  }
  const Node comms = object.required("comms");
  const std::size_t n = json::read_array(comms, dag::limits::comms_max, "comms");
  for (std::size_t i = 0; i < n; ++i) {
    DumpComm c = read_comm(comms.element(i), d.world_size, d.ring_capacity, version);
    if (!d.comms.empty() && c.id <= d.comms.back().id) {
      comms.element(i).fail("communicator id " + std::to_string(c.id) + " after id " +
                                std::to_string(d.comms.back().id),
                            "communicators in increasing id order");
    }
    if (c.members && (*c.members)[c.rank] != d.rank) {
      comms.element(i).fail("this rank at position " + std::to_string(c.rank) +
                                " of the members, which names rank " +
                                std::to_string((*c.members)[c.rank]),
                            "the dump's own rank, " + std::to_string(d.rank));
    }
    if (!c.members && c.rank != d.rank) {
      comms.element(i).fail("rank " + std::to_string(c.rank) + " in a communicator of every rank",
                            "the dump's own rank, " + std::to_string(d.rank));
    }
    d.comms.push_back(std::move(c));
  }
  if (const std::optional<Node> main = object.optional("main")) {
    const ObjectNode m(*main, main_spec);
    m.reject_unknown_fields();
    DumpMain position;
    position.state = read_choice_text(m.required("state"), main_states, "main thread state");
    position.what = read_text(m.required("what"), "what the main thread waits on");
    position.since_us = read_time(m.required("since_us"));
    d.main = std::move(position);
  }
  if (const std::optional<Node> engine = object.optional("engine")) d.engine = read_engine(*engine);
  return d;
}

RankDump read_rank_dump_file(const std::string& path) {
  // Read as every JSON input is (runtime/json/file.hpp): a directory or a pipe no one writes is
  // refused by name, not read as a file of 2^63 - 1 bytes or waited on for ever.
  const std::string text = json::read_json_file(path, "rank dump", dump_bytes_max);
  try {
    return read_rank_dump(text);
  } catch (const errors::InputError& e) {
    throw errors::InputError(path + ": " + e.where(), e.problem(), e.expected());
  }
}

}  // namespace ordo::diag
