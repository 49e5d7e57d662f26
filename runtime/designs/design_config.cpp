#include "runtime/designs/design_config.hpp"

#include <stdexcept>
#include <utility>

namespace ordo::designs {

namespace {

constexpr std::uint32_t threads_max = 256;
constexpr std::uint32_t ncomm_max = 64;
constexpr std::uint32_t outstanding_max = 1u << 16;
constexpr std::uint64_t bucket_bytes_max = std::uint64_t{1} << 32;
constexpr std::uint32_t ranks_max = 1u << 20;  // of a job whose program depends on its ranks
constexpr std::uint32_t nodes_max = 1u << 12;  // a communicator each, within dag's comm limit
constexpr DesignKind all_kinds[] = {
    DesignKind::naive, DesignKind::funnel,      DesignKind::concom,  DesignKind::depcha,
    DesignKind::fused, DesignKind::nonblocking, DesignKind::sharded, DesignKind::hierarchical,
    DesignKind::priority};

void check_range(const char* what, std::uint32_t value, std::uint32_t max) {
  if (value == 0 || value > max) {
    throw std::invalid_argument(std::string("design ") + what + " must be in [1, " +
                                std::to_string(max) + "], not " + std::to_string(value));
  }
}

}  // namespace

std::string_view to_string(DesignKind kind) {
  switch (kind) {
    case DesignKind::naive:
      return "naive";
    case DesignKind::funnel:
      return "funnel";
    case DesignKind::concom:
      return "concom";
    case DesignKind::depcha:
      return "depcha";
    case DesignKind::fused:
      return "fused";
    case DesignKind::nonblocking:
      return "nonblocking";
    case DesignKind::sharded:
      return "sharded";
    case DesignKind::hierarchical:
      return "hierarchical";
    case DesignKind::priority:
      return "priority";
  }
  return "?";
}

std::string_view to_string(InitKind kind) { return kind == InitKind::safe ? "safe" : "fig4"; }

std::string_view to_string(BufferMode mode) {
  return mode == BufferMode::in_place ? "in_place" : "copy";
}

std::string design_names() {
  std::string names;
  for (std::size_t i = 0; i < std::size(all_kinds); ++i) {
    if (i > 0) names += i + 1 == std::size(all_kinds) ? " or " : ", ";
    names += to_string(all_kinds[i]);
  }
  return names;
}

DesignKind parse_design(std::string_view name) {
  for (DesignKind k : all_kinds) {
    if (name == to_string(k)) return k;
  }
  throw std::invalid_argument("unknown design '" + std::string(name) + "'; expected " +
                              design_names());
}

InitKind parse_init(std::string_view name) {
  if (name == "safe") return InitKind::safe;
  if (name == "fig4") return InitKind::fig4;
  throw std::invalid_argument("unknown init '" + std::string(name) +
                              "'; expected one of: safe, fig4");
}

BufferMode parse_buffers(std::string_view name) {
  if (name == "in_place") return BufferMode::in_place;
  if (name == "copy") return BufferMode::copy;
  throw std::invalid_argument("unknown buffer mode '" + std::string(name) +
                              "'; expected one of: in_place, copy");
}

void check_config(const DesignConfig& config) {
  check_range("compute_threads", config.compute_threads, threads_max);
  check_range("copy_threads", config.copy_threads, threads_max);
  check_range("comm_threads", config.comm_threads, threads_max);
  check_range("ncomm", config.ncomm, ncomm_max);
  check_range("outstanding", config.outstanding, outstanding_max);
  if (config.bucket_bytes == 0 || config.bucket_bytes > bucket_bytes_max) {
    throw std::invalid_argument("design bucket_bytes must be in [1, " +
                                std::to_string(bucket_bytes_max) + "], not " +
                                std::to_string(config.bucket_bytes));
  }
  for (const auto& [what, value] : {std::pair{"slice_bytes", config.slice_bytes},
                                    std::pair{"credit_bytes", config.credit_bytes}}) {
    if (value == 0 || value > bucket_bytes_max) {
      throw std::invalid_argument(std::string("design ") + what + " must be in [1, " +
                                  std::to_string(bucket_bytes_max) + "], not " +
                                  std::to_string(value));
    }
  }
  if (config.shards > ranks_max) {
    throw std::invalid_argument("design shards must be at most " + std::to_string(ranks_max) +
                                ", not " + std::to_string(config.shards));
  }
  if (config.kind == DesignKind::sharded && config.shards == 0) {
    throw std::invalid_argument(
        "design sharded is written for a rank count: give the ranks it shards over (--ranks N "
        "or --shards N)");
  }
  if (config.nodes > nodes_max || config.node_ranks > ranks_max ||
      std::uint64_t{config.nodes} * config.node_ranks > ranks_max) {
    throw std::invalid_argument("design nodes must be at most " + std::to_string(nodes_max) +
                                " and nodes x node_ranks at most " + std::to_string(ranks_max));
  }
  if (config.kind == DesignKind::hierarchical && (config.nodes == 0 || config.node_ranks == 0)) {
    throw std::invalid_argument(
        "design hierarchical is written for a node layout: give its nodes and ranks per node "
        "(--nodes N --node-ranks P)");
  }
  if (!config.order_guard && !has_order_guard(config.kind)) {
    throw std::invalid_argument("design " + std::string(to_string(config.kind)) +
                                " has no order guard to leave out (only fused, nonblocking, "
                                "sharded, hierarchical and priority)");
  }
}

dag::CommId node_comm(std::uint32_t node) { return 1 + node; }

dag::CommId leaders_comm(const DesignConfig& config) { return 1 + config.nodes; }

void check_design_ranks(const DesignConfig& config, std::uint32_t ranks) {
  const std::optional<std::uint32_t> own = design_ranks(config);
  if (own && *own != ranks) {
    throw std::invalid_argument("design " + describe(config) + " is written for " +
                                std::to_string(*own) + " ranks, not the world's " +
                                std::to_string(ranks));
  }
}

bool splits_into_shards(const DesignConfig& config, std::uint64_t count) {
  return config.shards != 0 && count != 0 && count % config.shards == 0;
}

bool written_for_ranks(DesignKind kind) {
  return kind == DesignKind::sharded || kind == DesignKind::hierarchical;
}

bool needs_node_layout(DesignKind kind) { return kind == DesignKind::hierarchical; }

bool compute_shrinks_with_ranks(DesignKind kind) { return kind == DesignKind::sharded; }

namespace {

std::string layout_given(const DesignConfig& config) {
  std::string s;
  if (config.nodes != 0) s += "--nodes " + std::to_string(config.nodes);
  if (config.node_ranks != 0) {
    s += (s.empty() ? "" : " ") + std::string("--node-ranks ") + std::to_string(config.node_ranks);
  }
  return s;
}

DesignConfig fit_layout(DesignConfig config, std::optional<std::uint32_t> ranks,
                        std::optional<NodeLayout> layout) {
  const std::string what = "design hierarchical: ";
  if (layout) {
    if ((config.nodes != 0 && config.nodes != layout->nodes) ||
        (config.node_ranks != 0 && config.node_ranks != layout->node_ranks)) {
      throw std::invalid_argument(what + layout_given(config) + " on a world of " +
                                  std::to_string(layout->nodes) + " node(s) of " +
                                  std::to_string(layout->node_ranks) +
                                  " rank(s); expected that layout (or no --nodes, --node-ranks)");
    }
    config.nodes = layout->nodes;
    config.node_ranks = layout->node_ranks;
  } else if (ranks && (config.nodes != 0) != (config.node_ranks != 0)) {
    // One of the two given: the rank count gives the other, when it is a whole number of nodes.
    const std::uint32_t given = config.nodes != 0 ? config.nodes : config.node_ranks;
    if (*ranks % given != 0) {
      throw std::invalid_argument(
          what + layout_given(config) + " on a world of " + std::to_string(*ranks) +
          " ranks: not a whole number of " +
          (config.nodes != 0 ? "ranks per node" : "nodes of " + std::to_string(given)) +
          "; expected a rank count that " + std::to_string(given) + " divides");
    }
    (config.nodes != 0 ? config.node_ranks : config.nodes) = *ranks / given;
  }
  if (config.nodes == 0 || config.node_ranks == 0) {
    throw std::invalid_argument(
        "design hierarchical is written for a node layout: give its nodes and ranks per node "
        "(--nodes N --node-ranks P), or with a rank count the ranks per node (--node-ranks P)");
  }
  const std::uint64_t own = std::uint64_t{config.nodes} * config.node_ranks;
  if (ranks && own != *ranks) {
    throw std::invalid_argument(what + layout_given(config) + " on a world of " +
                                std::to_string(*ranks) + " ranks; expected nodes x node-ranks = " +
                                std::to_string(*ranks) + " (or one of --nodes, --node-ranks)");
  }
  return config;
}

}  // namespace

DesignConfig fit_to_ranks(DesignConfig config, std::optional<std::uint32_t> ranks,
                          std::optional<NodeLayout> layout) {
  if (layout && !ranks) ranks = layout->nodes * layout->node_ranks;
  if (config.kind == DesignKind::sharded) {
    if (ranks && config.shards != 0 && config.shards != *ranks) {
      throw std::invalid_argument("design sharded: --shards " + std::to_string(config.shards) +
                                  " on a world of " + std::to_string(*ranks) +
                                  " ranks; expected the rank count, " + std::to_string(*ranks) +
                                  " (or no --shards)");
    }
    if (ranks) config.shards = *ranks;
    if (config.shards == 0) {
      throw std::invalid_argument(
          "design sharded is written for a rank count: give the ranks it shards over (--ranks N "
          "or --shards N)");
    }
  }
  if (needs_node_layout(config.kind)) config = fit_layout(std::move(config), ranks, layout);
  return config;
}

std::optional<std::uint32_t> design_ranks(const DesignConfig& config) {
  if (!written_for_ranks(config.kind)) return std::nullopt;
  if (needs_node_layout(config.kind)) return config.nodes * config.node_ranks;
  return config.shards;
}

bool has_order_guard(DesignKind kind) {
  return kind == DesignKind::fused || kind == DesignKind::nonblocking ||
         kind == DesignKind::sharded || kind == DesignKind::hierarchical ||
         kind == DesignKind::priority;
}

std::uint32_t comm_pool_threads(const DesignConfig& config) {
  return config.kind == DesignKind::nonblocking ? 1 : config.comm_threads;
}

std::vector<dag::Pool> step_pools(const DesignConfig& config) {
  std::vector<dag::Pool> pools = {{"compute", config.compute_threads, dag::PoolKind::fifo},
                                  {"copy", config.copy_threads, dag::PoolKind::fifo},
                                  {"comm", comm_pool_threads(config), dag::PoolKind::fifo}};
  // priority's slices carry their layer's priority; with the chain only one is ever ready, and
  // without it (the hurried variant) the pool's queue is all that orders them.
  if (config.kind == DesignKind::priority) pools[comm_pool].kind = dag::PoolKind::priority;
  // One thread: loads run in step order, so the k-th load is the k-th step's batch.
  if (config.prefetch) pools.push_back({"data", 1, dag::PoolKind::fifo});
  return pools;
}

std::vector<dag::Communicator> step_comms(const DesignConfig& config) {
  std::vector<dag::Communicator> comms{{"world", std::nullopt}};
  if (config.kind == DesignKind::concom) {
    for (std::uint32_t c = 0; c < config.ncomm; ++c) {
      comms.push_back({"comm" + std::to_string(c), std::nullopt});
    }
  }
  if (config.kind == DesignKind::hierarchical) {
    std::vector<dag::Rank> leaders;
    for (std::uint32_t n = 0; n < config.nodes; ++n) {
      std::vector<dag::Rank> members;
      for (std::uint32_t l = 0; l < config.node_ranks; ++l) {
        members.push_back(n * config.node_ranks + l);
      }
      leaders.push_back(members.front());
      comms.push_back({"node" + std::to_string(n), std::move(members)});
    }
    comms.push_back({"leaders", std::move(leaders)});
  }
  return comms;
}

std::string describe(const DesignConfig& config) {
  std::string s(to_string(config.kind));
  s += "(comm_threads=" + std::to_string(comm_pool_threads(config));
  if (config.kind == DesignKind::fused) {
    s += ", bucket_bytes=" + std::to_string(config.bucket_bytes);
  }
  if (config.kind == DesignKind::sharded) s += ", shards=" + std::to_string(config.shards);
  if (config.kind == DesignKind::hierarchical) {
    s += ", nodes=" + std::to_string(config.nodes) +
         ", node_ranks=" + std::to_string(config.node_ranks);
  }
  if (config.kind == DesignKind::priority) {
    s += ", slice_bytes=" + std::to_string(config.slice_bytes) +
         ", credit_bytes=" + std::to_string(config.credit_bytes);
  }
  if (!config.order_guard) s += ", order_guard=off";
  if (config.kind == DesignKind::concom) {
    s += ", ncomm=" + std::to_string(config.ncomm) +
         ", outstanding=" + std::to_string(config.outstanding);
  }
  if (config.init == InitKind::fig4) s += ", init=fig4";
  if (config.buffers == BufferMode::copy) s += ", buffers=copy";
  if (config.prefetch) s += ", prefetch";
  return s + ")";
}

}  // namespace ordo::designs
