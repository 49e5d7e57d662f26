#include "checker/promela/signatures.hpp"

#include <algorithm>
#include <string>

#include "checker/promela/export.hpp"

namespace ordo::checker::promela {

namespace {

constexpr std::size_t signatures_max = 255;

// The fields agreement compares, the others set to one value. The model only ever compares the
// ids of calls on one communicator, so the communicator is dropped too: that spends no ids on
// calls that could never meet. A barrier's key and dtype are labels MPI never sees.
dag::Collective compared_fields(dag::Collective c) {
  c.comm = 0;
  if (c.kind == dag::CollectiveKind::barrier) {
    c.key = 0;
    c.dtype = dag::DType::f32;
  }
  return c;
}

}  // namespace

std::uint32_t Signatures::id(const dag::Collective& collective, bool blocking) {
  const Signature signature{compared_fields(collective), blocking};
  const auto it = std::find(seen_.begin(), seen_.end(), signature);
  if (it != seen_.end()) return static_cast<std::uint32_t>(it - seen_.begin()) + 1;
  if (seen_.size() == signatures_max) {
    throw ExportError("the job has more than " + std::to_string(signatures_max) +
                      " distinct collective signatures; the Promela model holds at most " +
                      std::to_string(signatures_max));
  }
  seen_.push_back(signature);
  return static_cast<std::uint32_t>(seen_.size());
}

}  // namespace ordo::checker::promela
