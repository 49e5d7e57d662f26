#include "runtime/designs/step_emitter.hpp"

#include <cassert>

namespace ordo::designs {

namespace {

dag::Var token(const std::string& name) {
  return dag::Var{name, dag::VarKind::token, 0, dag::DType::u8};
}

dag::Op compute_op(std::string name, std::vector<dag::VarId> reads, std::vector<dag::VarId> writes,
                   double cost_us) {
  dag::Op op;
  op.name = std::move(name);
  op.kind = dag::OpKind::compute;
  op.pool = compute_pool;
  op.reads = std::move(reads);
  op.writes = std::move(writes);
  op.cost_us = cost_us;
  return op;
}

}  // namespace

StepEmitter::StepEmitter(const networks::Network& network, const DesignConfig& config,
                         dag::ProgramSink& main, dag::Rank rank)
    : network_(network), main_(main), prefetch_(config.prefetch) {
  check_network(network_);
  check_config(config);
  declare_vars(config.buffers);
  design_ = Design::create(config, main_, rank);
}

void StepEmitter::declare_vars(BufferMode buffers) {
  data_ = main_.add_var(token("data"));
  if (prefetch_) data_next_ = main_.add_var(token("data.next"));
  layer_keys_.resize(network_.layers.size());
  for (std::size_t l = 0; l < network_.layers.size(); ++l) {
    const networks::Layer& layer = network_.layers[l];
    act_.push_back(main_.add_var(token("act." + layer.name)));
    dact_.push_back(main_.add_var(token("dact." + layer.name)));
    for (const networks::Param& p : layer.params) {
      const std::uint64_t bytes = p.count * dag::dtype_bytes(p.dtype);
      KeyVars k;
      k.key = static_cast<std::int64_t>(keys_.size());
      k.name = p.name;
      k.count = p.count;
      k.dtype = p.dtype;
      k.weight = main_.add_var({"weight." + p.name, dag::VarKind::tensor, bytes, p.dtype});
      k.grad = main_.add_var({"grad." + p.name, dag::VarKind::tensor, bytes, p.dtype});
      k.buf = buffers == BufferMode::in_place
                  ? k.grad
                  : main_.add_var({"buf." + p.name, dag::VarKind::buffer, bytes, p.dtype});
      layer_keys_[l].push_back(static_cast<std::uint32_t>(keys_.size()));
      keys_.push_back(k);
    }
  }
  for (std::size_t l = network_.layers.size(); l-- > 0;) {
    for (std::uint32_t k : layer_keys_[l]) push_order_.push_back(k);
  }
  assert(push_order_.size() == keys_.size());
}

void StepEmitter::emit_load(const std::string& prefix) {
  dag::Op load = compute_op(prefix + "data.load", {}, {data_next_}, 0.0);
  load.pool = data_pool;
  main_.submit(std::move(load));
}

void StepEmitter::emit_init() {
  if (prefetch_) emit_load("init.");  // the first step's batch
  for (std::uint32_t k = 0; k < keys_.size(); ++k) design_->init(keys_[k]);
  main_.wait_for_all();
}

void StepEmitter::emit_forward(const std::string& prefix) {
  for (std::size_t l = 0; l < network_.layers.size(); ++l) {
    const networks::Layer& layer = network_.layers[l];
    std::vector<dag::VarId> reads;
    for (std::uint32_t k : layer_keys_[l]) reads.push_back(keys_[k].weight);
    if (layer.inputs.empty()) reads.push_back(data_);
    for (std::uint32_t in : layer.inputs) reads.push_back(act_[in]);
    main_.submit(compute_op(prefix + "fwd." + layer.name, reads, {act_[l]}, layer.forward_us));
  }
  if (!network_.layers.empty()) {
    main_.submit(compute_op(prefix + "loss", {act_.back()}, {dact_.back()}, 0.0));
  }
}

void StepEmitter::emit_backward(const std::string& prefix) {
  for (std::size_t l = network_.layers.size(); l-- > 0;) {
    const networks::Layer& layer = network_.layers[l];
    std::vector<dag::VarId> reads;
    std::vector<dag::VarId> writes;
    for (std::uint32_t k : layer_keys_[l]) {
      reads.push_back(keys_[k].weight);
      writes.push_back(keys_[k].grad);
    }
    if (layer.inputs.empty()) reads.push_back(data_);
    for (std::uint32_t in : layer.inputs) reads.push_back(act_[in]);
    reads.push_back(dact_[l]);
    for (std::uint32_t in : layer.inputs) writes.push_back(dact_[in]);
    main_.submit(compute_op(prefix + "bwd." + layer.name, reads, writes, layer.backward_us));
  }
}

void StepEmitter::emit_pulls(const std::string& prefix, const std::vector<KeyVars>& summed) {
  for (const KeyVars& k : summed) {
    design_->pull(k);
    main_.submit(compute_op(prefix + "update." + k.name, {k.grad}, {k.weight}, update_cost_us(k)));
  }
}

void StepEmitter::emit_step(const std::string& prefix, bool close) {
  design_->set_prefix(prefix);
  if (prefetch_) {
    dag::Op take = compute_op(prefix + "data.take", {data_next_}, {data_}, 0.0);
    take.pool = data_pool;
    main_.submit(std::move(take));
    emit_load(prefix);
  }
  emit_forward(prefix);
  emit_backward(prefix);
  for (std::uint32_t index : push_order_) emit_pulls(prefix, design_->push(keys_[index]));
  emit_pulls(prefix, design_->end_step());
  if (close) main_.wait_for_all();
}

}  // namespace ordo::designs
