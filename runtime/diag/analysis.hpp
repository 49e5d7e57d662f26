// `ordo analyze`: the ranks' hang dumps matched against each other, per communicator by sequence
// number (the position MPI matches calls by), reported in the checker's terms (docs/semantics.md,
// docs/checker.md): the first divergence (communicator, sequence number, each rank's call), the
// ranks that never issued a call others wait in (or left no dump at all), sends and recvs whose
// other side was never issued, a wait cycle across communicators, and pool exhaustion. Some dumps
// may be missing: a rank killed, stopped or lost with its node writes none.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/comm/rules/violation.hpp"
#include "runtime/dag/program.hpp"
#include "runtime/diag/rank_dump.hpp"

namespace ordo::diag {

// The largest world the analysis takes: it keeps a line per rank.
inline constexpr std::uint32_t analyze_world_max = 1u << 16;

// Dumps that cannot belong to one job (two of one rank, different world sizes or communicator
// tables). What, where and what was expected, as every input error.
class AnalysisInputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RankCall {
  dag::Rank rank = 0;  // world rank
  DumpCall call;
};

// The seq-th calls on a communicator disagree (comm::matches, the rule C2 the checker uses).
struct Divergence {
  dag::CommId comm = 0;
  std::string comm_name;
  std::uint64_t seq = 0;
  std::vector<RankCall> calls;  // in world-rank order
  std::string explanation;      // e.g. which rank appears to have skipped which call
};

// Ranks wait in the seq-th call of a communicator that other members never issued.
struct NotIssued {
  dag::CommId comm = 0;
  std::string comm_name;
  std::uint64_t seq = 0;
  std::vector<RankCall> waiting;    // the open calls
  std::vector<dag::Rank> never;     // dumped ranks that issued fewer calls there
  std::vector<dag::Rank> missing;   // members that left no dump (the first 64)
  std::uint64_t missing_count = 0;  // all of them
};

// A rank waits in a send or recv its peer never issued the other side of. Messages from one rank
// to another with one tag do not overtake (MPI-3.1 §3.5; docs/semantics.md, §3b), so the nth
// message of a stream (kind, peer, tag) needs nth + 1 messages on the other side that can match
// it: for a recv, the peer's sends to it with the tag; for a send, the peer's recvs from it with
// the tag and its recvs from any source with the tag. The nth recv from any source with a tag
// needs nth + 1 messages to its rank with the tag, from every member (whose dumps must all hold
// messages). With fewer, the message is never matched, if the ranks are stuck where they dumped,
// as every finding of the analysis assumes. A stream's places are given in the order its
// messages reached the recorder; two threads of one rank racing on one stream may reach MPI in
// the other order, so the stream starves as named, but the call named may be the other one.
struct Unmatched {
  dag::CommId comm = 0;
  std::string comm_name;
  RankCall waiting;               // the open send or recv
  // The world rank of its peer (the call's own peer is a rank of the communicator); absent: a
  // recv from any source.
  std::optional<dag::Rank> peer;
  bool peer_missing = false;  // the peer left no dump, or one without messages (version 1)
  // The messages on the other side that could match (for a recv from any source: the members'
  // sends to it with the tag) and those on the waiting rank's side that need them.
  std::uint64_t peer_issued = 0;
  std::uint64_t own_issued = 0;
};

struct PoolExhaustion {
  dag::Rank rank = 0;
  std::string pool;
  std::vector<std::string> holding;  // ops on its threads, each in an open blocking collective
  std::vector<std::string> ready;    // ops that cannot start for want of a thread
};

struct RankState {
  dag::Rank rank = 0;
  bool dumped = false;
  std::string reason;  // the dump's reason, when dumped
  std::string detail;
  std::vector<std::string> open;  // its open calls, one line each
  std::string main;               // what its main thread does
  // With a program: which op of it each open call belongs to ("op 12 of 40, 'ar.3'").
  std::vector<std::string> program_ops;
};

enum class Finding : std::uint8_t {
  fault,  // a cause was found: divergence, a call not issued, a cycle, exhaustion, a missing rank
  no_fault,      // every call matched and ended, every rank dumped
  inconclusive,  // ranks are stuck but every member issued the calls they wait in
};
std::string_view to_string(Finding finding);

struct Analysis {
  std::uint32_t world_size = 0;
  std::vector<dag::Rank> missing;  // ranks without a dump
  std::vector<Divergence> divergences;
  std::vector<NotIssued> not_issued;
  std::vector<Unmatched> unmatched;
  std::vector<comm::WaitEdge> edges;  // the wait-for graph between dumped ranks
  std::vector<comm::WaitEdge> cycle;  // a wait cycle, edges in order; empty when none
  std::vector<PoolExhaustion> exhausted;
  std::vector<RankState> ranks;
  Finding finding = Finding::no_fault;
  std::string headline;  // one line: the first cause found
};

// `program`, when given, is the ranks' step program (a dump of `ordo step-dag` or `ordo train
// --dump-step`). Throws AnalysisInputError for dumps that do not fit together, or none at all.
Analysis analyze(const std::vector<RankDump>& dumps, const dag::Job* program = nullptr);

// One line for an unmatched send or recv: who waits in what, and what its peer issued.
std::string unmatched_text(const Unmatched& unmatched);

std::string human_report(const Analysis& analysis);
// Format "ordo-analyze" version 2 (docs/diagnostics.md).
std::string json_report(const Analysis& analysis);
// The object `--json` prints for bad input (exit 2): the same shape with nothing found, finding
// "error", and `error` (null in every other report) the message standard error gives.
std::string json_error_report(const std::string& message);
// The wait-for graph: a box per rank (dashed for a rank without a dump), a red edge per call the
// target rank never issued, the cycle's edges bold; the first divergence as a note.
std::string dot_report(const Analysis& analysis);

}  // namespace ordo::diag
