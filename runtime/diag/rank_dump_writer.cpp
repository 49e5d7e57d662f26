#include <filesystem>
#include <nlohmann/json.hpp>

#include "runtime/dag/names.hpp"
#include "runtime/diag/rank_dump_io.hpp"
#include "runtime/io/atomic_file.hpp"

namespace ordo::diag {
namespace {

nlohmann::json call_json(const DumpCall& c) {
  nlohmann::json j;
  j["seq"] = c.seq;
  j["kind"] = dag::to_string(c.call.kind);
  j["key"] = c.call.key;
  j["count"] = c.call.count;
  if (c.call.offset != 0) j["offset"] = c.call.offset;
  j["dtype"] = dag::to_string(c.call.dtype);
  j["reduction"] = dag::to_string(c.call.reduction);
  if (c.call.root) j["root"] = *c.call.root;
  if (dag::is_point_to_point(c.call.kind)) {
    j["peer"] = c.call.peer.value_or(0);
    j["tag"] = c.call.tag;
    j["nth"] = c.nth;
  }
  j["blocking"] = c.blocking;
  j["issuer"] = c.issuer;
  if (!c.pool.empty()) {
    j["pool"] = c.pool;
    j["thread"] = c.thread;
  }
  j["state"] = c.state;
  j["issued_us"] = c.issued_us;
  if (c.started_us) j["started_us"] = *c.started_us;
  if (c.ended_us) j["ended_us"] = *c.ended_us;
  return j;
}

nlohmann::json engine_json(const engine::EngineSnapshot& e) {
  nlohmann::json j;
  j["ops_incomplete"] = e.ops_incomplete;
  j["ops_live"] = e.ops_live;
  nlohmann::json pools = nlohmann::json::array();
  for (const engine::SnapshotPool& p : e.pools) {
    nlohmann::json threads = nlohmann::json::array();
    for (const std::optional<std::string>& t : p.threads) {
      threads.push_back(t ? nlohmann::json(*t) : nlohmann::json());
    }
    pools.push_back({{"name", p.name},
                     {"threads", std::move(threads)},
                     {"ready", p.ready},
                     {"ready_first", p.ready_first}});
  }
  j["pools"] = std::move(pools);
  nlohmann::json ops = nlohmann::json::array();
  for (const engine::SnapshotOp& o : e.ops) {
    nlohmann::json op = {{"name", o.name},   {"state", o.state},
                         {"pool", o.pool},   {"accesses_pending", o.accesses_pending},
                         {"async", o.async}, {"blocking", o.blocking}};
    if (o.thread) op["thread"] = *o.thread;
    ops.push_back(std::move(op));
  }
  j["ops"] = std::move(ops);
  nlohmann::json vars = nlohmann::json::array();
  for (const engine::SnapshotVar& v : e.vars) {
    nlohmann::json waiting = nlohmann::json::array();
    for (const engine::SnapshotAccess& a : v.waiting_first) {
      waiting.push_back({{"op", a.op}, {"mode", a.write ? "write" : "read"}});
    }
    vars.push_back({{"name", v.name},
                    {"reads_active", v.reads_active},
                    {"write_active", v.write_active},
                    {"writes_submitted", v.writes_submitted},
                    {"writes_completed", v.writes_completed},
                    {"poisoned", v.poisoned},
                    {"waiting", v.waiting},
                    {"waiting_first", std::move(waiting)}});
  }
  j["vars"] = std::move(vars);
  j["ops_omitted"] = e.ops_omitted;
  j["vars_omitted"] = e.vars_omitted;
  return j;
}

}  // namespace

std::string write_rank_dump(const RankDump& d) {
  nlohmann::json j;
  j["format"] = dump_format;
  j["version"] = dump_version;
  j["rank"] = d.rank;
  j["world_size"] = d.world_size;
  j["reason"] = d.reason;
  j["detail"] = d.detail;
  j["written_us"] = d.written_us;
  j["hang_timeout_s"] = d.hang_timeout_s;
  if (!d.program.empty()) j["program"] = d.program;
  j["ring_capacity"] = d.ring_capacity;
  nlohmann::json comms = nlohmann::json::array();
  for (const DumpComm& c : d.comms) {
    nlohmann::json entry;
    entry["id"] = c.id;
    entry["name"] = c.name;
    if (c.members) entry["members"] = *c.members;
    entry["rank"] = c.rank;
    entry["size"] = c.size;
    entry["issued"] = c.issued;
    entry["unrecorded"] = c.unrecorded;
    nlohmann::json calls = nlohmann::json::array();
    for (const DumpCall& call : c.calls) calls.push_back(call_json(call));
    entry["calls"] = std::move(calls);
    if (c.messages.issued != 0) {
      nlohmann::json messages;
      messages["issued"] = c.messages.issued;
      messages["unrecorded"] = c.messages.unrecorded;
      nlohmann::json ring = nlohmann::json::array();
      for (const DumpCall& call : c.messages.calls) ring.push_back(call_json(call));
      messages["calls"] = std::move(ring);
      nlohmann::json streams = nlohmann::json::array();
      for (const DumpStream& s : c.messages.streams) {
        streams.push_back({{"kind", dag::to_string(s.kind)},
                           {"peer", s.peer},
                           {"tag", s.tag},
                           {"issued", s.issued}});
      }
      messages["streams"] = std::move(streams);
      entry["messages"] = std::move(messages);
    }
    comms.push_back(std::move(entry));
  }
  j["comms"] = std::move(comms);
  if (d.main) {
    j["main"] = {{"state", d.main->state}, {"what", d.main->what}, {"since_us", d.main->since_us}};
  }
  if (d.engine) j["engine"] = engine_json(*d.engine);
  // Names come from programs and may hold any bytes; a dump must still be valid JSON.
  return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string rank_dump_path(const std::string& dir, dag::Rank rank) {
  return (std::filesystem::path(dir) / ("rank-" + std::to_string(rank) + ".json")).string();
}

std::string write_program_file(const std::string& dir, const std::string& program_dump) {
  std::filesystem::create_directories(dir);
  const std::string path = (std::filesystem::path(dir) / program_file_name).string();
  io::write_file_atomically(path, program_dump);
  return path;
}

std::string write_rank_dump_file(const std::string& dir, const RankDump& dump) {
  std::filesystem::create_directories(dir);
  const std::string path = rank_dump_path(dir, dump.rank);
  io::write_file_atomically(path, write_rank_dump(dump));
  return path;
}

}  // namespace ordo::diag
