// The KVStore API of a data-parallel trainer (MXNet's, as in the paper): init, push, pull,
// pushpull and barrier on integer keys, with the design chosen by name. Each call puts the
// design's actions on the executor's main thread at once, so the engine records (and the
// checker can verify) exactly what ran.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/comm/communicator.hpp"
#include "runtime/designs/design.hpp"
#include "runtime/exec/executor.hpp"

namespace ordo::kvstore {

class KVStore {
 public:
  // `name` is one of naive, funnel, concom, depcha; `config` gives the other knobs (its kind is
  // replaced by `name`). The executor's engine must have step_pools(config), and its world
  // step_comms(config). Throws std::invalid_argument for an unknown name or bad configuration,
  // and for copy buffers where the executor's vars are not host-visible (device memory).
  static std::unique_ptr<KVStore> create(std::string_view name, exec::Executor& executor,
                                         comm::World& world, designs::DesignConfig config = {});

  // Broadcast `weight` from rank 0 and wait for it, as MXNet's init does: a later main-thread
  // collective on the world (a barrier) must not overtake it. The key's size and type are taken
  // from the var here or at its first push; later calls must agree.
  void init(std::int64_t key, dag::VarId weight);
  // Sum `grad` over all ranks: in place, into `grad` itself (from the moment the reducing op or
  // call runs, `grad` holds the sum); with copy buffers, into the key's buffer, leaving `grad`
  // as it was.
  void push(std::int64_t key, dag::VarId grad);
  // Several keys in one call, as MXNet's push of key lists: fused packs the keys of one call into
  // shared buckets. Every push call, of one key or many, leaves its sums on their way when it
  // returns (fused closes its open bucket), so that waiting for the engine waits for them.
  void push(const std::vector<std::pair<std::int64_t, dag::VarId>>& grads);
  // Bring the key's sum into `out`: a copy from the key's buffer, or in place from the var last
  // pushed (nothing at all when `out` is that var). In place, a pull before the key's first push
  // throws std::invalid_argument.
  void pull(std::int64_t key, dag::VarId out);
  void pushpull(std::int64_t key, dag::VarId grad) {
    push(key, grad);
    pull(key, grad);
  }
  // Waits for every submitted op, then a world barrier from the main thread. The wait comes first
  // because engine ops may still have collectives on the world to issue; a barrier issued ahead
  // of them on one rank and behind them on another would mismatch.
  void barrier();
  dag::Rank rank() const { return world_.rank(); }
  std::uint32_t size() const { return world_.size(); }

 private:
  KVStore(exec::Executor& executor, comm::World& world, const designs::DesignConfig& config);
  designs::KeyVars& key_vars(std::int64_t key, dag::VarId var);
  void push_one(std::int64_t key, dag::VarId grad);

  exec::Executor& executor_;
  comm::World& world_;
  designs::BufferMode buffers_;
  std::unique_ptr<designs::Design> design_;
  std::map<std::int64_t, designs::KeyVars> keys_;
  // Pushes per key so far: the n-th push of a key names its ops "n<N>.", so the program the
  // engine records keeps unique op names however many steps run.
  std::map<std::int64_t, std::uint64_t> pushes_;
};

}  // namespace ordo::kvstore
