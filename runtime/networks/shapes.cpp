#include "runtime/networks/shapes.hpp"

#include <stdexcept>

namespace ordo::networks {

namespace {

struct OpContext {
  const std::string& layer;
  const LayerOp& op;
  [[noreturn]] void fail(const std::string& why) const {
    throw std::invalid_argument("layer '" + layer + "', op " + std::string(to_string(op.kind)) +
                                ": " + why);
  }
};

std::string show(const Shape& s) {
  std::string out = "[";
  for (std::size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

// Products of sizes, refused past 2^48 (far beyond any real layer), so no count can wrap.
constexpr std::uint64_t product_max = std::uint64_t{1} << 48;

std::uint64_t times(const OpContext& c, std::uint64_t a, std::uint64_t b) {
  std::uint64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r) || r > product_max)
    c.fail("sizes whose product exceeds 2^48");
  return r;
}

std::uint64_t elements(const OpContext& c, const Shape& s) {
  std::uint64_t n = 1;
  for (std::uint64_t d : s) n = times(c, n, d);
  return n;
}

std::uint64_t window_out(const OpContext& c, std::uint64_t in) {
  const LayerOp& op = c.op;
  if (op.kernel == 0 || op.stride == 0) c.fail("a zero kernel or stride");
  if (in + 2u * op.padding < op.kernel) {
    c.fail("a " + std::to_string(op.kernel) + "-wide window on " + std::to_string(in) +
           " pixels padded by " + std::to_string(op.padding));
  }
  return (in + 2u * op.padding - op.kernel) / op.stride + 1;
}

const Shape& image(const OpContext& c, const Shape& in) {
  if (in.size() != 3) c.fail("needs an image input {channels, height, width}, got " + show(in));
  return in;
}

// The op's output shape and multiply-adds on `in`.
Shape apply(const OpContext& c, const Shape& in, std::uint64_t& macs) {
  const LayerOp& op = c.op;
  switch (op.kind) {
    case OpKind::dense: {
      if (op.units == 0 || op.units > size_max) c.fail("units must be 1 to 2^24");
      macs += times(c, elements(c, in), op.units);
      return {op.units};
    }
    case OpKind::conv: {
      const Shape& x = image(c, in);
      if (op.units == 0 || op.units > size_max) c.fail("units must be 1 to 2^24");
      const Shape out = {op.units, window_out(c, x[1]), window_out(c, x[2])};
      macs += times(c, times(c, elements(c, out), x[0]), times(c, op.kernel, op.kernel));
      return out;
    }
    case OpKind::max_pool:
    case OpKind::avg_pool: {
      const Shape& x = image(c, in);
      return {x[0], window_out(c, x[1]), window_out(c, x[2])};
    }
    case OpKind::global_avg_pool:
      return {image(c, in)[0], 1, 1};
    case OpKind::pad_shortcut: {
      const Shape& x = image(c, in);
      if (op.stride == 0) c.fail("a zero stride");
      if (op.units < x[0] || op.units > size_max) c.fail("units below the input's channels");
      return {op.units, (x[1] + op.stride - 1) / op.stride, (x[2] + op.stride - 1) / op.stride};
    }
    case OpKind::batch_norm:
    case OpKind::relu:
    case OpKind::bias:
    case OpKind::identity:
      return in;
    case OpKind::flatten:
      return {elements(c, in)};
    case OpKind::add:
    case OpKind::concat:
      c.fail("joins a layer's inputs, so it must be the layer's first op");
  }
  c.fail("an unknown op");
}

Shape join(const OpContext& c, const std::vector<Shape>& inputs) {
  if (c.op.kind == OpKind::add) {
    for (const Shape& s : inputs) {
      if (s != inputs[0]) c.fail("adds inputs of shapes " + show(inputs[0]) + " and " + show(s));
    }
    return inputs[0];
  }
  Shape out = image(c, inputs[0]);
  out[0] = 0;
  for (const Shape& s : inputs) {
    if (image(c, s)[1] != out[1] || s[2] != out[2]) {
      c.fail("joins images of different sizes " + show(inputs[0]) + " and " + show(s));
    }
    out[0] += s[0];
  }
  return out;
}

}  // namespace

LayerResult walk_layer(const std::string& layer, const std::vector<LayerOp>& ops,
                       const std::vector<Shape>& inputs) {
  if (ops.empty()) throw std::invalid_argument("layer '" + layer + "' has no ops");
  if (inputs.empty()) throw std::invalid_argument("layer '" + layer + "' has no inputs");
  LayerResult r;
  bool seen_weighted = false;
  bool seen_bn = false;
  bool seen_bias = false;
  Shape x = inputs[0];
  for (std::size_t k = 0; k < ops.size(); ++k) {
    const OpContext c{layer, ops[k]};
    if (ops[k].kind == OpKind::add || ops[k].kind == OpKind::concat) {
      if (k != 0) c.fail("joins a layer's inputs, so it must be the layer's first op");
      x = join(c, inputs);
      continue;
    }
    if (k == 0 && inputs.size() != 1) {
      c.fail("a layer with " + std::to_string(inputs.size()) +
             " inputs must start with add or concat");
    }
    const Shape in = x;
    x = apply(c, in, r.macs);
    if (ops[k].kind == OpKind::dense || ops[k].kind == OpKind::conv) {
      if (seen_weighted) c.fail("a second weighted op in one layer");
      seen_weighted = true;
      if (ops[k].kind == OpKind::dense) {
        r.params.push_back(
            {layer + ".weight", times(c, elements(c, in), ops[k].units), dag::DType::f32});
        if (seen_bias) c.fail("a second bias in one layer");
        seen_bias = true;
        r.params.push_back({layer + ".bias", ops[k].units, dag::DType::f32});
      } else {
        r.params.push_back(
            {layer + ".weight",
             times(c, times(c, ops[k].units, in[0]), times(c, ops[k].kernel, ops[k].kernel)),
             dag::DType::f32});
      }
    } else if (ops[k].kind == OpKind::bias) {
      // Dense has its own bias: a second one would be the same parameter twice.
      if (seen_bias) c.fail("a second bias in one layer");
      seen_bias = true;
      r.params.push_back({layer + ".bias", in.at(0), dag::DType::f32});
    } else if (ops[k].kind == OpKind::batch_norm) {
      if (seen_bn) c.fail("a second batch norm in one layer");
      seen_bn = true;
      r.params.push_back({layer + ".bn.gamma", in.at(0), dag::DType::f32});
      r.params.push_back({layer + ".bn.beta", in.at(0), dag::DType::f32});
    }
  }
  r.output = std::move(x);
  return r;
}

bool computes(const Network& network) {
  if (network.input.empty() || network.layers.empty()) return false;
  for (const Layer& l : network.layers) {
    if (l.ops.empty()) return false;
  }
  return true;
}

Shape input_shape(const Network& network) {
  const Shape input(network.input.begin(), network.input.end());
  if (input.empty() || input.size() == 2 || input.size() > 3) {
    throw std::invalid_argument("network '" + network.name + "': input " + show(input) +
                                " must be {features} or {channels, height, width}");
  }
  for (std::uint64_t d : input) {
    if (d == 0 || d > size_max) {
      throw std::invalid_argument("network '" + network.name + "': input " + show(input) +
                                  " must have sizes 1 to 2^24");
    }
  }
  return input;
}

std::vector<std::vector<Shape>> layer_inputs(const Network& network,
                                             const std::vector<Shape>& outputs) {
  const Shape input = input_shape(network);
  std::vector<std::vector<Shape>> ins(network.layers.size());
  for (std::size_t l = 0; l < network.layers.size(); ++l) {
    if (network.layers[l].inputs.empty()) ins[l].push_back(input);
    for (std::uint32_t i : network.layers[l].inputs) ins[l].push_back(outputs.at(i));
  }
  return ins;
}

LayerShapes infer_shapes(const Network& network) {
  if (!computes(network)) {
    throw std::invalid_argument("network '" + network.name +
                                "' does not say what every layer computes on which input");
  }
  const Shape input = input_shape(network);
  LayerShapes shapes;
  for (const Layer& layer : network.layers) {
    std::vector<Shape> ins;
    if (layer.inputs.empty()) ins.push_back(input);
    for (std::uint32_t i : layer.inputs) ins.push_back(shapes.outputs.at(i));
    LayerResult r = walk_layer(layer.name, layer.ops, ins);
    shapes.outputs.push_back(std::move(r.output));
    shapes.macs.push_back(r.macs);
  }
  return shapes;
}

void set_costs_from_macs(Network& network, double forward_us_total) {
  const LayerShapes shapes = infer_shapes(network);
  double total = 0.0;
  for (std::uint64_t m : shapes.macs) total += static_cast<double>(m);
  for (std::size_t i = 0; i < network.layers.size(); ++i) {
    const double share = total > 0.0 ? static_cast<double>(shapes.macs[i]) / total : 0.0;
    network.layers[i].forward_us = forward_us_total * share;
    network.layers[i].backward_us = 2.0 * network.layers[i].forward_us;
  }
}

}  // namespace ordo::networks
