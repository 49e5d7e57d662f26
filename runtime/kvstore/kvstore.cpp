#include "runtime/kvstore/kvstore.hpp"

#include <stdexcept>
#include <string>

#include "runtime/engine/submit_batch.hpp"

namespace ordo::kvstore {

std::unique_ptr<KVStore> KVStore::create(std::string_view name, exec::Executor& executor,
                                         comm::World& world, designs::DesignConfig config) {
  config.kind = designs::parse_design(name);
  if (config.kind == designs::DesignKind::sharded) {
    // A pull here returns the summed gradient; sharded sums only the rank's block of it and
    // updates that block of the weight itself, which needs the step's optimizer.
    throw std::invalid_argument(
        "design sharded updates the weights itself and leaves no summed gradient to pull; the "
        "KVStore API takes naive, funnel, concom, depcha, fused or nonblocking (sharded runs in "
        "ordo train and in step programs)");
  }
  return std::unique_ptr<KVStore>(new KVStore(executor, world, config));
}

KVStore::KVStore(exec::Executor& executor, comm::World& world, const designs::DesignConfig& config)
    : executor_(executor),
      world_(world),
      buffers_(config.buffers),
      design_(designs::Design::create(config, executor, world.rank())) {
  if (world_.comm_count() != designs::step_comms(config).size()) {
    throw std::invalid_argument("design " + designs::describe(config) + " needs " +
                                std::to_string(designs::step_comms(config).size()) +
                                " communicators; the world has " +
                                std::to_string(world_.comm_count()));
  }
}

designs::KeyVars& KVStore::key_vars(std::int64_t key, dag::VarId var) {
  const dag::Var& v = executor_.var(var);
  if (v.kind == dag::VarKind::token || v.bytes % dag::dtype_bytes(v.dtype) != 0) {
    throw std::invalid_argument("key " + std::to_string(key) + ": var '" + v.name +
                                "' is not a whole number of " + "elements");
  }
  const std::uint64_t count = v.bytes / dag::dtype_bytes(v.dtype);
  auto [it, fresh] = keys_.try_emplace(key);
  designs::KeyVars& k = it->second;
  if (fresh) {
    k.key = key;
    k.name = "k" + std::to_string(key);
    k.count = count;
    k.dtype = v.dtype;
    if (buffers_ == designs::BufferMode::copy) {
      k.buf = executor_.add_var({"buf." + k.name, dag::VarKind::buffer, v.bytes, v.dtype});
    }
  } else if (k.count != count || k.dtype != v.dtype) {
    throw std::invalid_argument("key " + std::to_string(key) + ": var '" + v.name +
                                "' differs in size or type from the key's first var");
  }
  return k;
}

void KVStore::init(std::int64_t key, dag::VarId weight) {
  const engine::SubmitBatch batch(executor_.engine());
  designs::KeyVars& k = key_vars(key, weight);
  k.weight = weight;
  design_->init(k);
  executor_.wait_to_read(weight);
}

void KVStore::barrier() {
  const engine::SubmitBatch batch(executor_.engine());
  executor_.wait_for_all();
  design_->barrier();
}

void KVStore::push(std::int64_t key, dag::VarId grad) { push({{key, grad}}); }

void KVStore::push(const std::vector<std::pair<std::int64_t, dag::VarId>>& grads) {
  const engine::SubmitBatch batch(executor_.engine());
  for (const auto& [key, grad] : grads) push_one(key, grad);
  design_->flush();
}

void KVStore::push_one(std::int64_t key, dag::VarId grad) {
  designs::KeyVars& k = key_vars(key, grad);
  k.grad = grad;
  // In place the sum is formed in the pushed var, and a later pull reads it from there.
  if (buffers_ == designs::BufferMode::in_place) k.buf = grad;
  design_->set_prefix("n" + std::to_string(++pushes_[key]) + ".");
  design_->push(k);
}

void KVStore::pull(std::int64_t key, dag::VarId out) {
  const engine::SubmitBatch batch(executor_.engine());
  designs::KeyVars& k = key_vars(key, out);
  if (buffers_ == designs::BufferMode::in_place && pushes_[key] == 0) {
    // Every rank refuses alike, before anything is submitted, so the ranks stay in step.
    throw std::invalid_argument("key " + std::to_string(key) +
                                ": pull before any push; in place the sum lives in the pushed var");
  }
  k.grad = out;
  design_->set_prefix("n" + std::to_string(pushes_[key]) + ".");
  design_->pull(k);
}

}  // namespace ordo::kvstore
