#include "runtime/diag/analysis.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <set>

#include "runtime/diag/unmatched_messages.hpp"

namespace ordo::diag {
namespace {

constexpr std::size_t listed_max = 64;

// One communicator as the dumps together describe it.
struct CommView {
  dag::CommId id = 0;
  std::string name;
  std::optional<std::vector<dag::Rank>> members;  // world ranks; absent: every rank
  // Per member world rank with a dump: its view of the communicator.
  std::map<dag::Rank, const DumpComm*> dumps;
  // The view of a member whose dump does not list the communicator: it issued nothing there (it
  // never created it, or stopped before), which is what the others' open calls wait for.
  std::vector<std::shared_ptr<const DumpComm>> unlisted;
};

const DumpCall* call_at(const DumpComm& owner, std::uint64_t seq) {
  const auto it = std::lower_bound(owner.calls.begin(), owner.calls.end(), seq,
                                   [](const DumpCall& c, std::uint64_t s) { return c.seq < s; });
  return it != owner.calls.end() && it->seq == seq ? &*it : nullptr;
}

bool agree(const DumpCall& a, const DumpCall& b) {
  return comm::matches(a.call, a.blocking, b.call, b.blocking);
}

std::string describe_call(const DumpCall& c, std::string_view comm_name) {
  std::string text = comm::describe(c.call, comm_name) + " (" + c.issuer;
  if (!c.pool.empty()) text += " on pool '" + c.pool + "' thread " + std::to_string(c.thread);
  return text + (c.blocking ? ", blocking" : ", non-blocking") + ", " + c.state + ")";
}

std::vector<CommView> comm_views(const std::vector<const RankDump*>& by_rank) {
  std::map<dag::CommId, CommView> views;
  for (const RankDump* d : by_rank) {
    if (d == nullptr) continue;
    for (const DumpComm& c : d->comms) {
      auto [it, fresh] = views.try_emplace(c.id);
      CommView& v = it->second;
      if (fresh) {
        v.id = c.id;
        v.name = c.name;
        v.members = c.members;
      } else if (v.name != c.name || v.members != c.members) {
        throw AnalysisInputError("rank " + std::to_string(d->rank) + "'s dump: communicator " +
                                 std::to_string(c.id) + " is '" + c.name +
                                 "' with other members than in an earlier dump ('" + v.name +
                                 "'); expected the dumps of one job");
      }
      v.dumps[d->rank] = &c;
    }
  }
  std::vector<CommView> out;
  for (auto& [id, v] : views) {
    for (const RankDump* d : by_rank) {
      if (d == nullptr || v.dumps.contains(d->rank)) continue;
      std::optional<dag::Rank> in_comm = d->rank;
      if (v.members) {
        const auto at = std::find(v.members->begin(), v.members->end(), d->rank);
        in_comm = at == v.members->end()
                      ? std::nullopt
                      : std::optional<dag::Rank>(static_cast<dag::Rank>(at - v.members->begin()));
      }
      if (!in_comm) continue;
      auto none = std::make_shared<DumpComm>();
      none->id = v.id;
      none->name = v.name;
      none->members = v.members;
      none->rank = *in_comm;
      none->size = v.members ? static_cast<std::uint32_t>(v.members->size()) : d->world_size;
      v.dumps[d->rank] = none.get();
      v.unlisted.push_back(std::move(none));
    }
    out.push_back(std::move(v));
  }
  return out;
}

// Which rank is out of step at a divergent seq, when the ring shows it: a rank whose call at seq
// is what the others issue at seq + 1 skipped one.
std::string explain(const CommView& v, std::uint64_t seq, const std::vector<RankCall>& calls) {
  // The reference: the call most ranks agree on; ties go to the lowest rank.
  std::size_t best = 0;
  std::size_t best_votes = 0;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    std::size_t votes = 0;
    for (const RankCall& other : calls) {
      if (agree(calls[i].call, other.call)) ++votes;
    }
    if (votes > best_votes) {
      best = i;
      best_votes = votes;
    }
  }
  const RankCall& ref = calls[best];
  const DumpCall* ref_next = call_at(*v.dumps.at(ref.rank), seq + 1);
  std::string text;
  for (const RankCall& rc : calls) {
    if (agree(rc.call, ref.call)) continue;
    const DumpCall* next = call_at(*v.dumps.at(rc.rank), seq + 1);
    if (!text.empty()) text += "; ";
    if (ref_next != nullptr && agree(rc.call, *ref_next)) {
      text += "rank " + std::to_string(rc.rank) + " did not issue " +
              comm::describe(ref.call.call, v.name) + ", which rank " + std::to_string(ref.rank) +
              " issued at seq " + std::to_string(seq) + ": rank " + std::to_string(rc.rank) +
              "'s seq " + std::to_string(seq) + " is rank " + std::to_string(ref.rank) + "'s seq " +
              std::to_string(seq + 1);
    } else if (next != nullptr && agree(*next, ref.call)) {
      text += "rank " + std::to_string(rc.rank) + " issued " +
              comm::describe(rc.call.call, v.name) + " at seq " + std::to_string(seq) +
              ", which rank " + std::to_string(ref.rank) + " did not issue there (rank " +
              std::to_string(rc.rank) + "'s seq " + std::to_string(seq + 1) + " is rank " +
              std::to_string(ref.rank) + "'s seq " + std::to_string(seq) + ")";
    } else {
      text += "rank " + std::to_string(rc.rank) + " issued " +
              comm::describe(rc.call.call, v.name) + " where rank " + std::to_string(ref.rank) +
              " issued " + comm::describe(ref.call.call, v.name);
    }
  }
  return text;
}

std::optional<Divergence> first_divergence(const CommView& v) {
  std::set<std::uint64_t> seqs;
  for (const auto& [rank, c] : v.dumps) {
    for (const DumpCall& call : c->calls) seqs.insert(call.seq);
  }
  for (const std::uint64_t seq : seqs) {
    std::vector<RankCall> calls;
    for (const auto& [rank, c] : v.dumps) {
      if (const DumpCall* call = call_at(*c, seq)) calls.push_back({rank, *call});
    }
    bool differ = false;
    for (const RankCall& rc : calls) differ = differ || !agree(rc.call, calls.front().call);
    if (!differ) continue;
    Divergence d{v.id, v.name, seq, calls, {}};
    d.explanation = explain(v, seq, calls);
    return d;
  }
  return std::nullopt;
}

// A rank's calls on one communicator complete in order, so what holds it there is its earliest
// open call; the later ones wait behind it. Only that one is matched against the other ranks,
// which also bounds the work by the number of dumps, whatever the rings hold.
void find_not_issued(const CommView& v, const std::vector<dag::Rank>& missing, Analysis& a) {
  std::map<std::uint64_t, NotIssued> by_seq;
  for (const auto& [rank, c] : v.dumps) {
    const auto open = std::find_if(c->calls.begin(), c->calls.end(),
                                   [](const DumpCall& call) { return call.open(); });
    if (open == c->calls.end()) continue;
    NotIssued& n = by_seq[open->seq];
    n.comm = v.id;
    n.comm_name = v.name;
    n.seq = open->seq;
    n.waiting.push_back({rank, *open});
  }
  for (auto& entry : by_seq) {
    // Named, not a structured binding: the lambda below captures it (clang 14 cannot).
    const std::uint64_t seq = entry.first;
    NotIssued& n = entry.second;
    for (const auto& [rank, c] : v.dumps) {
      if (c->issued > seq) continue;
      n.never.push_back(rank);
      for (const RankCall& w : n.waiting)
        a.edges.push_back({w.rank, w.call.issuer, v.name, seq, rank});
    }
    // Listed up to a bound, counted in full: a huge world with few dumps must not make every
    // entry as long as the world.
    auto note_missing = [&](dag::Rank member) {
      ++n.missing_count;
      if (n.missing.size() < listed_max) n.missing.push_back(member);
    };
    if (v.members) {
      for (const dag::Rank member : *v.members) {
        if (!v.dumps.contains(member)) note_missing(member);
      }
    } else {
      n.missing_count = missing.size();
      n.missing.assign(missing.begin(), missing.begin() + static_cast<std::ptrdiff_t>(std::min(
                                                              missing.size(), listed_max)));
    }
    if (!n.never.empty() || n.missing_count != 0) a.not_issued.push_back(std::move(n));
  }
}

// A cycle in the wait-for graph, if any: depth-first search over ranks, iterative so that no
// number of ranks can exhaust the stack.
std::vector<comm::WaitEdge> find_cycle(const std::vector<comm::WaitEdge>& edges,
                                       std::uint32_t world_size) {
  std::vector<std::vector<const comm::WaitEdge*>> out(world_size);
  for (const comm::WaitEdge& e : edges) out[e.from].push_back(&e);
  std::vector<int> mark(world_size, 0);  // 0 unseen, 1 on the path, 2 done
  struct Frame {
    dag::Rank rank;
    std::size_t next = 0;  // index of the next edge of `rank` to follow
  };
  for (dag::Rank start = 0; start < world_size; ++start) {
    if (mark[start] != 0) continue;
    std::vector<Frame> stack{{start}};
    std::vector<const comm::WaitEdge*> path;  // path[i] leaves stack[i]
    mark[start] = 1;
    while (!stack.empty()) {
      Frame& f = stack.back();
      if (f.next == out[f.rank].size()) {
        mark[f.rank] = 2;
        stack.pop_back();
        if (!path.empty()) path.pop_back();
        continue;
      }
      const comm::WaitEdge* e = out[f.rank][f.next++];
      if (mark[e->to] == 1) {
        std::vector<comm::WaitEdge> cycle;
        path.push_back(e);
        auto it = std::find_if(path.begin(), path.end(),
                               [&](const comm::WaitEdge* p) { return p->from == e->to; });
        for (; it != path.end(); ++it) cycle.push_back(**it);
        return cycle;
      }
      if (mark[e->to] == 0) {
        mark[e->to] = 1;
        path.push_back(e);
        stack.push_back({e->to});
      }
    }
  }
  return {};
}

void find_exhaustion(const RankDump& d, Analysis& a) {
  if (!d.engine) return;
  std::set<std::pair<std::string, std::string>> blocked;  // (pool, issuer) of open blocking calls
  for (const DumpComm& c : d.comms) {
    for (const DumpCall& call : c.calls) {
      if (call.open() && call.blocking && !call.pool.empty())
        blocked.insert({call.pool, call.issuer});
    }
  }
  for (const engine::SnapshotPool& p : d.engine->pools) {
    if (p.ready == 0) continue;
    PoolExhaustion x{d.rank, p.name, {}, p.ready_first};
    bool all = true;
    for (const std::optional<std::string>& t : p.threads) {
      if (!t || !blocked.contains({p.name, *t})) {
        all = false;
        break;
      }
      x.holding.push_back(*t);
    }
    if (all) a.exhausted.push_back(std::move(x));
  }
}

// The step builder names a step's ops "s<k>.<name>" in a program of several steps and "<name>"
// in a program of one; a training run's engine sees step k's ops under the first form. So an op
// of any step is found in a dump of one step or of the first steps under its step-free name.
std::optional<std::size_t> find_op(const dag::Program& p, const std::string& name) {
  for (std::size_t i = 0; i < p.ops.size(); ++i) {
    if (p.ops[i].name == name) return i;
  }
  return std::nullopt;
}

std::string program_position(const dag::Job& job, dag::Rank rank, const std::string& issuer) {
  const dag::Program* p = dag::program_of(job, rank);
  if (p == nullptr) return {};
  if (issuer == "main") return "a collective of the main thread of program '" + p->name + "'";
  const std::string of = " of " + std::to_string(p->ops.size()) + " of program '" + p->name + "'";
  if (const std::optional<std::size_t> i = find_op(*p, issuer)) {
    return "op " + std::to_string(*i) + of + " ('" + issuer + "')";
  }
  std::size_t digits = 1;
  while (digits < issuer.size() && issuer[digits] >= '0' && issuer[digits] <= '9') ++digits;
  if (issuer.size() > 2 && issuer[0] == 's' && digits > 1 && digits < issuer.size() &&
      issuer[digits] == '.') {
    const std::string step = issuer.substr(1, digits - 1);
    const std::string rest = issuer.substr(digits + 1);
    for (const std::string& name : {rest, "s1." + rest}) {
      if (const std::optional<std::size_t> i = find_op(*p, name)) {
        return "op " + std::to_string(*i) + of + " ('" + name + "'), at step " + step;
      }
    }
  }
  return "'" + issuer + "', which program '" + p->name + "' has no op of";
}

void note_open(RankState& s, const std::string& place, const DumpCall& call,
               const std::string& comm_name, const RankDump& d, const dag::Job* program) {
  s.open.push_back(place + ": " + describe_call(call, comm_name));
  if (program != nullptr) {
    const std::string where = program_position(*program, d.rank, call.issuer);
    if (!where.empty()) s.program_ops.push_back(where);
  }
}

RankState rank_state(const RankDump& d, const dag::Job* program) {
  RankState s;
  s.rank = d.rank;
  s.dumped = true;
  s.reason = d.reason;
  s.detail = d.detail;
  for (const DumpComm& c : d.comms) {
    // A collective's place is its seq; a message's is its place in its stream.
    for (const DumpCall& call : c.calls) {
      if (call.open()) note_open(s, "seq " + std::to_string(call.seq), call, c.name, d, program);
    }
    for (const DumpCall& call : c.messages.calls) {
      if (call.open()) note_open(s, "nth " + std::to_string(call.nth), call, c.name, d, program);
    }
  }
  if (d.main) s.main = d.main->what.empty() ? d.main->state : d.main->what;
  if (program != nullptr && d.engine) {
    for (const engine::SnapshotOp& op : d.engine->ops) {
      if (op.state != "running") continue;
      const std::string where = program_position(*program, d.rank, op.name);
      if (!where.empty() &&
          std::find(s.program_ops.begin(), s.program_ops.end(), where) == s.program_ops.end()) {
        s.program_ops.push_back(where);
      }
    }
  }
  return s;
}

std::string ranks_text(const std::vector<dag::Rank>& ranks) {
  std::string text;
  for (const dag::Rank r : ranks) text += (text.empty() ? "" : ", ") + std::to_string(r);
  return text;
}

}  // namespace

std::string unmatched_text(const Unmatched& u) {
  const DumpCall& m = u.waiting.call;
  const std::string waits = "rank " + std::to_string(u.waiting.rank) + " waits in " +
                            comm::describe(m.call, u.comm_name) + ", nth " + std::to_string(m.nth) +
                            ", ";
  if (!u.peer) {
    return waits + "which no rank sent: the members sent rank " + std::to_string(u.waiting.rank) +
           " " + std::to_string(u.peer_issued) + " message(s) with tag " +
           std::to_string(m.call.tag) + " on '" + u.comm_name + "', and this is its recv " +
           std::to_string(u.own_issued) + " from any source with that tag";
  }
  const std::string peer = "rank " + std::to_string(*u.peer);
  if (u.peer_missing) return waits + "whose peer, " + peer + ", left no dump of its messages";
  const bool recv = m.call.kind == dag::CollectiveKind::recv;
  return waits + "which " + peer + " never " + (recv ? "sent" : "posted a recv for") + ": it " +
         (recv ? "sent " : "posted ") + std::to_string(u.peer_issued) + " such " +
         (recv ? "message(s)" : "recv(s)") + " in all";
}

namespace {

std::string headline(const Analysis& a) {
  // A rank that failed on its own (a bad record, a failed write) is the cause of the rest.
  for (const RankState& s : a.ranks) {
    if (s.reason == "error") return "rank " + std::to_string(s.rank) + " failed: " + s.detail;
  }
  if (!a.divergences.empty()) {
    const Divergence& d = a.divergences.front();
    return "first divergence on '" + d.comm_name + "' at seq " + std::to_string(d.seq) +
           (d.explanation.empty() ? "" : ": " + d.explanation);
  }
  if (!a.cycle.empty()) {
    std::string text = "wait cycle ";
    for (const comm::WaitEdge& e : a.cycle) text += std::to_string(e.from) + " -> ";
    text += std::to_string(a.cycle.front().from) + ":";
    for (const comm::WaitEdge& e : a.cycle) {
      text += " rank " + std::to_string(e.from) + " (" + e.party + ") waits in '" + e.comm_name +
              "' seq " + std::to_string(e.seq) + ", which rank " + std::to_string(e.to) +
              " never issued;";
    }
    text.pop_back();
    return text;
  }
  for (const NotIssued& n : a.not_issued) {
    if (n.missing.empty()) continue;
    return "rank(s) " + ranks_text(n.missing) +
           " left no dump (killed, stopped or lost) and rank(s) " + ranks_text([&] {
             std::vector<dag::Rank> w;
             for (const RankCall& c : n.waiting) w.push_back(c.rank);
             return w;
           }()) +
           " wait for them in '" + n.comm_name + "' seq " + std::to_string(n.seq);
  }
  if (!a.not_issued.empty()) {
    const NotIssued& n = a.not_issued.front();
    return "rank(s) " + ranks_text(n.never) + " never issued " +
           comm::describe(n.waiting.front().call.call, n.comm_name) + ", seq " +
           std::to_string(n.seq) + ", which rank " + std::to_string(n.waiting.front().rank) +
           " waits in";
  }
  if (!a.unmatched.empty()) return unmatched_text(a.unmatched.front());
  if (!a.exhausted.empty()) {
    const PoolExhaustion& x = a.exhausted.front();
    return "pool exhaustion: every thread of pool '" + x.pool + "' on rank " +
           std::to_string(x.rank) + " is held by a blocking collective";
  }
  if (!a.missing.empty()) return "rank(s) " + ranks_text(a.missing) + " left no dump";
  if (a.finding == Finding::inconclusive) {
    return "ranks are stuck in calls every member issued: the fault is below ordo (the network, "
           "or a rank stopped inside the call)";
  }
  return "no fault: every recorded call matched";
}

}  // namespace

std::string_view to_string(Finding finding) {
  switch (finding) {
    case Finding::fault:
      return "fault";
    case Finding::no_fault:
      return "no_fault";
    case Finding::inconclusive:
      return "inconclusive";
  }
  return "unknown";
}

Analysis analyze(const std::vector<RankDump>& dumps, const dag::Job* program) {
  if (dumps.empty()) throw AnalysisInputError("no dumps; expected at least one rank-K.json");
  Analysis a;
  a.world_size = dumps.front().world_size;
  if (a.world_size > analyze_world_max) {
    throw AnalysisInputError("dumps of a world of " + std::to_string(a.world_size) +
                             " ranks; ordo analyze handles at most " +
                             std::to_string(analyze_world_max));
  }
  std::vector<const RankDump*> by_rank(a.world_size, nullptr);
  for (const RankDump& d : dumps) {
    if (d.world_size != a.world_size) {
      throw AnalysisInputError("rank " + std::to_string(d.rank) + "'s dump is of a world of " +
                               std::to_string(d.world_size) + " ranks; expected " +
                               std::to_string(a.world_size) + " as in rank " +
                               std::to_string(dumps.front().rank) + "'s");
    }
    if (d.rank >= a.world_size) {
      throw AnalysisInputError("a dump of rank " + std::to_string(d.rank) + " in a world of " +
                               std::to_string(a.world_size) + "; expected a rank below it");
    }
    if (by_rank[d.rank] != nullptr) {
      throw AnalysisInputError("two dumps of rank " + std::to_string(d.rank) +
                               "; expected one per rank");
    }
    by_rank[d.rank] = &d;
  }
  for (dag::Rank r = 0; r < a.world_size; ++r) {
    if (by_rank[r] == nullptr) {
      a.missing.push_back(r);
      RankState s;
      s.rank = r;
      a.ranks.push_back(std::move(s));
    } else {
      a.ranks.push_back(rank_state(*by_rank[r], program));
    }
  }
  bool open = false;
  for (const CommView& v : comm_views(by_rank)) {
    if (std::optional<Divergence> d = first_divergence(v)) a.divergences.push_back(std::move(*d));
    find_not_issued(v, a.missing, a);
    for (Unmatched& u : unmatched_messages(v.id, v.name, v.members, v.dumps)) {
      a.unmatched.push_back(std::move(u));
    }
    for (const auto& [rank, c] : v.dumps) {
      for (const DumpCall& call : c->calls) open = open || call.open();
      for (const DumpCall& call : c->messages.calls) open = open || call.open();
    }
  }
  // The divergence that happened first, by the time its calls were issued, leads.
  std::stable_sort(a.divergences.begin(), a.divergences.end(),
                   [](const Divergence& x, const Divergence& y) {
                     return x.calls.front().call.issued_us < y.calls.front().call.issued_us;
                   });
  a.cycle = find_cycle(a.edges, a.world_size);
  for (const RankDump* d : by_rank) {
    if (d != nullptr) find_exhaustion(*d, a);
  }
  const bool failed = std::any_of(a.ranks.begin(), a.ranks.end(),
                                  [](const RankState& s) { return s.reason == "error"; });
  const bool fault = failed || !a.divergences.empty() || !a.not_issued.empty() ||
                     !a.unmatched.empty() || !a.cycle.empty() || !a.exhausted.empty() ||
                     !a.missing.empty();
  a.finding = fault ? Finding::fault : open ? Finding::inconclusive : Finding::no_fault;
  a.headline = headline(a);
  return a;
}

}  // namespace ordo::diag
