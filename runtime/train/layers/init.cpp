#include "runtime/train/layers/init.hpp"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/core/Generator.h>

#include <cmath>
#include <string_view>

namespace ordo::train {

namespace {

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

}  // namespace

void init_params(const std::vector<Layer*>& layers, std::uint64_t seed) {
  at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(seed);
  for (Layer* layer : layers) {
    for (Param* p : layer->params()) {
      if (ends_with(p->name, ".weight") && p->value.dim() >= 2) {
        const double fan_in = static_cast<double>(p->value.numel() / p->value.size(0));
        p->value.normal_(0.0, std::sqrt(2.0 / fan_in), gen);
      } else if (ends_with(p->name, ".gamma")) {
        p->value.fill_(1.0);
      } else {
        p->value.zero_();
      }
      p->grad.zero_();
    }
  }
}

}  // namespace ordo::train
