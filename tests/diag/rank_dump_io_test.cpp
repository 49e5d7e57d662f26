// The dump format: what the watchdog writes reads back field for field, and the reader refuses
// anything else with where, what and what was expected.
#include "runtime/diag/rank_dump_io.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "runtime/errors/input_error.hpp"
#include "tests/diag/dumps.hpp"

namespace ordo::diag {
namespace {

using testing::add_call;
using testing::allreduce;
using testing::empty_dump;

RankDump full_dump() {
  RankDump d = empty_dump(1, 4, {"main", "grads"});
  d.comms[1].members = std::vector<dag::Rank>{0, 1, 3};
  d.comms[1].size = 3;
  d.program = "step";
  add_call(d, 0, testing::barrier(), false, "main", "");
  add_call(d, 1, allreduce(3), false, "ar.3");
  comm::Call sliced = allreduce(4);
  sliced.offset = 12;  // a slice of key 4: the offset is part of what the call is
  add_call(d, 1, sliced, true, "ar.4");
  d.comms[1].calls.back().thread = 2;
  d.comms[1].calls.back().ended_us.reset();
  comm::Call bcast{dag::CollectiveKind::bcast, 9, 8, dag::DType::bf16, dag::Reduction::none, 2u};
  add_call(d, 1, bcast, true, "bc.9");
  // Messages: member 1 of 'grads' sent to member 0 with tag 5 and waits in a recv from any source
  // with that tag and in a send to member 2.
  testing::add_message(d, 1, testing::send(0, 5), false, "tx.0");
  testing::add_message(d, 1, testing::recv(dag::any_source, 5), true, "rx.any");
  testing::add_message(d, 1, testing::send(2, 0), true, "tx.2");
  d.main = DumpMain{"waiting_all", "main waits for all ops", 1'700'000'000'000'100};
  engine::EngineSnapshot e;
  e.ops_incomplete = 3;
  e.ops_live = 3;
  e.pools.push_back({"comm", {std::string("ar.4"), std::nullopt}, 1, {"bc.9"}});
  e.ops.push_back({"ar.4", "running", "comm", 0u, 0, true, true});
  e.ops.push_back({"bc.9", "ready", "comm", std::nullopt, 0, true, true});
  e.vars.push_back({"w.4", 0, true, 2, 1, false, 1, {{"bc.9", false}}});
  e.ops_omitted = 1;
  d.engine = e;
  return d;
}

void expect_same(const RankDump& a, const RankDump& b) {
  EXPECT_EQ(write_rank_dump(a), write_rank_dump(b));
  ASSERT_EQ(a.comms.size(), b.comms.size());
  for (std::size_t i = 0; i < a.comms.size(); ++i) {
    ASSERT_EQ(a.comms[i].calls.size(), b.comms[i].calls.size());
    for (std::size_t j = 0; j < a.comms[i].calls.size(); ++j) {
      EXPECT_EQ(a.comms[i].calls[j].call, b.comms[i].calls[j].call);
    }
  }
}

TEST(DumpIo, RoundTrips) {
  const RankDump d = full_dump();
  const RankDump back = read_rank_dump(write_rank_dump(d));
  expect_same(d, back);
  EXPECT_EQ(back.rank, 1u);
  EXPECT_EQ(back.comms[1].members, d.comms[1].members);
  EXPECT_EQ(back.comms[1].calls[2].call.root, std::optional<dag::Rank>(2));
  EXPECT_EQ(back.comms[1].calls[1].call.offset, 12u);
  ASSERT_TRUE(back.engine.has_value());
  EXPECT_EQ(back.engine->pools[0].threads[1], std::nullopt);
  EXPECT_EQ(back.engine->vars[0].waiting_first[0].op, "bc.9");
  const DumpMessages& m = back.comms[1].messages;
  EXPECT_EQ(m.issued, 3u);
  ASSERT_EQ(m.calls.size(), 3u);
  EXPECT_EQ(m.calls[1].call.peer, std::optional<dag::Rank>(dag::any_source));
  EXPECT_EQ(m.calls[1].call.tag, 5u);
  EXPECT_EQ(m.calls[2].nth, 0u);
  EXPECT_EQ(m.streams, d.comms[1].messages.streams);
  EXPECT_EQ(back.comms[0].messages.issued, 0u);
}

// A dump of version 1, which has no messages, still reads.
TEST(DumpIo, ReadsVersionOne) {
  RankDump d = full_dump();
  d.comms[1].messages = {};
  nlohmann::json j = nlohmann::json::parse(write_rank_dump(d));
  j["version"] = 1;
  const RankDump back = read_rank_dump(j.dump());
  expect_same(d, back);
  EXPECT_FALSE(back.comms[1].messages_known);
  EXPECT_TRUE(read_rank_dump(write_rank_dump(d)).comms[1].messages_known);
}

// Each edit makes the written dump wrong in one way; the reader must say where.
struct Broken {
  const char* name;
  const char* pointer;  // expected in the error's text
  void (*edit)(nlohmann::json&);
};

const Broken broken[] = {
    {"other format", "/format", [](nlohmann::json& j) { j["format"] = "ordo-trace"; }},
    {"newer version", "/version", [](nlohmann::json& j) { j["version"] = 3; }},
    {"unknown field", "/", [](nlohmann::json& j) { j["extra"] = 1; }},
    {"rank past the world", "/rank", [](nlohmann::json& j) { j["rank"] = 4; }},
    {"zero ranks", "/world_size", [](nlohmann::json& j) { j["world_size"] = 0; }},
    {"unknown reason", "/reason", [](nlohmann::json& j) { j["reason"] = "boredom"; }},
    {"seq at issued", "/comms/1/calls/0",
     [](nlohmann::json& j) { j["comms"][1]["calls"][0]["seq"] = 3; }},
    {"seqs out of order", "/comms/1/calls/1",
     [](nlohmann::json& j) { j["comms"][1]["calls"][1]["seq"] = 0; }},
    {"root outside the communicator", "/comms/1/calls/2",
     [](nlohmann::json& j) { j["comms"][1]["calls"][2]["root"] = 3; }},
    {"allreduce without a reduction", "/comms/1/calls/1",
     [](nlohmann::json& j) { j["comms"][1]["calls"][1]["reduction"] = "none"; }},
    {"size not the member count", "/comms/1/size",
     [](nlohmann::json& j) { j["comms"][1]["size"] = 4; }},
    {"member twice", "/comms/1/members/1",
     [](nlohmann::json& j) { j["comms"][1]["members"][1] = 0; }},
    {"rank not at its place in the members", "/comms/1",
     [](nlohmann::json& j) { j["comms"][1]["rank"] = 0; }},
    {"more calls than the ring", "/comms/1/calls",
     [](nlohmann::json& j) { j["ring_capacity"] = 2; }},
    {"completed call without an end", "/comms/1/calls/0",
     [](nlohmann::json& j) { j["comms"][1]["calls"][0].erase("ended_us"); }},
    {"thread without a pool", "/comms/0/calls/0/thread",
     [](nlohmann::json& j) { j["comms"][0]["calls"][0]["thread"] = 0; }},
    {"pool without a thread", "/comms/1/calls/1/pool",
     [](nlohmann::json& j) { j["comms"][1]["calls"][1].erase("thread"); }},
    {"pool with no threads", "/engine/pools/0/threads",
     [](nlohmann::json& j) { j["engine"]["pools"][0]["threads"] = nlohmann::json::array(); }},
    {"negative time", "/written_us", [](nlohmann::json& j) { j["written_us"] = -5; }},
    {"boolean as a number", "/comms/1/calls/0/blocking",
     [](nlohmann::json& j) { j["comms"][1]["calls"][0]["blocking"] = 1; }},
    {"communicators out of order", "/comms/1", [](nlohmann::json& j) { j["comms"][1]["id"] = 0; }},
    {"a collective among the messages", "/comms/1/messages/calls/0",
     [](nlohmann::json& j) {
       nlohmann::json& c = j["comms"][1]["messages"]["calls"][0];
       c = j["comms"][1]["calls"][1];
       c["seq"] = 0;
     }},
    {"a message among the collectives", "/comms/1/calls/0",
     [](nlohmann::json& j) {
       nlohmann::json& c = j["comms"][1]["calls"][0];
       const std::uint64_t seq = c["seq"];
       c = j["comms"][1]["messages"]["calls"][0];
       c["seq"] = seq;
     }},
    {"a place past its stream", "/comms/1/messages/calls/2",
     [](nlohmann::json& j) { j["comms"][1]["messages"]["calls"][2]["nth"] = 1; }},
    {"messages in a dump of version 1", "/comms/1/messages",
     [](nlohmann::json& j) { j["version"] = 1; }},
    {"a message without its place", "/comms/1/messages/calls/1",
     [](nlohmann::json& j) { j["comms"][1]["messages"]["calls"][1].erase("nth"); }},
    {"a place on a collective", "/comms/1/calls/1/nth",
     [](nlohmann::json& j) { j["comms"][1]["calls"][1]["nth"] = 0; }},
    {"streams that do not add up", "/comms/1/messages/streams",
     [](nlohmann::json& j) { j["comms"][1]["messages"]["issued"] = 4; }},
    {"a stream's peer outside the communicator", "/comms/1/messages/streams/0/peer",
     [](nlohmann::json& j) { j["comms"][1]["messages"]["streams"][0]["peer"] = 3; }},
    {"streams out of order", "/comms/1/messages/streams/1",
     [](nlohmann::json& j) {
       nlohmann::json& st = j["comms"][1]["messages"]["streams"];
       std::swap(st[0], st[1]);
     }},
    {"a message to a peer outside the communicator", "/comms/1/messages/calls/2",
     [](nlohmann::json& j) { j["comms"][1]["messages"]["calls"][2]["peer"] = 3; }},
};

TEST(DumpIo, RefusesEachBrokenDumpSayingWhere) {
  const std::string good = write_rank_dump(full_dump());
  for (const Broken& b : broken) {
    SCOPED_TRACE(b.name);
    nlohmann::json j = nlohmann::json::parse(good);
    b.edit(j);
    try {
      read_rank_dump(j.dump());
      ADD_FAILURE() << "read a dump with " << b.name;
    } catch (const errors::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(b.pointer), std::string::npos) << e.what();
    }
  }
}

TEST(DumpIo, RefusesTextThatIsNoDump) {
  for (const std::string& text : std::vector<std::string>{
           "", "{", "[]", "null", std::string(100, '['), "{\"format\": \"ordo-flight\"}"}) {
    EXPECT_THROW(read_rank_dump(text), errors::InputError) << text;
  }
  EXPECT_THROW(read_rank_dump(std::string(dump_bytes_max + 1, ' ')), errors::InputError);
}

TEST(DumpIo, NamesTheFileItCannotRead) {
  try {
    read_rank_dump_file("/nonexistent/rank-0.json");
    FAIL();
  } catch (const errors::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/rank-0.json"), std::string::npos);
  }
}

}  // namespace
}  // namespace ordo::diag
