// What an engine is doing at one moment, in names rather than handles, for a hang report: the
// pending ops, each busy var's holders and queue, each pool's threads and what they run. Taken
// under the engine's lock, and bounded, so that a report of a huge program stays small.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ordo::engine {

struct SnapshotOp {
  std::string name;
  std::string state;  // "waiting", "ready" or "running"
  std::string pool;
  std::optional<std::uint32_t> thread;  // the pool thread it holds, while it holds one
  std::uint32_t accesses_pending = 0;   // vars that have not granted it yet
  bool async = false;
  bool blocking = false;  // a blocking collective: keeps its thread until it completes
};

struct SnapshotPool {
  std::string name;
  // Per thread index: the op it runs, or none when idle.
  std::vector<std::optional<std::string>> threads;
  std::uint64_t ready = 0;               // ops in the run queue
  std::vector<std::string> ready_first;  // the first of them, in the order they would start
};

struct SnapshotAccess {
  std::string op;
  bool write = false;
};

struct SnapshotVar {
  std::string name;
  std::uint32_t reads_active = 0;
  bool write_active = false;
  std::uint64_t writes_submitted = 0;
  std::uint64_t writes_completed = 0;
  bool poisoned = false;
  std::uint64_t waiting = 0;                  // accesses queued
  std::vector<SnapshotAccess> waiting_first;  // the first of them, in queue order
};

struct EngineSnapshot {
  std::uint64_t ops_incomplete = 0;
  std::uint32_t ops_live = 0;
  std::vector<SnapshotPool> pools;
  std::vector<SnapshotOp> ops;    // live ops, in slot order, at most ops_max
  std::vector<SnapshotVar> vars;  // vars held or waited for, at most vars_max
  std::uint64_t ops_omitted = 0;
  std::uint64_t vars_omitted = 0;
};

struct SnapshotBounds {
  std::uint32_t ops_max = 256;
  std::uint32_t vars_max = 256;
  std::uint32_t queue_max = 8;  // ready ops per pool and waiting accesses per var
};

}  // namespace ordo::engine
