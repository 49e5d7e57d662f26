// A rank's flight recorder: two rings per communicator it belongs to, its collectives and its
// messages (flight_ring.hpp), and, on
// demand, what its engine and main thread are doing, put together as a RankDump. The rings are
// filled by a RecordedWorld over the rank's world; the engine side is attached by whoever runs
// the engine, for as long as it runs.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "runtime/comm/communicator.hpp"
#include "runtime/dag/program.hpp"
#include "runtime/diag/rank_dump.hpp"
#include "runtime/engine/engine_snapshot.hpp"
#include "runtime/flight/flight_ring.hpp"

namespace ordo::diag {

inline constexpr std::size_t ring_capacity_default = 256;
inline constexpr std::size_t ring_capacity_max = 1u << 16;

// Where the main thread is (exec::MainPosition, without the dependency).
struct MainView {
  std::string state;
  std::string what;
  std::chrono::steady_clock::time_point since;
};

// What the recorder asks of the running engine. Both are called from the watchdog's thread and
// must be safe there; `engine` may give nullopt (its lock stayed taken).
struct StateSource {
  std::string program;  // the step program's name
  std::function<MainView()> main;
  std::function<std::optional<engine::EngineSnapshot>()> engine;
};

// Something this rank waits on: a call that has not ended, or a wait of the main thread.
struct Waiting {
  std::chrono::steady_clock::time_point since;
  std::string what;  // one line
};

// The oldest open call of any ring and the main thread's wait, each if there is one.
struct Waits {
  std::optional<Waiting> call;
  std::optional<Waiting> main;
};

class FlightRecorder {
 public:
  // Two rings of `ring_capacity` (1..ring_capacity_max) per communicator of `comms` that `world`
  // has this rank in; `comms` is the job's table, as the world was built from.
  FlightRecorder(comm::World& world, const std::vector<dag::Communicator>& comms,
                 std::size_t ring_capacity = ring_capacity_default);
  FlightRecorder(const FlightRecorder&) = delete;
  FlightRecorder& operator=(const FlightRecorder&) = delete;

  // By communicator id, null where this rank is not a member: what a RecordedWorld takes.
  std::vector<flight::CommRings*> rings();

  void attach(StateSource source);
  void detach();

  Waits waits() const;

  RankDump dump(std::string reason, std::string detail, double hang_timeout_s) const;

 private:
  struct CommInfo {
    dag::CommId id = 0;
    std::string name;
    std::optional<std::vector<dag::Rank>> members;
    dag::Rank rank = 0;
    std::uint32_t size = 0;
    std::unique_ptr<flight::CommRings> rings;  // null: not a member
  };

  dag::Rank rank_;
  std::uint32_t world_size_;
  std::size_t ring_capacity_;
  std::vector<CommInfo> comms_;
  mutable std::mutex source_mutex_;
  std::optional<StateSource> source_;  // under source_mutex_
};

// One line for a ring entry: "allreduce of 4 x f32 (sum) on 'grads', key 3, seq 4 (op 'ar.3' on
// pool 'comm' thread 0, blocking)".
std::string describe(const flight::FlightEntry& entry, std::string_view comm_name);

}  // namespace ordo::diag
