#include "tests/diag/dumps.hpp"

#include <algorithm>

namespace ordo::diag::testing {

comm::Call allreduce(std::int64_t key, std::uint64_t count) {
  return comm::Call{dag::CollectiveKind::allreduce,
                    key,
                    count,
                    dag::DType::f32,
                    dag::Reduction::sum,
                    std::nullopt};
}

comm::Call barrier() {
  return comm::Call{dag::CollectiveKind::barrier, -1,          0, dag::DType::f32,
                    dag::Reduction::none,         std::nullopt};
}

comm::Call send(dag::Rank peer, std::uint32_t tag, std::uint64_t count) {
  comm::Call c{dag::CollectiveKind::send, 0,           count, dag::DType::f32,
               dag::Reduction::none,      std::nullopt};
  c.peer = peer;
  c.tag = tag;
  return c;
}

comm::Call recv(dag::Rank peer, std::uint32_t tag, std::uint64_t count) {
  comm::Call c = send(peer, tag, count);
  c.kind = dag::CollectiveKind::recv;
  return c;
}

RankDump empty_dump(dag::Rank rank, std::uint32_t world_size,
                    std::initializer_list<std::string> comms) {
  RankDump d;
  d.rank = rank;
  d.world_size = world_size;
  d.reason = "hang";
  d.detail = "test";
  d.written_us = 1'700'000'000'000'000;
  d.hang_timeout_s = 1.0;
  d.ring_capacity = 16;
  dag::CommId id = 0;
  for (const std::string& name : comms) {
    DumpComm c;
    c.id = id++;
    c.name = name;
    c.rank = rank;
    c.size = world_size;
    d.comms.push_back(std::move(c));
  }
  return d;
}

namespace {

// A ring entry at `seq`, issued a little before the dump was written, ended at once unless open.
DumpCall entry_at(const RankDump& dump, std::uint64_t seq, const comm::Call& call, bool open,
                  const std::string& issuer, const std::string& pool) {
  DumpCall entry;
  entry.seq = seq;
  entry.call = call;
  entry.issuer = issuer;
  entry.pool = pool;
  entry.state = open ? "in_flight" : "completed";
  entry.issued_us = dump.written_us - 1000 + static_cast<std::int64_t>(seq);
  entry.started_us = entry.issued_us;
  if (!open) entry.ended_us = entry.issued_us + 1;
  return entry;
}

}  // namespace

void add_call(RankDump& dump, std::size_t comm_index, const comm::Call& call, bool open,
              const std::string& issuer, const std::string& pool) {
  DumpComm& c = dump.comms.at(comm_index);
  c.calls.push_back(entry_at(dump, c.issued++, call, open, issuer, pool));
}

void add_message(RankDump& dump, std::size_t comm_index, const comm::Call& call, bool open,
                 const std::string& issuer) {
  DumpMessages& m = dump.comms.at(comm_index).messages;
  const DumpStream fresh{call.kind, call.peer.value_or(0), call.tag, 0};
  auto stream =
      std::lower_bound(m.streams.begin(), m.streams.end(), fresh,
                       [](const DumpStream& a, const DumpStream& b) { return a.key() < b.key(); });
  if (stream == m.streams.end() || stream->key() != fresh.key()) {
    stream = m.streams.insert(stream, fresh);
  }
  DumpCall entry = entry_at(dump, m.issued++, call, open, issuer, "");
  entry.nth = stream->issued++;
  m.calls.push_back(std::move(entry));
}

}  // namespace ordo::diag::testing
