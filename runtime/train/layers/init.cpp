#include "runtime/train/layers/init.hpp"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/core/Generator.h>

#include <cmath>

namespace ordo::train {

void init_params(const std::vector<Layer*>& layers, std::uint64_t seed) {
  at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(seed);
  for (Layer* layer : layers) {
    for (Param* p : layer->params()) {
      if (p->role == ParamRole::weight && p->value.dim() >= 2) {
        const double fan_in = static_cast<double>(p->value.numel() / p->value.size(0));
        p->value.normal_(0.0, std::sqrt(2.0 / fan_in), gen);
      } else if (p->role == ParamRole::scale) {
        p->value.fill_(1.0);
      } else {
        p->value.zero_();
      }
      p->grad.zero_();
    }
  }
}

}  // namespace ordo::train
