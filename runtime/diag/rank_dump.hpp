// One rank's hang dump as a value: what its flight recorder held and what its engine was doing
// when the dump was taken. The watchdog writes it (dump_writer.hpp), `ordo analyze` reads it back
// (dump_reader.hpp); docs/diagnostics.md gives the JSON format, "ordo-flight" version 2.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "runtime/comm/rules/call.hpp"
#include "runtime/dag/program.hpp"
#include "runtime/engine/engine_snapshot.hpp"

namespace ordo::diag {

inline constexpr std::string_view dump_format = "ordo-flight";
// Version 2 adds each communicator's messages; version 1 dumps, which have none, still read.
inline constexpr std::uint64_t dump_version = 2;

// One ring entry. Times are wall-clock microseconds since the Unix epoch, so that dumps of ranks
// on one machine (or on machines with synchronised clocks) can be ordered against each other.
struct DumpCall {
  std::uint64_t seq = 0;
  comm::Call call;
  // A send or recv: its place among the rank's messages of its kind, peer and tag on the
  // communicator, which is what MPI matches it by (docs/semantics.md, §3b). 0 for a collective.
  std::uint64_t nth = 0;
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

// How many messages a rank issued in one stream (kind, peer, tag) over the whole run.
struct DumpStream {
  dag::CollectiveKind kind = dag::CollectiveKind::send;
  dag::Rank peer = 0;  // a rank of the communicator, or dag::any_source for a recv
  std::uint32_t tag = 0;
  std::uint64_t issued = 0;
  // What streams are ordered and found by.
  auto key() const { return std::tuple(kind, peer, tag); }
  friend bool operator==(const DumpStream&, const DumpStream&) = default;
};

// A communicator's sends and recvs: a ring of their own, since they have no place in its
// collective order, and the count of every stream, which the ring may no longer hold whole.
struct DumpMessages {
  std::uint64_t issued = 0;         // messages ever issued here: the next sequence number
  std::uint64_t unrecorded = 0;     // issued while the ring had no free slot
  std::vector<DumpCall> calls;      // the ring, oldest first
  std::vector<DumpStream> streams;  // in increasing key() order
};

// The messages a rank issued in one stream, by binary search of the sorted streams; 0 for a
// stream it never used.
inline std::uint64_t stream_count(const DumpMessages& m, dag::CollectiveKind kind, dag::Rank peer,
                                  std::uint32_t tag) {
  const auto key = std::tuple(kind, peer, tag);
  const auto it = std::lower_bound(m.streams.begin(), m.streams.end(), key,
                                   [](const DumpStream& s, const auto& k) { return s.key() < k; });
  return it != m.streams.end() && it->key() == key ? it->issued : 0;
}

struct DumpComm {
  dag::CommId id = 0;
  std::string name;
  std::optional<std::vector<dag::Rank>> members;  // world ranks; absent: every rank
  dag::Rank rank = 0;                             // this rank's rank in the communicator
  std::uint32_t size = 0;
  std::uint64_t issued = 0;      // calls ever issued here: the next sequence number
  std::uint64_t unrecorded = 0;  // issued while the ring had no free slot (not in `calls`)
  std::vector<DumpCall> calls;   // the ring, oldest first
  DumpMessages messages;
  // False in a dump of version 1, which did not record messages: this rank's are not known.
  bool messages_known = true;
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
