#include "runtime/train/job/job_agreement.hpp"

namespace ordo::train {

bool any_rank_failed(comm::World& world, bool failed) {
  std::int32_t flag = failed ? 1 : 0;
  world.comm(0).allreduce(&flag, 1, dag::DType::i32, dag::Reduction::max, agree_key);
  return flag != 0;
}

}  // namespace ordo::train
