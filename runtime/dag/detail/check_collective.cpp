// Rules for one collective spec, wherever it appears (an op's or a main-thread action's): the
// agreement between kind, reduction, root and count that MPI needs (dag::shape_problems, shared
// with every backend), the communicator it names, and the buffer it fills. Every kind keeps its
// whole `count` elements in one buffer var (for reduce_scatter and allgather all the members'
// blocks), so one size check serves them all.
#include <algorithm>
#include <cassert>
#include <limits>
#include <numeric>

#include "runtime/dag/collective_shape.hpp"
#include "runtime/dag/detail/check_parts.hpp"
#include "runtime/json/pointer.hpp"
#include "runtime/json/quote.hpp"

namespace ordo::dag::detail {
namespace {

std::string kind_name(const Collective& collective) {
  return std::string(to_string(collective.kind));
}

void check_buffer(const Collective& collective, const std::string& where, const Var& buffer,
                  Findings& findings) {
  const std::uint64_t element_bytes = dtype_bytes(collective.dtype);
  assert(element_bytes > 0 && "the dtype was checked to be valid");
  // The call fills elements [offset, offset + count) of the var.
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  const bool overflows = collective.count > max - collective.offset ||
                         collective.offset + collective.count > max / element_bytes;
  const std::uint64_t needed = overflows ? 0 : (collective.offset + collective.count) * element_bytes;
  if (!overflows && needed <= buffer.bytes) {
    return;
  }
  const std::string size = overflows ? "more than 2^64 bytes" : std::to_string(needed) + " bytes";
  const std::string from =
      collective.offset == 0 ? "" : " from element " + std::to_string(collective.offset);
  findings.push_back({json::pointer_child(where, collective.offset == 0 ? "count" : "offset"),
                      kind_name(collective) + " of " + std::to_string(collective.count) + " " +
                          std::string(to_string(collective.dtype)) + " elements" + from +
                          " needs " + size + " but var " + json::quote(buffer.name) + " has " +
                          std::to_string(buffer.bytes) + " bytes",
                      "offset plus count, times the element size, within the bytes of the var "
                      "it fills"});
}

}  // namespace

ProgramScope::ProgramScope(const JobFacts& facts, std::size_t program_index)
    : facts_(&facts),
      program_(&facts.job->programs[program_index]),
      pointer_(json::pointer_child("/programs", program_index)),
      membership_(facts.comms.size()),
      membership_known_(facts.comms.size(), false) {
  assert(program_index < facts.job->programs.size());
  // Out-of-range ranks are reported by the job checks; membership looks at the others only.
  if (program_->ranks.has_value()) {
    ranks_.emplace();
    std::copy_if(program_->ranks->begin(), program_->ranks->end(), std::back_inserter(*ranks_),
                 [&](Rank rank) { return !facts.ranks.has_value() || rank < *facts.ranks; });
  } else if (facts.ranks.has_value()) {
    ranks_.emplace(*facts.ranks);
    std::iota(ranks_->begin(), ranks_->end(), Rank{0});
  }
}

const std::optional<std::string>& ProgramScope::membership_problem(CommId comm) {
  assert(comm < membership_.size());
  if (membership_known_[comm]) {
    return membership_[comm];
  }
  membership_known_[comm] = true;
  const std::optional<std::vector<Rank>>& members = facts_->comms[comm].members_sorted;
  if (!members.has_value() || !ranks_.has_value()) {
    return membership_[comm];
  }
  std::optional<Rank> first_outside;
  std::size_t outside = 0;
  for (const Rank rank : *ranks_) {
    if (!std::binary_search(members->begin(), members->end(), rank)) {
      first_outside = first_outside.value_or(rank);
      outside += 1;
    }
  }
  if (first_outside.has_value()) {
    membership_[comm] =
        "rank " + std::to_string(*first_outside) + " runs program " + json::quote(program_->name) +
        " but is not a member of communicator " + json::quote(facts_->job->comms[comm].name) +
        (outside > 1 ? " (nor are " + std::to_string(outside - 1) + " other ranks running it)"
                     : "");
  }
  return membership_[comm];
}

void check_collective(const Collective& collective, const std::string& where, const Var* buffer,
                      ProgramScope& scope, Findings& findings) {
  const bool kind_valid =
      check_enum(collective.kind, Location(where, "kind"), "collective kind", findings);
  const bool dtype_valid =
      check_enum(collective.dtype, Location(where, "dtype"), "dtype", findings);
  check_enum(collective.reduction, Location(where, "reduction"), "reduction", findings);
  std::optional<std::uint64_t> comm_size;
  if (check_index(collective.comm, scope.job().comms.size(), Location(where, "comm"),
                  "communicator", findings)) {
    comm_size = scope.job().comms[collective.comm].size;
    if (const std::optional<std::string>& problem = scope.membership_problem(collective.comm)) {
      findings.push_back({json::pointer_child(where, "comm"), *problem,
                          "a communicator that contains every rank running the program"});
    }
  }
  if (!kind_valid) {
    return;
  }
  const std::optional<std::uint64_t> peer =
      collective.peer ? std::optional<std::uint64_t>(*collective.peer) : std::nullopt;
  for (dag::ShapeProblem& p :
       shape_problems(collective.kind, collective.count, collective.reduction, collective.root,
                      comm_size, peer, collective.tag)) {
    findings.push_back({p.field.empty() ? where : json::pointer_child(where, p.field),
                        std::move(p.found), std::move(p.expected)});
  }
  if (collective.kind == CollectiveKind::barrier && collective.count != 0) {
    return;  // reported above; a barrier has no buffer to check the count against
  }
  if (buffer == nullptr && collective.offset != 0) {
    findings.push_back({json::pointer_child(where, "offset"),
                        kind_name(collective) + " has offset " + std::to_string(collective.offset) +
                            " but no buffer var to slice",
                        "offset 0 (an offset is into the var the call fills)"});
  } else if (buffer != nullptr && dtype_valid) {
    check_buffer(collective, where, *buffer, findings);
  }
}

}  // namespace ordo::dag::detail
