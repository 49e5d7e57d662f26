#include "checker/promela/signatures.hpp"

#include <algorithm>
#include <string>

#include "checker/promela/export.hpp"

namespace ordo::checker::promela {

namespace {
constexpr std::size_t signatures_max = 255;
}

std::uint32_t Signatures::id(const dag::Collective& collective) {
  const auto it = std::find(seen_.begin(), seen_.end(), collective);
  if (it != seen_.end()) return static_cast<std::uint32_t>(it - seen_.begin()) + 1;
  if (seen_.size() == signatures_max) {
    throw ExportError("the job has more than " + std::to_string(signatures_max) +
                      " distinct collective signatures; the Promela model holds at most " +
                      std::to_string(signatures_max));
  }
  seen_.push_back(collective);
  return static_cast<std::uint32_t>(seen_.size());
}

}  // namespace ordo::checker::promela
