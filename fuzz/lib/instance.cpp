#include "fuzz/lib/instance.hpp"

#include "runtime/dag/dump_writer.hpp"

namespace ordo::fuzz {

std::uint64_t finished_run_transitions(const Instance& instance) {
  std::uint64_t transitions = 0;
  for (dag::Rank r = 0; r < instance.ranks; ++r) {
    const dag::Program* program = dag::program_of(instance.job, r);
    if (program == nullptr) continue;
    transitions += program->main.size() + 2 * program->ops.size();
  }
  return transitions;
}

void showValue(const Instance& instance, std::ostream& os) {
  os << instance.origin << " at " << instance.ranks << " ranks under "
     << comm::to_string(instance.backend) << "\n"
     << dag::write_dump(instance.job);
}

}  // namespace ordo::fuzz
