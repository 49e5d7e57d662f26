// Collective signatures as small integers. Two calls at one sequence number of a communicator
// match when they have equal kind, key, count, dtype, reduction and root, a barrier's key and
// dtype aside, and both block or neither does (docs/semantics.md, C2); the model compares one
// byte instead, so the export gives equal ids exactly to calls that match.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/dag/program.hpp"

namespace ordo::checker::promela {

class Signatures {
 public:
  // The id of `collective` issued as a blocking call or not, from 1 (0 means "no call" in the
  // model). Throws ExportError past 255 distinct signatures.
  std::uint32_t id(const dag::Collective& collective, bool blocking);

 private:
  struct Signature {
    dag::Collective call;
    bool blocking = true;
    friend bool operator==(const Signature&, const Signature&) = default;
  };
  std::vector<Signature> seen_;
};

}  // namespace ordo::checker::promela
