// One rank's hang dump as a value: what its flight recorder held and what its engine was doing
// when the dump was taken. The watchdog writes it (dump_writer.hpp), `ordo analyze` reads it back
// (dump_reader.hpp); docs/diagnostics.md gives the JSON format, "ordo-flight" version 1.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/comm/rules/call.hpp"
#include "runtime/dag/program.hpp"
#include "runtime/engine/engine_snapshot.hpp"

namespace ordo::diag {

inline constexpr std::string_view dump_format = "ordo-flight";
inline constexpr std::uint64_t dump_version = 1;

// One ring entry. Times are wall-clock microseconds since the Unix epoch, so that dumps of ranks
// on one machine (or on machines with synchronised clocks) can be ordered against each other.
struct DumpCall {
  std::uint64_t seq = 0;
  comm::Call call;
  bool blocking = true;
  std::string issuer;  // "main" or the engine op's name
  std::string pool;    // empty: not issued from a pool thread
  std::uint32_t thread = 0;
  std::string state;  // "issued", "in_flight", "completed" or "failed"
  std::int64_t issued_us = 0;
  std::optional<std::int64_t> started_us;
  std::optional<std::int64_t> ended_us;
  bool open() const { return state == "issued" || state == "in_flight"; }
};

struct DumpComm {
  dag::CommId id = 0;
  std::string name;
  std::optional<std::vector<dag::Rank>> members;  // world ranks; absent: every rank
  dag::Rank rank = 0;                             // this rank's rank in the communicator
  std::uint32_t size = 0;
  std::uint64_t issued = 0;      // calls ever issued here: the next sequence number
  std::uint64_t unrecorded = 0;  // issued while the ring had no free slot (not in `calls`)
  std::vector<DumpCall> calls;   // the ring, oldest first
};

struct DumpMain {
  std::string state;  // as exec::MainPosition
  std::string what;
  std::int64_t since_us = 0;
};

struct RankDump {
  dag::Rank rank = 0;
  std::uint32_t world_size = 1;
  // Why the dump was written: "hang" (the watchdog saw a call or wait older than the timeout),
  // "signal" (the process was told to end, e.g. by mpirun after another rank died) or "request".
  std::string reason;
  std::string detail;  // one line: what was late, or which signal
  std::int64_t written_us = 0;
  double hang_timeout_s = 0.0;
  std::string program;  // the step program's name, when known
  std::uint64_t ring_capacity = 0;
  std::vector<DumpComm> comms;  // this rank's communicators (members only), by id
  std::optional<DumpMain> main;
  std::optional<engine::EngineSnapshot> engine;
};

}  // namespace ordo::diag
