#include "checker/system/encoding_check.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace ordo::checker {

namespace {

// Reads what put_uint wrote and compares it with what the state holds.
class Reader {
 public:
  Reader(std::string_view bytes, const char* what) : bytes_(bytes), what_(what) {}

  std::uint64_t next() {
    std::uint64_t value = 0;
    for (unsigned shift = 0;; shift += 7) {
      if (at_ == bytes_.size() || shift > 63) fail("ends inside a value");
      const auto byte = static_cast<unsigned char>(bytes_[at_++]);
      value |= std::uint64_t{byte & 0x7fu} << shift;
      if ((byte & 0x80u) == 0) return value;
    }
  }

  void expect(std::uint64_t held, const char* field) {
    const std::uint64_t read = next();
    if (read != held) {
      fail(std::string(field) + " reads back as " + std::to_string(read) + ", the state holds " +
           std::to_string(held));
    }
  }

  void expect_end() {
    if (at_ != bytes_.size()) fail("has bytes left after the last field");
  }

  [[noreturn]] void fail(const std::string& why) const {
    throw std::logic_error(std::string("internal error: a ") + what_ + " encoding at byte " +
                           std::to_string(at_) + " " + why +
                           "; the encoding would merge distinct states");
  }

 private:
  std::string_view bytes_;
  const char* what_;
  std::size_t at_ = 0;
};

}  // namespace

void check_rank_encoding(const RankState& r, std::string_view bytes) {
  Reader in(bytes, "rank");
  in.expect(r.pc, "the main pc");
  in.expect(
      (r.main_blocked ? 1u : 0u) + (r.main_may_return ? 2u : 0u) + (r.choices.empty() ? 0u : 4u),
      "main_blocked");
  if (!r.choices.empty()) {
    in.expect(r.choices.size(), "the count of message choices");
    for (const RankState::Choice& c : r.choices) {
      in.expect(c.comm, "a choice's communicator");
      in.expect(c.tag, "a choice's party");
      in.expect(c.source, "a choice's source");
    }
  }
  for (std::size_t op = 0; op < r.phase.size(); ++op) {
    const OpPhase phase = r.phase[op];
    in.expect(static_cast<std::uint64_t>(phase), "an op's phase");
    if (phase == OpPhase::unsubmitted || phase == OpPhase::completed) continue;
    const engine::OpSlot* slot = r.rules.find(r.handle[op]);
    if (slot == nullptr) in.fail("names a live op the rules do not hold");
    in.expect(static_cast<std::uint64_t>(slot->state), "an op's rules state");
    in.expect(slot->pending, "an op's pending accesses");
    in.expect(slot->holds_thread ? 1 : 0, "whether an op holds a thread");
  }
  for (dag::PoolId pool = 0; pool < r.rules.pools(); ++pool) {
    in.expect(r.rules.ready_count(pool), "a run queue's length");
    std::vector<std::uint64_t> queue;
    r.rules.for_each_ready(pool, [&](std::uint32_t slot) { queue.push_back(r.op_of_slot[slot]); });
    for (std::uint64_t op : queue) in.expect(op, "a run queue's op");
  }
  in.expect(r.stream.launches().size(), "the stream's length");
  for (const comm::Launch& l : r.stream.launches()) {
    in.expect(l.comm, "a launch's communicator");
    in.expect(l.seq, "a launch's sequence number");
    in.expect(l.tag, "a launch's tag");
    in.expect(l.matched ? 1 : 0, "whether a launch matched");
  }
  in.expect_end();
}

void check_comm_encoding(const comm::MatchState& c, std::string_view bytes) {
  Reader in(bytes, "communicator");
  for (std::size_t m = 0; m < c.members(); ++m) in.expect(c.next_seq(m), "a next sequence number");
  for (std::size_t m = 0; m < c.members(); ++m) {
    in.expect(c.in_flight(m).size(), "a member's count of calls in flight");
    for (std::uint64_t seq : c.in_flight(m)) in.expect(seq, "a call in flight");
  }
  in.expect(c.slots().size(), "the count of unmatched slots");
  for (const auto& [seq, slot] : c.slots()) {
    in.expect(seq, "a slot's sequence number");
    for (const auto& p : slot) {
      if (!p) {
        in.expect(0, "an empty place in a slot");
        continue;
      }
      in.expect(std::uint64_t{p->call.issuer.rank} + 1, "a posted call's rank");
      in.expect(p->tag, "a posted call's tag");
      in.expect(p->returned ? 1u : 0u, "whether a posted call's issuer returned");
    }
  }
  const comm::PeerState& peers = c.peers();
  const auto expect_message = [&](const comm::PeerPosted& p) {
    in.expect(std::uint64_t{p.call.issuer.rank} + 1, "a message's rank");
    in.expect(p.tag, "a message's party");
    in.expect(p.returned ? 1u : 0u, "whether a send returned");
  };
  const std::uint64_t holding = peers.held().size();
  const bool any = !peers.channels().empty() || holding > 0;
  in.expect(any ? 1u : 0u, "whether the communicator carried messages");
  if (!any) {
    in.expect_end();
    return;
  }
  in.expect(peers.channels().size(), "the count of channels");
  for (const auto& [key, channel] : peers.channels()) {
    in.expect(std::get<0>(key), "a channel's source");
    in.expect(std::get<1>(key), "a channel's destination");
    in.expect(std::get<2>(key), "a channel's tag");
    in.expect(channel.delivered, "a channel's messages delivered");
    in.expect(channel.sends.size(), "a channel's sends waiting");
    for (const comm::PeerPosted& p : channel.sends) expect_message(p);
    in.expect(channel.recvs.size(), "a channel's recvs waiting");
    for (const comm::PeerPosted& p : channel.recvs) expect_message(p);
  }
  in.expect(holding, "the count of members holding recvs");
  for (const auto& [m, held] : peers.held()) {
    in.expect(m, "a member holding recvs");
    in.expect(held.size(), "a member's held recvs");
    for (const comm::PeerPosted& p : held) expect_message(p);
  }
  in.expect_end();
}

}  // namespace ordo::checker
