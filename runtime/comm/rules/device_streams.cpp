#include "runtime/comm/rules/device_streams.hpp"

#include <deque>
#include <stdexcept>
#include <string>

namespace ordo::comm {

void DeviceStream::launch(dag::CommId comm, std::uint64_t seq, std::uint64_t tag) {
  queue_.push_back(Launch{comm, seq, tag, false});
}

bool DeviceStream::mark_matched(dag::CommId comm, std::uint64_t seq) {
  for (Launch& l : queue_) {
    if (l.comm == comm && l.seq == seq) {
      l.matched = true;
      return true;
    }
  }
  return false;
}

void DeviceStream::pop_head() {
  if (queue_.empty()) throw std::logic_error("pop from an empty device stream");
  queue_.erase(queue_.begin());
}

namespace {

bool at_head(const DeviceStream& s, dag::CommId comm, std::uint64_t seq) {
  const Launch* h = s.head();
  return h != nullptr && h->matched && h->comm == comm && h->seq == seq;
}

}  // namespace

std::vector<StreamDone> settle_streams(StreamSet& streams, dag::CommId comm, std::uint64_t seq) {
  for (dag::Rank r : streams.members(comm)) {
    if (!streams.stream_for_write(r).mark_matched(comm, seq)) {
      throw std::logic_error("rank " + std::to_string(r) + " matched call " + std::to_string(seq) +
                             " on communicator " + std::to_string(comm) +
                             " without launching it on its stream");
    }
  }
  std::vector<StreamDone> done;
  // Settling is confluent: completing a call only ever brings others to their heads, so the
  // order in which candidates are tried does not change what completes.
  std::deque<std::pair<dag::CommId, std::uint64_t>> candidates{{comm, seq}};
  while (!candidates.empty()) {
    const auto [c, s] = candidates.front();
    candidates.pop_front();
    const std::vector<dag::Rank>& members = streams.members(c);
    bool ready = true;
    for (dag::Rank r : members) ready = ready && at_head(streams.stream(r), c, s);
    if (!ready) continue;
    for (dag::Rank r : members) {
      DeviceStream& stream = streams.stream_for_write(r);
      done.push_back(StreamDone{r, stream.launches().front().tag});
      stream.pop_head();
    }
    for (dag::Rank r : members) {
      const Launch* next = streams.stream(r).head();
      if (next != nullptr && next->matched) candidates.emplace_back(next->comm, next->seq);
    }
  }
  return done;
}

std::vector<dag::Rank> heads_elsewhere(const StreamSet& streams, dag::CommId comm,
                                       std::uint64_t seq) {
  std::vector<dag::Rank> others;
  for (dag::Rank r : streams.members(comm)) {
    const Launch* h = streams.stream(r).head();
    if (h == nullptr || h->comm != comm || h->seq != seq) others.push_back(r);
  }
  return others;
}

}  // namespace ordo::comm
