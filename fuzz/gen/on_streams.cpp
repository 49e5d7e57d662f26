#include "fuzz/gen/on_streams.hpp"

namespace ordo::fuzz {

rc::Gen<Instance> on_streams(rc::Gen<Instance> family) {
  return rc::gen::map(std::move(family), [](Instance instance) {
    instance.backend = comm::Backend::nccl;
    instance.origin += " on nccl streams";
    return instance;
  });
}

}  // namespace ordo::fuzz
