#include "fuzz/lib/message_jobs.hpp"

#include <string>
#include <vector>

namespace ordo::fuzz {

namespace {

// One exchange of the shared script: every rank r sends to r + shift and receives from r - shift
// (mod the rank count), or, for an allreduce, every rank calls one.
struct Exchange {
  bool allreduce = false;
  std::uint32_t shift = 1;
  std::uint32_t tag = 0;
  std::uint32_t send_first = 0;  // bit r: rank r sends before it receives
  std::uint32_t how = 0;         // 0 blocking ops, 1 non-blocking ops, 2 the main thread
  std::uint32_t any = 0;         // bit r: rank r receives from any source
  std::uint32_t other_key = 0;   // bit r: rank r sends another key
  std::uint32_t longer = 0;      // bit r: rank r sends one element more than the recv takes
  std::uint32_t skip = 0;        // bit r: rank r leaves the exchange out
};

struct MessageRecipe {
  std::uint32_t ranks = 2;
  std::uint32_t threads = 1;
  bool chained = false;  // each op reads the token the previous one wrote
  std::vector<Exchange> exchanges;
};

constexpr std::uint64_t message_elements = 2;
constexpr std::uint64_t message_var_bytes = (message_elements + 1) * 4;

bool in_mask(std::uint32_t mask, dag::Rank r) { return ((mask >> r) & 1u) != 0; }

dag::Collective message_call(const Exchange& e, std::size_t index, dag::Rank rank,
                             std::uint32_t ranks, bool send) {
  dag::Collective c;
  c.comm = 0;
  c.key = static_cast<std::int64_t>(index);
  c.count = message_elements;
  if (e.allreduce) {
    c.kind = dag::CollectiveKind::allreduce;
    c.reduction = dag::Reduction::sum;
    return c;
  }
  c.tag = e.tag;
  if (send) {
    c.kind = dag::CollectiveKind::send;
    c.peer = (rank + e.shift) % ranks;
    if (in_mask(e.other_key, rank)) c.key += 100;
    if (in_mask(e.longer, rank)) c.count += 1;
  } else {
    c.kind = dag::CollectiveKind::recv;
    c.peer = in_mask(e.any, rank) ? dag::any_source : (rank + ranks - e.shift) % ranks;
  }
  return c;
}

dag::Program message_program(const MessageRecipe& recipe, dag::Rank rank) {
  dag::Program p;
  p.name = "rank" + std::to_string(rank);
  p.ranks = std::vector<dag::Rank>{rank};
  p.pools.push_back({"comm", recipe.threads, dag::PoolKind::fifo});
  p.vars.push_back({"tok", dag::VarKind::token, 0, dag::DType::u8});
  for (std::size_t i = 0; i < recipe.exchanges.size(); ++i) {
    const Exchange& e = recipe.exchanges[i];
    if (in_mask(e.skip, rank)) continue;
    const bool send_first = in_mask(e.send_first, rank);
    const int parts = e.allreduce ? 1 : 2;
    for (int part = 0; part < parts; ++part) {
      const bool send = e.allreduce ? false : (part == 0) == send_first;
      const auto buffer = static_cast<dag::VarId>(p.vars.size());
      p.vars.push_back({"b" + std::to_string(i) + (send ? "s" : "r"), dag::VarKind::buffer,
                        message_var_bytes, dag::DType::f32});
      const dag::Collective c = message_call(e, i, rank, recipe.ranks, send);
      if (e.how == 2) {
        p.main.emplace_back(dag::CollectiveAction{c, buffer});
        continue;
      }
      dag::Op op;
      op.name = "x" + std::to_string(i) + (e.allreduce ? "a" : send ? "s" : "r");
      op.kind = e.how == 1 ? dag::OpKind::async_collective : dag::OpKind::collective;
      // A send reads its buffer, a recv or an allreduce writes it (docs/dag-format.md); chained,
      // every op also writes the token, so the rank's ops run one at a time in submit order.
      if (send) {
        op.reads = {buffer};
      } else {
        op.writes = {buffer};
      }
      if (recipe.chained) op.writes.push_back(0);
      op.collective = c;
      p.main.emplace_back(dag::SubmitAction{static_cast<dag::OpId>(p.ops.size())});
      p.ops.push_back(std::move(op));
    }
  }
  p.main.emplace_back(dag::WaitForAllAction{});
  return p;
}

}  // namespace

Instance draw_message_job(Draws& d) {
  MessageRecipe r;
  r.ranks = static_cast<std::uint32_t>(d.between(2, 3));
  r.threads = static_cast<std::uint32_t>(d.between(1, 2));
  r.chained = d.one_in(3);
  const std::uint32_t all = (1u << r.ranks) - 1;
  // Departures from the script are rare, so that most exchanges line up.
  const auto rare = [&] { return d.one_in(4) ? static_cast<std::uint32_t>(d.below(all + 1)) : 0; };
  r.exchanges.resize(d.between(1, 3));
  for (Exchange& e : r.exchanges) {
    e.allreduce = d.one_in(5);
    e.shift = static_cast<std::uint32_t>(d.between(1, r.ranks - 1));
    e.tag = static_cast<std::uint32_t>(d.below(2));
    // Most often the safe order of MPI-3.1 §3.5 (one side sends first), sometimes all alike.
    e.send_first = d.one_in(3) ? static_cast<std::uint32_t>(d.below(all + 1)) : 0x5u & all;
    e.how = static_cast<std::uint32_t>(d.weighted({3, 3, 1}));
    e.any = rare();
    e.other_key = rare();
    e.longer = rare();
    e.skip = d.one_in(6) ? static_cast<std::uint32_t>(d.below(all + 1)) : 0;
  }
  Instance instance;
  instance.ranks = r.ranks;
  instance.job.ranks = r.ranks;
  instance.job.comms.push_back({"world", std::nullopt});
  for (dag::Rank rank = 0; rank < r.ranks; ++rank) {
    instance.job.programs.push_back(message_program(r, rank));
  }
  instance.origin = "message job, " + std::to_string(r.exchanges.size()) + " exchange(s) on " +
                    std::to_string(r.ranks) + " ranks, " + std::to_string(r.threads) +
                    " comm thread(s)" + (r.chained ? ", chained" : "");
  return instance;
}

}  // namespace ordo::fuzz
