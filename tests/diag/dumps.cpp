#include "tests/diag/dumps.hpp"

#include <algorithm>
#include <tuple>

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

void add_call(RankDump& dump, std::size_t comm_index, const comm::Call& call, bool open,
              const std::string& issuer, const std::string& pool) {
  DumpComm& c = dump.comms.at(comm_index);
  DumpCall entry;
  entry.seq = c.issued++;
  entry.call = call;
  entry.issuer = issuer;
  entry.pool = pool;
  entry.state = open ? "in_flight" : "completed";
  entry.issued_us = dump.written_us - 1000 + static_cast<std::int64_t>(entry.seq);
  entry.started_us = entry.issued_us;
  if (!open) entry.ended_us = entry.issued_us + 1;
  c.calls.push_back(std::move(entry));
}

void add_message(RankDump& dump, std::size_t comm_index, const comm::Call& call, bool open,
                 const std::string& issuer) {
  DumpMessages& m = dump.comms.at(comm_index).messages;
  const dag::Rank peer = call.peer.value_or(0);
  auto stream = std::find_if(m.streams.begin(), m.streams.end(), [&](const DumpStream& s) {
    return s.kind == call.kind && s.peer == peer && s.tag == call.tag;
  });
  if (stream == m.streams.end()) {
    m.streams.push_back({call.kind, peer, call.tag, 0});
    std::sort(m.streams.begin(), m.streams.end(), [](const DumpStream& a, const DumpStream& b) {
      return std::tuple(a.kind, a.peer, a.tag) < std::tuple(b.kind, b.peer, b.tag);
    });
    stream = std::find_if(m.streams.begin(), m.streams.end(), [&](const DumpStream& s) {
      return s.kind == call.kind && s.peer == peer && s.tag == call.tag;
    });
  }
  DumpCall entry;
  entry.seq = m.issued++;
  entry.call = call;
  entry.nth = stream->issued++;
  entry.issuer = issuer;
  entry.state = open ? "in_flight" : "completed";
  entry.issued_us = dump.written_us - 1000 + static_cast<std::int64_t>(entry.seq);
  entry.started_us = entry.issued_us;
  if (!open) entry.ended_us = entry.issued_us + 1;
  m.calls.push_back(std::move(entry));
}

}  // namespace ordo::diag::testing
