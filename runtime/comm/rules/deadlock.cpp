#include "runtime/comm/rules/deadlock.hpp"

#include <algorithm>

#include "runtime/dag/action_text.hpp"

namespace ordo::comm {
namespace {

// The sends and recvs not matched (§3b): each at its message's place on its channel, waiting for
// its peer; a recv from any source (held, M4) for every member, any of whom may send to it.
void add_message_waits(const CommView& c, std::vector<CallWait>& calls) {
  const PeerState& peers = c.match->peers();
  for (const auto& [key, channel] : peers.channels()) {
    const auto& [source, dest, tag] = key;
    std::uint64_t seq = channel.delivered;
    for (const PeerPosted& p : channel.sends) {
      calls.push_back(CallWait{p.call, *c.name, seq++, {c.members->at(dest)}});
    }
    seq = channel.delivered;
    for (const PeerPosted& p : channel.recvs) {
      calls.push_back(CallWait{p.call, *c.name, seq++, {c.members->at(source)}});
    }
  }
  for (const auto& [member, held] : peers.held()) {
    for (const PeerPosted& p : held) {
      const dag::Rank peer = *p.call.call.peer;
      calls.push_back(CallWait{
          p.call, *c.name, 0,
          peer == dag::any_source ? *c.members : std::vector<dag::Rank>{c.members->at(peer)}});
    }
  }
}

}  // namespace

Deadlock describe_deadlock(std::vector<RankAccount> ranks, const std::vector<CommView>& comms,
                           const StreamSet* streams, const PartyOfLaunch& party_of_launch) {
  Deadlock d;
  for (RankAccount& r : ranks) {
    if (r.finished) continue;
    d.ranks_blocked.push_back(r.rank);
    r.main.rank = r.rank;
    d.mains.push_back(std::move(r.main));
    for (OpWait& op : r.ops) {
      op.rank = r.rank;
      d.ops.push_back(std::move(op));
    }
  }
  for (const CommView& c : comms) {
    for (const auto& [seq, slot] : c.match->slots()) {
      std::vector<dag::Rank> missing;
      for (std::size_t m : c.match->missing_members(seq)) missing.push_back(c.members->at(m));
      for (const std::optional<Posted>& p : slot) {
        if (p) d.calls.push_back(CallWait{p->call, *c.name, seq, missing});
      }
    }
    add_message_waits(c, d.calls);
  }
  std::stable_sort(d.calls.begin(), d.calls.end(), [](const CallWait& a, const CallWait& b) {
    return a.call.issuer.rank < b.call.issuer.rank;
  });
  if (streams != nullptr) {
    for (const RankAccount& r : ranks) {
      const DeviceStream& s = streams->stream(r.rank);
      const Launch* head = s.head();
      if (head == nullptr) continue;
      StreamWait w;
      w.rank = r.rank;
      w.launches = s.launches().size();
      w.party = party_of_launch(r.rank, head->tag);
      w.comm_name = head->comm < comms.size() ? *comms[head->comm].name
                                              : "comm " + std::to_string(head->comm);
      w.seq = head->seq;
      w.matched = head->matched;
      if (head->matched) w.waiting_for = heads_elsewhere(*streams, head->comm, head->seq);
      d.streams.push_back(std::move(w));
    }
  }
  return d;
}

MainWait main_wait(dag::Rank rank, const dag::Program& program,
                   const std::vector<dag::Communicator>& comms, std::uint32_t pc, bool in_call,
                   const WritesOf& writes, std::uint64_t ops_incomplete) {
  MainWait m;
  m.rank = rank;
  m.in_call = in_call;
  m.doing = dag::describe_main(program, comms, pc, in_call);
  if (pc >= program.main.size()) return m;
  const dag::Action& a = program.main[pc];
  if (const auto* w = std::get_if<dag::WaitToReadAction>(&a)) {
    if (const auto counts = writes(w->var)) {
      m.writes_completed = counts->first;
      m.writes_submitted = counts->second;
    }
  } else if (std::holds_alternative<dag::WaitForAllAction>(a)) {
    m.ops_incomplete = ops_incomplete;
  }
  return m;
}

bool collective_involved(const Deadlock& d) { return !d.calls.empty() || !d.streams.empty(); }

std::vector<WaitEdge> wait_edges(const Deadlock& d) {
  std::vector<WaitEdge> edges;
  for (dag::Rank rank : d.ranks_blocked) {
    for (const CallWait& c : d.calls) {
      if (c.call.issuer.rank != rank) continue;
      for (dag::Rank to : c.waiting_for) {
        edges.push_back(WaitEdge{rank, c.call.issuer.name, c.comm_name, c.seq, to});
      }
    }
    for (const StreamWait& s : d.streams) {
      if (s.rank != rank) continue;
      for (dag::Rank to : s.waiting_for) {
        edges.push_back(WaitEdge{rank, s.party, s.comm_name, s.seq, to});
      }
    }
  }
  return edges;
}

namespace {

std::string ranks_text(const std::vector<dag::Rank>& ranks) {
  std::string s;
  for (dag::Rank r : ranks) s += " " + std::to_string(r);
  return s;
}

// A collective's place is its call order on the communicator, a message's its channel's (M2).
std::string place_word(const CallWait& c) {
  return dag::is_point_to_point(c.call.call.kind) ? "message" : "call";
}

// ", call 3, waiting for rank(s) 1 2": where the party's call stands, if it has one in flight.
std::string call_position(const Deadlock& d, dag::Rank rank, const std::string& party,
                          std::vector<bool>& told) {
  for (std::size_t i = 0; i < d.calls.size(); ++i) {
    const CallWait& c = d.calls[i];
    if (c.call.issuer.rank != rank || c.call.issuer.name != party || told[i]) continue;
    told[i] = true;
    return ", " + place_word(c) + " " + std::to_string(c.seq) + ", waiting for rank(s)" +
           ranks_text(c.waiting_for);
  }
  return "";
}

std::string main_line(const Deadlock& d, const MainWait& m, std::vector<bool>& told) {
  std::string s = "rank " + std::to_string(m.rank) + " " + m.doing;
  if (m.writes_completed && m.writes_submitted) {
    s += " (" + std::to_string(*m.writes_completed) + " of " + std::to_string(*m.writes_submitted) +
         " writes completed)";
  }
  if (m.ops_incomplete) s += " (" + std::to_string(*m.ops_incomplete) + " ops incomplete)";
  if (m.in_call) s += call_position(d, m.rank, "main", told);
  return s;
}

std::string op_line(const Deadlock& d, const OpWait& o, std::vector<bool>& told) {
  std::string s = "rank " + std::to_string(o.rank) + " op '" + o.name + "'";
  if (o.thread) s += " on pool '" + o.pool + "' thread " + std::to_string(*o.thread);
  s += ": ";
  switch (o.state) {
    case OpWait::State::in_call:
      s += "in " + (o.call ? describe(*o.call, o.comm_name) : std::string("its call"));
      return s + call_position(d, o.rank, o.name, told);
    case OpWait::State::ready:
      return s + "ready, no free thread in pool '" + o.pool + "'";
    case OpWait::State::waiting_for_vars:
      return s + "waiting for " + std::to_string(o.grants_pending) + " var grant(s)";
    case OpWait::State::running:
      break;
  }
  return s + "running";
}

std::string stream_line(const StreamWait& w) {
  std::string s = "rank " + std::to_string(w.rank) + " stream: " + std::to_string(w.launches) +
                  " launch(es); at its head " + w.party + "'s call " + std::to_string(w.seq) +
                  " on '" + w.comm_name + "'";
  if (!w.matched) return s + ", not matched yet";
  return s + ", matched, waiting for the stream head(s) of rank(s)" + ranks_text(w.waiting_for);
}

}  // namespace

std::vector<std::string> wait_lines(const Deadlock& d) {
  std::vector<std::string> lines;
  std::vector<bool> told(d.calls.size(), false);
  for (dag::Rank rank : d.ranks_blocked) {
    for (const MainWait& m : d.mains) {
      if (m.rank == rank) lines.push_back(main_line(d, m, told));
    }
    for (const OpWait& o : d.ops) {
      if (o.rank == rank) lines.push_back(op_line(d, o, told));
    }
    // The calls of parties the rank's account does not list (a threaded run lists no ops).
    for (std::size_t i = 0; i < d.calls.size(); ++i) {
      const CallWait& c = d.calls[i];
      if (c.call.issuer.rank != rank || told[i]) continue;
      told[i] = true;
      lines.push_back("rank " + std::to_string(rank) + " (" + c.call.issuer.name + "): in " +
                      describe(c.call.call, c.comm_name) + ", " + place_word(c) + " " +
                      std::to_string(c.seq) + ", waiting for rank(s)" + ranks_text(c.waiting_for));
    }
    for (const StreamWait& s : d.streams) {
      if (s.rank == rank) lines.push_back(stream_line(s));
    }
  }
  return lines;
}

}  // namespace ordo::comm
