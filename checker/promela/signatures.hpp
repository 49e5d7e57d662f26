// Collective signatures as small integers. MPI's matching compares kind, key, count, dtype,
// reduction and root (design.md §2); the model compares one byte instead, so the export gives
// equal calls equal ids and different calls different ones.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/dag/program.hpp"

namespace ordo::checker::promela {

class Signatures {
 public:
  // The id of `collective`, from 1 (0 means "no call" in the model). Throws ExportError past 255
  // distinct signatures.
  std::uint32_t id(const dag::Collective& collective);

 private:
  std::vector<dag::Collective> seen_;
};

}  // namespace ordo::checker::promela
