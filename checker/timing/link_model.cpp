#include "checker/timing/link_model.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace ordo::checker::timing {

void check_link(const LinkModel& link) {
  if (!std::isfinite(link.alpha_us) || link.alpha_us < 0) {
    throw std::invalid_argument("link alpha " + std::to_string(link.alpha_us) +
                                " us is negative or not finite");
  }
  if (!std::isfinite(link.bytes_per_us) || link.bytes_per_us <= 0) {
    throw std::invalid_argument("link bandwidth " + std::to_string(link.bytes_per_us) +
                                " bytes/us is not positive and finite");
  }
}

double collective_us(const dag::Collective& c, std::uint32_t ranks, const LinkModel& link) {
  if (ranks <= 1) return 0.0;
  const double p = ranks;
  const double bytes =
      static_cast<double>(c.count) * static_cast<double>(dag::dtype_bytes(c.dtype));
  const double rounds = std::ceil(std::log2(p));
  switch (c.kind) {
    case dag::CollectiveKind::allreduce:
      return 2.0 * (p - 1.0) * link.alpha_us + 2.0 * (p - 1.0) / p * bytes / link.bytes_per_us;
    case dag::CollectiveKind::bcast:
      return rounds * link.alpha_us + bytes / link.bytes_per_us;
    case dag::CollectiveKind::barrier:
      return rounds * link.alpha_us;
    case dag::CollectiveKind::reduce:
      // A binomial tree like bcast's, run towards the root.
      return rounds * link.alpha_us + bytes / link.bytes_per_us;
    case dag::CollectiveKind::reduce_scatter:
    case dag::CollectiveKind::allgather:
    case dag::CollectiveKind::alltoall:
      // Each is one half of the ring allreduce above: p - 1 steps of one block each (alltoall
      // as p - 1 pairwise exchanges of one block).
      return (p - 1.0) * link.alpha_us + (p - 1.0) / p * bytes / link.bytes_per_us;
    case dag::CollectiveKind::gather:
    case dag::CollectiveKind::scatter:
      // A binomial tree whose messages grow towards the root: every block but one crosses once.
      return rounds * link.alpha_us + (p - 1.0) / p * bytes / link.bytes_per_us;
    case dag::CollectiveKind::scan:
    case dag::CollectiveKind::exscan:
      // Recursive doubling: log2 p rounds, each of the whole buffer.
      return rounds * (link.alpha_us + bytes / link.bytes_per_us);
    case dag::CollectiveKind::send:
    case dag::CollectiveKind::recv:
      // One message over one link.
      return link.alpha_us + bytes / link.bytes_per_us;
  }
  return 0.0;
}

}  // namespace ordo::checker::timing
