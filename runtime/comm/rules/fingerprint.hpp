// A collective call as the ranks exchange it in fingerprint mode (docs/diagnostics.md,
// "Fingerprint mode"): everything the agreement rule C2 compares (docs/semantics.md), the call's
// blocking form included, in a fixed-size record that is the same bytes on every rank. The
// comparison is comm::matches itself, so fingerprint mode, the simulated world and the checker
// decide agreement with one rule.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/comm/rules/call.hpp"

namespace ordo::comm {

struct Fingerprint {
  Call call;
  bool blocks = true;
  friend bool operator==(const Fingerprint&, const Fingerprint&) = default;
};

inline constexpr std::size_t fingerprint_bytes = 40;
using FingerprintRecord = std::array<std::byte, fingerprint_bytes>;

// Little-endian fields at fixed offsets, so ranks of any build exchange the same record.
FingerprintRecord encode(const Fingerprint& print);
// Throws std::invalid_argument for a record no encode() writes (an enum out of range, a set
// padding byte): a shadow exchange that delivered garbage must not read as a verdict.
Fingerprint decode(std::span<const std::byte, fingerprint_bytes> record);

// "allreduce of 4 x f32 (sum) on 'grads', key 2, blocking".
std::string describe(const Fingerprint& print, std::string_view comm_name);

// The members' calls at one position of a communicator, in communicator-rank order, grouped by
// what they issued: one group when every call matches the first, else one group per distinct
// call, in the order of each group's lowest rank.
struct FingerprintGroup {
  Fingerprint print;
  std::vector<std::uint32_t> ranks;
};
std::vector<FingerprintGroup> group_by_call(std::span<const Fingerprint> prints);

// One line naming every group's ranks and call, for a position where the members disagree, e.g.
// "rank 0 issued allreduce ... key 2, blocking; rank 1 issued allreduce ... key 3, blocking".
std::string describe_divergence(std::span<const FingerprintGroup> groups,
                                std::string_view comm_name);

}  // namespace ordo::comm
