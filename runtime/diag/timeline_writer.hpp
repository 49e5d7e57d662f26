// A rank's timeline as a Chrome trace (the trace-event JSON format that Perfetto and
// chrome://tracing open), and the merge of the ranks' traces into one (docs/diagnostics.md,
// "Timeline"). A process per rank; a track for the main thread, one per pool thread, and lanes
// per communicator for the collectives (non-blocking calls overlap, and a track's slices must
// nest); flow arrows from the op that wrote a var to the collective that reduces it.
#pragma once

#include <string>
#include <vector>

#include "runtime/flight/timeline_log.hpp"

namespace ordo::diag {

// The trace's track ids within a rank's process: main 0; pool p's thread t 1000 (p + 1) + t;
// lane l of communicator c 1,000,000 + 1000 c + l.
inline constexpr std::int64_t timeline_main_tid = 0;
std::int64_t timeline_pool_tid(std::uint32_t pool, std::uint32_t thread);
std::int64_t timeline_comm_tid(std::uint32_t comm, std::uint32_t lane);

// One rank's trace: {"traceEvents": [...], "otherData": {"format": "ordo-timeline", ...}}.
std::string write_timeline(const flight::TimelineContents& contents);

// The ranks' traces as one: their events side by side (every rank is its own process) and each
// rank's otherData under "ranks". Throws std::invalid_argument for a text that is not a trace.
std::string merge_timelines(const std::vector<std::string>& rank_traces);

// Where rank K's trace goes before the merge: "FILE.rank-K.json".
std::string timeline_rank_path(const std::string& path, dag::Rank rank);

// Writes `contents` atomically: to its rank path in a world of several ranks; to `path`, in the
// merged form (as merge_timeline_files writes it), in a world of one.
void write_timeline_file(const std::string& path, const flight::TimelineContents& contents);

// Rank 0's part before a run's ranks write theirs: removes the rank files (FILE.rank-K.json of
// any K) that an earlier run left when its merge failed or it was ended first, so that no merge
// takes another run's file for this run's, and the temporaries of them and of FILE that a killed
// writer left (io::remove_stale_temporaries). Names of no other pattern are touched. Returns how
// many files were removed.
std::size_t remove_timeline_leftovers(const std::string& path);

// Rank 0's part, once every rank wrote its file: merges the rank files of a world of `world_size`
// into `path`, atomically, and removes them. A rank file that is missing (written on another
// node's file system) is named in the merged trace's otherData under "missing" and left out.
// Returns the number of ranks merged.
std::uint32_t merge_timeline_files(const std::string& path, std::uint32_t world_size);

}  // namespace ordo::diag
