#include "runtime/diag/timeline_writer.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include "runtime/dag/names.hpp"
#include "runtime/io/atomic_file.hpp"

namespace ordo::diag {
namespace {

using nlohmann::json;

std::string name_of(const flight::TimelineEvent& e) { return std::string(e.name.data()); }

// Where the events of one rank go, and the tracks they use.
class RankTrace {
 public:
  RankTrace(const flight::TimelineContents& c, json& events) : c_(c), events_(events) {
    // An event still open when the trace was taken runs to the last time the log saw.
    for (const flight::TimelineEvent& e : c.events)
      end_ns_ = std::max({end_ns_, e.begin_ns, e.end_ns});
  }

  // Microseconds since the rank's origin; nothing before it (the origin's own barrier).
  double ts(std::int64_t ns) const {
    return static_cast<double>(std::max<std::int64_t>(ns - c_.origin_ns, 0)) / 1000.0;
  }
  double dur(const flight::TimelineEvent& e) const {
    const std::int64_t end = e.end_ns != 0 ? e.end_ns : end_ns_;
    return std::max(ts(end) - ts(e.begin_ns), 0.0);
  }

  void track(std::int64_t tid, const std::string& name) {
    if (!named_.emplace(tid, true).second) return;
    events_.push_back({{"ph", "M"},
                       {"pid", c_.rank},
                       {"tid", tid},
                       {"name", "thread_name"},
                       {"args", {{"name", name}}}});
    events_.push_back({{"ph", "M"},
                       {"pid", c_.rank},
                       {"tid", tid},
                       {"name", "thread_sort_index"},
                       {"args", {{"sort_index", tid}}}});
  }

  json& slice(std::int64_t tid, std::string name, const char* cat, const flight::TimelineEvent& e,
              json args) {
    if (e.end_ns == 0) args["open"] = true;
    events_.push_back({{"ph", "X"},
                       {"pid", c_.rank},
                       {"tid", tid},
                       {"name", std::move(name)},
                       {"cat", cat},
                       {"ts", ts(e.begin_ns)},
                       {"dur", dur(e)},
                       {"args", std::move(args)}});
    return events_.back();
  }

  // A point inside the slice of `e`: flow events bind to the slice enclosing them.
  double inside(const flight::TimelineEvent& e) const { return ts(e.begin_ns) + dur(e) / 2.0; }

 private:
  const flight::TimelineContents& c_;
  json& events_;
  std::int64_t end_ns_ = 0;
  std::unordered_map<std::int64_t, bool> named_;
};

std::string pool_name(const flight::TimelineContents& c, std::uint32_t pool) {
  if (pool < c.pool_names.size() && !c.pool_names[pool].empty()) return c.pool_names[pool];
  return std::to_string(pool);
}

std::string comm_name(const flight::TimelineContents& c, std::uint32_t comm) {
  if (comm < c.comm_names.size() && !c.comm_names[comm].empty()) return c.comm_names[comm];
  return std::to_string(comm);
}

json collective_args(const flight::TimelineContents& c, const flight::TimelineEvent& e) {
  json a{
      {"key", e.key}, {"bytes", e.bytes}, {"comm", comm_name(c, e.pool)}, {"blocking", e.blocking}};
  if (e.failed) a["failed"] = true;
  return a;
}

}  // namespace

std::int64_t timeline_pool_tid(std::uint32_t pool, std::uint32_t thread) {
  return 1000 * (std::int64_t{pool} + 1) + thread;
}

std::int64_t timeline_comm_tid(std::uint32_t comm, std::uint32_t lane) {
  return 1'000'000 + 1000 * std::int64_t{comm} + lane;
}

std::string write_timeline(const flight::TimelineContents& c) {
  json events = json::array();
  RankTrace t(c, events);
  events.push_back({{"ph", "M"},
                    {"pid", c.rank},
                    {"tid", 0},
                    {"name", "process_name"},
                    {"args", {{"name", "rank " + std::to_string(c.rank)}}}});
  events.push_back({{"ph", "M"},
                    {"pid", c.rank},
                    {"tid", 0},
                    {"name", "process_sort_index"},
                    {"args", {{"sort_index", c.rank}}}});
  if (c.dropped != 0) {
    events.push_back(
        {{"ph", "M"},
         {"pid", c.rank},
         {"tid", 0},
         {"name", "process_labels"},
         {"args",
          {{"labels", "timeline full: " + std::to_string(c.dropped) + " events dropped"}}}});
  }
  t.track(timeline_main_tid, "main");

  // Lanes per communicator: a call goes to the first lane whose last call ended before it began.
  std::vector<std::vector<std::int64_t>> lane_ends;  // by comm, by lane: end ns (max: open)
  std::vector<std::int64_t> tid_of(c.events.size(), 0);
  std::unordered_map<std::int64_t, std::size_t> collective_of_op;  // op event -> its first call
  for (std::size_t i = 0; i < c.events.size(); ++i) {
    const flight::TimelineEvent& e = c.events[i];
    switch (e.kind) {
      case flight::TimelineKind::op: {
        const std::int64_t tid = timeline_pool_tid(e.pool, e.thread);
        tid_of[i] = tid;
        t.track(tid, "pool " + pool_name(c, e.pool) + " thread " + std::to_string(e.thread));
        json args{{"pool", pool_name(c, e.pool)},
                  {"thread", e.thread},
                  {"kind", dag::to_string(e.op_kind)}};
        if (dag::is_collective(e.op_kind)) {
          args["key"] = e.key;
          args["bytes"] = e.bytes;
        }
        t.slice(tid, name_of(e), "op", e, std::move(args));
        break;
      }
      case flight::TimelineKind::wait: {
        const std::string what = name_of(e);
        const bool all = what == "wait_for_all" || what == "wait_to_read";
        t.slice(timeline_main_tid, all ? what : "wait_to_read '" + what + "'", "wait", e,
                all ? json::object() : json{{"var", what}});
        break;
      }
      case flight::TimelineKind::collective: {
        if (lane_ends.size() <= e.pool) lane_ends.resize(e.pool + 1);
        std::vector<std::int64_t>& lanes = lane_ends[e.pool];
        const std::int64_t end =
            e.end_ns != 0 ? e.end_ns : std::numeric_limits<std::int64_t>::max();
        std::uint32_t lane = 0;
        while (lane < lanes.size() && lanes[lane] > e.begin_ns) ++lane;
        if (lane == lanes.size()) lanes.push_back(0);
        lanes[lane] = end;
        const std::int64_t tid = timeline_comm_tid(e.pool, lane);
        tid_of[i] = tid;
        t.track(tid, "comm '" + comm_name(c, e.pool) + "'" +
                         (lane == 0 ? std::string() : " #" + std::to_string(lane)));
        const std::string name =
            std::string(dag::to_string(e.collective)) + " key " + std::to_string(e.key);
        json args = collective_args(c, e);
        if (e.issuer >= 0 && static_cast<std::size_t>(e.issuer) < c.events.size()) {
          args["issuer"] = name_of(c.events[static_cast<std::size_t>(e.issuer)]);
          collective_of_op.emplace(e.issuer, i);
        } else {
          args["issuer"] = "main";
        }
        t.slice(tid, name, "collective", e, args);
        // The main thread is in its blocking calls for their whole length.
        if (e.issuer < 0 && e.blocking) {
          t.slice(timeline_main_tid, "main in " + name, "wait", e, std::move(args));
        }
        break;
      }
    }
  }

  // Flow arrows: the op that last wrote a var, to the call of the collective op that reduces it
  // (or to the op itself when its call is not in the log).
  std::uint64_t flows = 0;
  for (std::size_t i = 0; i < c.events.size(); ++i) {
    const flight::TimelineEvent& e = c.events[i];
    if (e.kind != flight::TimelineKind::op || e.flow_from < 0) continue;
    const auto from = static_cast<std::size_t>(e.flow_from);
    if (from >= c.events.size()) continue;
    const auto call = collective_of_op.find(static_cast<std::int64_t>(i));
    const std::size_t to = call != collective_of_op.end() ? call->second : i;
    const std::uint64_t id = (std::uint64_t{c.rank} << 32) | ++flows;
    const std::string name = "key " + std::to_string(e.key);
    events.push_back({{"ph", "s"},
                      {"pid", c.rank},
                      {"tid", tid_of[from]},
                      {"id", id},
                      {"name", name},
                      {"cat", "gradient"},
                      {"ts", t.inside(c.events[from])},
                      {"bp", "e"}});
    events.push_back({{"ph", "f"},
                      {"pid", c.rank},
                      {"tid", tid_of[to]},
                      {"id", id},
                      {"name", name},
                      {"cat", "gradient"},
                      {"ts", t.inside(c.events[to])},
                      {"bp", "e"}});
  }

  json other{{"format", "ordo-timeline"},
             {"version", 1},
             {"rank", c.rank},
             {"world_size", c.world_size},
             {"events", c.events.size()},
             {"capacity", c.capacity},
             {"dropped", c.dropped},
             {"flows", flows},
             {"clock", "steady_clock, microseconds since the rank's origin"}};
  return json{{"traceEvents", std::move(events)},
              {"displayTimeUnit", "ms"},
              {"otherData", std::move(other)}}
      .dump();
}

namespace {

json merged_trace(const std::vector<std::string>& rank_traces) {
  json events = json::array();
  json ranks = json::array();
  std::uint32_t world_size = 0;
  for (const std::string& text : rank_traces) {
    json trace = json::parse(text, nullptr, false);
    if (trace.is_discarded() || !trace.is_object() || !trace.contains("traceEvents") ||
        !trace["traceEvents"].is_array() || !trace.contains("otherData")) {
      throw std::invalid_argument("not a rank's timeline trace");
    }
    for (json& e : trace["traceEvents"]) events.push_back(std::move(e));
    world_size = std::max(world_size, trace["otherData"].value("world_size", 0u));
    ranks.push_back(std::move(trace["otherData"]));
  }
  json other{{"format", "ordo-timeline"},
             {"version", 1},
             {"world_size", world_size},
             {"ranks", std::move(ranks)}};
  return json{{"traceEvents", std::move(events)},
              {"displayTimeUnit", "ms"},
              {"otherData", std::move(other)}};
}

}  // namespace

std::string merge_timelines(const std::vector<std::string>& rank_traces) {
  return merged_trace(rank_traces).dump();
}

std::string timeline_rank_path(const std::string& path, dag::Rank rank) {
  return path + ".rank-" + std::to_string(rank) + ".json";
}

std::size_t remove_timeline_leftovers(const std::string& path) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  const std::string prefix = fs::path(path).filename().string() + ".rank-";
  // FILE.rank-K.json, and the K of FILE.rank-K.json.tmp.PID: the rank files to look at.
  std::set<std::string> rank_files;
  std::error_code error;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (!name.starts_with(prefix)) continue;
    const std::size_t digits_end = name.find_first_not_of("0123456789", prefix.size());
    if (digits_end == prefix.size() || digits_end == std::string::npos) continue;
    if (name.compare(digits_end, 5, ".json") != 0) continue;
    rank_files.insert(name.substr(0, digits_end + 5));
  }
  std::size_t removed = io::remove_stale_temporaries(path);
  for (const std::string& name : rank_files) {
    const fs::path file = dir / name;
    std::error_code ignored;
    if (fs::is_regular_file(file, ignored) && fs::remove(file, ignored)) ++removed;
    removed += io::remove_stale_temporaries(file.string());
  }
  return removed;
}

void write_timeline_file(const std::string& path, const flight::TimelineContents& contents) {
  if (contents.world_size > 1) {
    io::write_file_atomically(timeline_rank_path(path, contents.rank), write_timeline(contents));
    return;
  }
  // A world of one writes FILE in the merged form, so that every FILE reads alike.
  json merged = merged_trace({write_timeline(contents)});
  merged["otherData"]["missing"] = json::array();
  io::write_file_atomically(path, merged.dump());
}

std::uint32_t merge_timeline_files(const std::string& path, std::uint32_t world_size) {
  std::vector<std::string> texts;
  json missing = json::array();
  std::vector<std::string> merged_paths;
  for (dag::Rank r = 0; r < world_size; ++r) {
    const std::string rank_path = timeline_rank_path(path, r);
    std::ifstream in(rank_path, std::ios::binary);
    if (!in) {
      missing.push_back(r);
      continue;
    }
    std::ostringstream text;
    text << in.rdbuf();
    texts.push_back(text.str());
    merged_paths.push_back(rank_path);
  }
  json merged = merged_trace(texts);
  merged["otherData"]["world_size"] = world_size;
  merged["otherData"]["missing"] = std::move(missing);
  io::write_file_atomically(path, merged.dump());
  for (const std::string& p : merged_paths) {
    std::error_code ignored;
    std::filesystem::remove(p, ignored);
  }
  return static_cast<std::uint32_t>(merged_paths.size());
}

}  // namespace ordo::diag
