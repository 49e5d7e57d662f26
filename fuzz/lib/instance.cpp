#include "fuzz/lib/instance.hpp"

#include "runtime/dag/dump_writer.hpp"

namespace ordo::fuzz {

void showValue(const Instance& instance, std::ostream& os) {
  os << instance.origin << " at " << instance.ranks << " ranks under "
     << comm::to_string(instance.backend) << "\n"
     << dag::write_dump(instance.job);
}

}  // namespace ordo::fuzz
