// The identity of the dump format, shared by the reader and the writer (docs/dag-format.md).
#pragma once

#include <cstdint>
#include <string_view>

#include "runtime/dag/program.hpp"

namespace ordo::dag {

inline constexpr std::string_view dump_format_name = "ordo-dag";
// Bumped on any change that an older reader would misread; see "Versioning" in the format doc.
// The writer writes dump_format_version; the reader also reads every version from
// dump_format_version_oldest on.
inline constexpr std::uint64_t dump_format_version = 6;
inline constexpr std::uint64_t dump_format_version_oldest = 1;

// Version 1 spelt the action that submits an op "push"; version 2 spells it "submit".
inline constexpr std::string_view submit_action_spelling(std::uint64_t version) {
  return version == 1 ? "push" : "submit";
}

// Version 3 added the collective kinds reduce, reduce_scatter and allgather; an older dump
// naming one was written by hand or by a newer writer, and is refused rather than guessed at.
inline constexpr std::uint64_t first_version_of_reduce_kinds = 3;

// Version 4 added a collective's `offset` into its buffer (a slice of a key).
inline constexpr std::uint64_t first_version_of_offsets = 4;

// Version 5 added the collective kinds gather, scatter, alltoall, scan and exscan.
inline constexpr std::uint64_t first_version_of_block_kinds = 5;

// Version 6 added point to point: the kinds send and recv, with their `peer` and `tag`.
inline constexpr std::uint64_t first_version_of_point_to_point = 6;

// The first version whose dumps may name `kind`: what the reader holds an older dump to.
inline constexpr std::uint64_t first_version_of(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::allreduce:
    case CollectiveKind::bcast:
    case CollectiveKind::barrier:
      return 1;
    case CollectiveKind::reduce:
    case CollectiveKind::reduce_scatter:
    case CollectiveKind::allgather:
      return first_version_of_reduce_kinds;
    case CollectiveKind::gather:
    case CollectiveKind::scatter:
    case CollectiveKind::alltoall:
    case CollectiveKind::scan:
    case CollectiveKind::exscan:
      return first_version_of_block_kinds;
    case CollectiveKind::send:
    case CollectiveKind::recv:
      return first_version_of_point_to_point;
  }
  return first_version_of_point_to_point;
}

}  // namespace ordo::dag
