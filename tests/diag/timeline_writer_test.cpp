// The timeline as a Chrome trace: valid JSON that Perfetto reads (every slice with its time and
// length, a process per rank, every track named, flow arrows in pairs whose two ends lie inside
// slices), from a real engine and executor over a world that logs its collectives, and the
// ranks' files merged into one.
#include "runtime/diag/timeline_writer.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

#include "runtime/engine/thread_pool_scheduler.hpp"
#include "runtime/exec/executor.hpp"
#include "runtime/flight/timeline_world.hpp"

namespace ordo::diag {
namespace {

using nlohmann::json;

// Calls that end at once.
class InstantComm final : public comm::Communicator {
 public:
  explicit InstantComm(std::string name) : name_(std::move(name)) {}
  const std::string& name() const override { return name_; }
  dag::Rank rank() const override { return 0; }
  std::uint32_t size() const override { return 1; }
  void call(const comm::Call&, void*) override {}
  std::unique_ptr<comm::Request> start(const comm::Call&, void*) override {
    struct Ended final : comm::Request {
      bool test() override { return true; }
      void wait() override {}
    };
    return std::make_unique<Ended>();
  }

 private:
  std::string name_;
};

class InstantWorld final : public comm::World {
 public:
  dag::Rank rank() const override { return 0; }
  std::uint32_t size() const override { return 1; }
  std::uint32_t comm_count() const override { return 1; }
  comm::Communicator& comm(dag::CommId) override { return grads; }
  bool is_member(dag::CommId) const override { return true; }
  InstantComm grads{"grads"};
};

// What Perfetto needs of a trace; returns the problems found, empty when none.
std::vector<std::string> trace_problems(const json& trace, std::size_t ranks) {
  std::vector<std::string> problems;
  if (!trace.is_object() || !trace.contains("traceEvents") || !trace["traceEvents"].is_array()) {
    return {"no traceEvents array"};
  }
  using Track = std::pair<std::int64_t, std::int64_t>;
  std::set<std::int64_t> processes;
  std::set<Track> named;
  std::map<Track, std::vector<std::pair<double, double>>> slices;
  std::map<std::uint64_t, std::vector<json>> flows;
  for (const json& e : trace["traceEvents"]) {
    // Compared as JSON: reading them out as strings trips a false -Wnull-dereference in g++ 12.
    const json& ph = e.at("ph");
    const Track track{e.value("pid", -1), e.value("tid", -1)};
    if (ph == "M" && e["name"] == "process_name") processes.insert(track.first);
    if (ph == "M" && e["name"] == "thread_name") named.insert(track);
    if (ph == "X") {
      if (!e.contains("ts") || !e["ts"].is_number() || !e.contains("dur") ||
          !e["dur"].is_number() || e["dur"].get<double>() < 0 || !e.contains("name")) {
        problems.push_back("X event without ts, dur or name: " + e.dump());
        continue;
      }
      slices[track].emplace_back(e["ts"].get<double>(),
                                 e["ts"].get<double>() + e["dur"].get<double>());
    }
    if (ph == "s" || ph == "f") flows[e["id"].get<std::uint64_t>()].push_back(e);
  }
  if (processes.size() != ranks)
    problems.push_back("process count " + std::to_string(processes.size()));
  for (const auto& [track, list] : slices) {
    if (!named.contains(track)) problems.push_back("unnamed track " + std::to_string(track.second));
    if (!processes.contains(track.first)) problems.push_back("unnamed process");
  }
  auto inside = [&](const json& e) {
    const auto s = slices.find(Track{e["pid"], e["tid"]});
    if (s == slices.end()) return false;
    const double ts = e["ts"].get<double>();
    for (const auto& [from, to] : s->second) {
      if (from <= ts && ts <= to) return true;
    }
    return false;
  };
  for (const auto& [id, ends] : flows) {
    if (ends.size() != 2 || ends[0]["ph"] != "s" || ends[1]["ph"] != "f") {
      problems.push_back("flow " + std::to_string(id) + " not one s then one f");
      continue;
    }
    for (const json& end : ends) {
      if (!inside(end)) problems.push_back("flow end outside any slice: " + end.dump());
    }
  }
  return problems;
}

std::vector<json> events_of(const json& trace, const std::string& ph, const std::string& cat) {
  std::vector<json> out;
  for (const json& e : trace["traceEvents"]) {
    if (e.at("ph") == ph && (cat.empty() || (e.contains("cat") && e.at("cat") == cat))) {
      out.push_back(e);
    }
  }
  return out;
}

// A backward op writes a gradient, an async allreduce reduces it, the main thread waits: on a
// real engine, the way the trainer runs.
flight::TimelineContents engine_run(dag::Rank rank, std::uint32_t ranks) {
  InstantWorld inner;
  flight::TimelineLog log(rank, ranks);
  flight::TimelineWorld world(inner, log);
  engine::EngineConfig config;
  config.pools = {{"compute", 2}, {"comm", 1}};
  engine::Engine engine(config, std::make_unique<engine::ThreadPoolScheduler>());
  engine.set_trace(&log);
  exec::BodyOptions body;
  body.compute = [](dag::Rank, const dag::Op&, exec::Buffers&) {};
  exec::Executor executor(engine, world, {{"grads", {}}}, body);
  const dag::VarId grad =
      executor.add_var({"g.conv1", dag::VarKind::tensor, 1024, dag::DType::f32});
  dag::Op bwd;
  bwd.name = "s1.bwd.conv1";
  bwd.writes = {grad};
  executor.submit(bwd);
  dag::Op ar;
  ar.name = "s1.ar.conv1";
  ar.writes = {grad};
  ar.pool = 1;
  ar.kind = dag::OpKind::async_collective;
  ar.collective = dag::Collective{dag::CollectiveKind::allreduce,
                                  0,
                                  7,
                                  256,
                                  dag::DType::f32,
                                  dag::Reduction::sum,
                                  std::nullopt};
  executor.submit(ar);
  executor.wait_to_read(grad);
  dag::CollectiveAction barrier;
  barrier.collective.kind = dag::CollectiveKind::barrier;
  barrier.collective.key = -1;
  executor.collective(barrier);
  executor.wait_for_all();
  engine.shutdown();
  return log.contents();
}

TEST(TimelineWriter, AnEngineRunIsAValidTraceWithItsCollectiveAndItsFlow) {
  const json trace = json::parse(write_timeline(engine_run(0, 1)));
  EXPECT_EQ(trace_problems(trace, 1), std::vector<std::string>{});
  EXPECT_EQ(trace["otherData"]["format"], "ordo-timeline");
  EXPECT_EQ(trace["otherData"]["dropped"], 0);

  std::map<std::int64_t, json> tracks;
  for (const json& m : events_of(trace, "M", "")) {
    if (m["name"] == "thread_name") tracks[m["tid"]] = m["args"]["name"];
  }
  EXPECT_EQ(tracks[timeline_main_tid], "main");
  EXPECT_EQ(tracks[timeline_comm_tid(0, 0)], "comm 'grads'");

  const std::vector<json> calls = events_of(trace, "X", "collective");
  ASSERT_EQ(calls.size(), 2u);  // the allreduce and the main thread's barrier
  EXPECT_EQ(calls[0]["name"], "allreduce key 7");
  EXPECT_EQ(calls[0]["args"]["key"], 7);
  EXPECT_EQ(calls[0]["args"]["bytes"], 1024);
  EXPECT_EQ(calls[0]["args"]["comm"], "grads");
  EXPECT_EQ(calls[0]["args"]["issuer"], "s1.ar.conv1");
  EXPECT_EQ(calls[1]["args"]["issuer"], "main");

  const std::vector<json> ops = events_of(trace, "X", "op");
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(ops[0]["name"], "s1.bwd.conv1");
  // Whichever free index ran it (a waiting main thread may run an op itself).
  EXPECT_EQ(tracks[ops[0]["tid"]].dump().rfind("\"pool compute thread ", 0), 0u)
      << tracks[ops[0]["tid"]];
  EXPECT_EQ(tracks[ops[1]["tid"]], "pool comm thread 0");
  // The main thread's barrier is on its track too, as a wait.
  bool main_in_barrier = false;
  for (const json& w : events_of(trace, "X", "wait")) {
    main_in_barrier |= w["name"] == "main in barrier key -1" && w["tid"] == timeline_main_tid;
  }
  EXPECT_TRUE(main_in_barrier);

  // The arrow: from the backward op to the call that reduces its gradient.
  const std::vector<json> starts = events_of(trace, "s", "");
  const std::vector<json> finishes = events_of(trace, "f", "");
  ASSERT_EQ(starts.size(), 1u);
  ASSERT_EQ(finishes.size(), 1u);
  EXPECT_EQ(starts[0]["tid"], ops[0]["tid"]);
  EXPECT_EQ(finishes[0]["tid"], calls[0]["tid"]);
  EXPECT_EQ(starts[0]["id"], finishes[0]["id"]);
}

TEST(TimelineWriter, OverlappingCallsGoToLanesAndDropsAreLabelled) {
  flight::TimelineLog log(0, 1, 3);
  log.set_comm_name(0, "grads");
  const comm::Call call{
      dag::CollectiveKind::allreduce, 1, 4, dag::DType::f32, dag::Reduction::sum, std::nullopt};
  const std::int64_t a = log.collective_begin(0, call, false);
  const std::int64_t b = log.collective_begin(0, call, false);  // while a is in flight
  log.collective_end(a, false);
  log.collective_end(b, false);
  log.collective_begin(0, call, false);  // never ends: open at the trace's end
  log.collective_begin(0, call, false);  // dropped
  const json trace = json::parse(write_timeline(log.contents()));
  EXPECT_EQ(trace_problems(trace, 1), std::vector<std::string>{});
  const std::vector<json> calls = events_of(trace, "X", "collective");
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(calls[0]["tid"], timeline_comm_tid(0, 0));
  EXPECT_EQ(calls[1]["tid"], timeline_comm_tid(0, 1));
  EXPECT_EQ(calls[2]["tid"], timeline_comm_tid(0, 0));
  EXPECT_EQ(calls[2]["args"]["open"], true);
  EXPECT_EQ(trace["otherData"]["dropped"], 1);
  bool labelled = false;
  for (const json& m : events_of(trace, "M", "")) {
    labelled |= m["name"] == "process_labels" &&
                m["args"]["labels"].dump().find("1 events dropped") != std::string::npos;
  }
  EXPECT_TRUE(labelled);
}

TEST(TimelineWriter, RankFilesMergeIntoOneTraceAndAreRemoved) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("ordo_timeline_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "t.json").string();
  write_timeline_file(path, engine_run(0, 2));
  write_timeline_file(path, engine_run(1, 2));
  EXPECT_TRUE(std::filesystem::exists(timeline_rank_path(path, 1)));
  EXPECT_EQ(merge_timeline_files(path, 2), 2u);
  EXPECT_FALSE(std::filesystem::exists(timeline_rank_path(path, 0)));
  EXPECT_FALSE(std::filesystem::exists(timeline_rank_path(path, 1)));
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const json trace = json::parse(text.str());
  EXPECT_EQ(trace_problems(trace, 2), std::vector<std::string>{});
  EXPECT_EQ(trace["otherData"]["world_size"], 2);
  EXPECT_EQ(trace["otherData"]["ranks"].size(), 2u);
  EXPECT_EQ(trace["otherData"]["missing"], json::array());
  EXPECT_EQ(events_of(trace, "s", "").size(), 2u);  // one per rank, ids apart

  // A rank whose file is not here (another node's disk) is named, not fatal.
  write_timeline_file(path, engine_run(0, 3));
  EXPECT_EQ(merge_timeline_files(path, 3), 1u);
  std::ifstream again(path);
  EXPECT_EQ(json::parse(again)["otherData"]["missing"], (json{1, 2}));
  std::filesystem::remove_all(dir);
}

// A merge that failed (or a run ended first) leaves its rank files; the next run's rank 0 removes
// them before any rank writes, so that no merge takes another run's file for its own. Only names
// of the rank files' pattern are touched.
TEST(TimelineWriter, WhatAnEarlierRunLeftIsRemovedFirst) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("ordo_timeline_l_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "t.json").string();
  const fs::path left[] = {timeline_rank_path(path, 0), timeline_rank_path(path, 1),
                           timeline_rank_path(path, 5),  // of a run of more ranks
                           timeline_rank_path(path, 3) + ".tmp.2147483647"};  // a killed writer's
  const fs::path kept[] = {path, dir / "t.json.rank-x.json", dir / "t.json.rank-1.jsonl",
                           dir / "other.json.rank-0.json", dir / "t.json.rank-.json"};
  for (const fs::path& p : left) std::ofstream(p) << "{}";
  for (const fs::path& p : kept) std::ofstream(p) << "a user's file";
  EXPECT_EQ(remove_timeline_leftovers(path), 4u);
  for (const fs::path& p : left) EXPECT_FALSE(fs::exists(p)) << p;
  for (const fs::path& p : kept) EXPECT_TRUE(fs::exists(p)) << p;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ordo::diag
