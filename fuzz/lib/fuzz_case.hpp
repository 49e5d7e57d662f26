// One job the campaign checks: the user's own, or a mutant derived from it, with the rank count
// it runs at and, for a mutant, what was changed in words.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/dag/program.hpp"

namespace ordo::fuzz {

struct FuzzCase {
  std::string name;    // the files' stem: "job", "mutant-03-drop-var"
  std::string change;  // empty for the user's job; "op 'x' no longer reads 'v'" for a mutant
  dag::Job job;
  std::uint32_t ranks = 2;
};

}  // namespace ordo::fuzz
