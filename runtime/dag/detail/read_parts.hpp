// The pieces of the dump reader, one per level of the format. Each reads one JSON value into IR,
// resolving names through the tables of the enclosing levels.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/dag/detail/name_table.hpp"
#include "runtime/dag/json_fields.hpp"
#include "runtime/dag/program.hpp"
#include "runtime/json/node.hpp"

namespace ordo::dag::detail {

// read_program.cpp. `version` is the dump's format version, which decides some spellings.
Program read_program(const json::Node& node, std::uint64_t version, const NameTable& comms,
                     NameTable& programs);
std::vector<Rank> read_rank_list(const json::Node& node);

// read_ops.cpp
std::vector<Op> read_ops(const json::Node& node, std::uint64_t version, const NameTable& comms,
                         const NameTable& pools, const NameTable& vars, NameTable& ops);
std::vector<Action> read_main(const json::Node& node, std::uint64_t version, const NameTable& comms,
                              const NameTable& vars, const NameTable& ops);

}  // namespace ordo::dag::detail
