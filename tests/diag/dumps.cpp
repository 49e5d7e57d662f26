#include "tests/diag/dumps.hpp"

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

}  // namespace ordo::diag::testing
