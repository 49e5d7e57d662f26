// A timeline over a whole run on every rank (docs/diagnostics.md, "Timeline"): the log, the world
// that logs the collectives, the common time 0 and, at the end, the rank files merged into one.
// What `ordo train --timeline` and the designs bench share.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "runtime/comm/communicator.hpp"
#include "runtime/flight/timeline_log.hpp"
#include "runtime/flight/timeline_world.hpp"

namespace ordo::diag {

class TimelineRun {
 public:
  // Logs the collectives of `inner`, which must outlive it: use world() from here on. `key` is
  // the key of the run's own calls (the barriers of start and finish), made on `inner`.
  // With `step` (a trainer's device world, whose communicators are `inner`'s; it must outlive
  // this too), its collectives are logged as well, under the communicators' own names, and
  // `inner`'s under "host.<name>", as the flight recorder names them: use step_world() for it.
  TimelineRun(std::string path, comm::World& inner, std::size_t capacity, std::int64_t key,
              comm::World* step = nullptr);

  comm::World& world() { return *world_; }
  // The logging view of `step`; null without one.
  comm::World* step_world() { return step_world_.get(); }
  flight::TimelineLog& log() { return log_; }
  const std::string& path() const { return path_; }

  // Every rank at once: rank 0 removes what an earlier run left of its rank files
  // (remove_timeline_leftovers), a barrier on communicator 0, then time 0 of every rank's trace.
  // Ranks on one machine read one steady clock; on several, the barrier's exit aligns them to
  // within its latency (microseconds on a fast network).
  void start();

  // Every rank at once, with no op running: writes this rank's trace (FILE itself for a world of
  // one, else FILE.rank-K.json); once every rank has, rank 0 merges the files into FILE and
  // removes them. Returns an error of this rank's in words, or "" (rank 0 also reports a failed
  // merge). Every rank returns: a rank that failed to write does not stop the others.
  std::string finish();

 private:
  std::string path_;
  flight::TimelineLog log_;
  std::unique_ptr<flight::TimelineWorld> step_world_;  // communicator ids first, when there is one
  std::unique_ptr<flight::TimelineWorld> world_;
  std::int64_t key_;
};

}  // namespace ordo::diag
