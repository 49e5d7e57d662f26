// Typed handles for engine objects. Vars live as long as the engine; op slots are recycled, so an
// op handle carries the generation of its slot and a handle kept past its op's retirement is
// detected instead of silently naming a newer op.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/dag/program.hpp"

namespace ordo::engine {

struct VarHandle {
  dag::VarId id = 0;
  friend bool operator==(const VarHandle&, const VarHandle&) = default;
};

struct OpHandle {
  std::uint32_t slot = 0;
  std::uint32_t generation = 0;
  friend bool operator==(const OpHandle&, const OpHandle&) = default;
};

// "slot 3 gen 7": how handles appear in error messages and traces.
std::string to_string(OpHandle op);

}  // namespace ordo::engine
