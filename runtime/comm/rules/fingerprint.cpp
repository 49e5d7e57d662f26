#include "runtime/comm/rules/fingerprint.hpp"

#include <cstdint>
#include <stdexcept>

#include "runtime/dag/names.hpp"

namespace ordo::comm {
namespace {

// Record layout: kind, dtype, reduction, flags (bit 0 blocks, bit 1 has a root), four zero
// bytes, key (8), count (8), root (4), four zero bytes, offset (8).
constexpr std::size_t at_kind = 0;
constexpr std::size_t at_dtype = 1;
constexpr std::size_t at_reduction = 2;
constexpr std::size_t at_flags = 3;
constexpr std::size_t at_key = 8;
constexpr std::size_t at_count = 16;
constexpr std::size_t at_root = 24;
constexpr std::size_t at_offset = 32;
constexpr std::byte flag_blocks{1};
constexpr std::byte flag_root{2};

void put(FingerprintRecord& record, std::size_t at, std::uint64_t value, std::size_t bytes) {
  for (std::size_t i = 0; i < bytes; ++i) {
    record[at + i] = static_cast<std::byte>((value >> (8 * i)) & 0xffu);
  }
}

std::uint64_t get(std::span<const std::byte, fingerprint_bytes> record, std::size_t at,
                  std::size_t bytes) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < bytes; ++i) {
    value |= std::to_integer<std::uint64_t>(record[at + i]) << (8 * i);
  }
  return value;
}

[[noreturn]] void garbage(const std::string& why) {
  throw std::invalid_argument("fingerprint record: " + why);
}

}  // namespace

FingerprintRecord encode(const Fingerprint& print) {
  FingerprintRecord record{};
  const Call& c = print.call;
  record[at_kind] = static_cast<std::byte>(c.kind);
  record[at_dtype] = static_cast<std::byte>(c.dtype);
  record[at_reduction] = static_cast<std::byte>(c.reduction);
  std::byte flags{0};
  if (print.blocks) flags |= flag_blocks;
  if (c.root) flags |= flag_root;
  record[at_flags] = flags;
  put(record, at_key, static_cast<std::uint64_t>(c.key), 8);
  put(record, at_count, c.count, 8);
  put(record, at_root, c.root.value_or(0), 4);
  put(record, at_offset, c.offset, 8);
  return record;
}

Fingerprint decode(std::span<const std::byte, fingerprint_bytes> record) {
  for (std::size_t i = 4; i < at_key; ++i) {
    if (record[i] != std::byte{0}) garbage("padding byte " + std::to_string(i) + " is set");
  }
  for (std::size_t i = at_root + 4; i < at_offset; ++i) {
    if (record[i] != std::byte{0}) garbage("padding byte " + std::to_string(i) + " is set");
  }
  const std::byte flags = record[at_flags];
  if ((flags & ~(flag_blocks | flag_root)) != std::byte{0}) garbage("unknown flags");
  Fingerprint print;
  Call& c = print.call;
  c.kind = static_cast<dag::CollectiveKind>(record[at_kind]);
  c.dtype = static_cast<dag::DType>(record[at_dtype]);
  c.reduction = static_cast<dag::Reduction>(record[at_reduction]);
  // Values without a spelling are exactly the out-of-range ones (as check_call decides).
  if (dag::to_string(c.kind) == "?") garbage("unknown collective kind");
  if (dag::to_string(c.dtype) == "?") garbage("unknown dtype");
  if (dag::to_string(c.reduction) == "?") garbage("unknown reduction");
  c.key = static_cast<std::int64_t>(get(record, at_key, 8));
  c.count = get(record, at_count, 8);
  c.offset = get(record, at_offset, 8);
  const auto root = static_cast<dag::Rank>(get(record, at_root, 4));
  if ((flags & flag_root) != std::byte{0}) {
    c.root = root;
  } else if (root != 0) {
    garbage("a root without its flag");
  }
  print.blocks = (flags & flag_blocks) != std::byte{0};
  return print;
}

std::string describe(const Fingerprint& print, std::string_view comm_name) {
  return describe(print.call, comm_name) + (print.blocks ? ", blocking" : ", non-blocking");
}

std::vector<FingerprintGroup> group_by_call(std::span<const Fingerprint> prints) {
  std::vector<FingerprintGroup> groups;
  for (std::uint32_t rank = 0; rank < prints.size(); ++rank) {
    const Fingerprint& p = prints[rank];
    bool placed = false;
    for (FingerprintGroup& g : groups) {
      if (matches(g.print.call, g.print.blocks, p.call, p.blocks)) {
        g.ranks.push_back(rank);
        placed = true;
        break;
      }
    }
    if (!placed) groups.push_back(FingerprintGroup{p, {rank}});
  }
  return groups;
}

std::string describe_divergence(std::span<const FingerprintGroup> groups,
                                std::string_view comm_name) {
  std::string out;
  for (const FingerprintGroup& g : groups) {
    if (!out.empty()) out += "; ";
    out += g.ranks.size() == 1 ? "rank " : "ranks ";
    for (std::size_t i = 0; i < g.ranks.size(); ++i) {
      if (i > 0) out += ',';
      out += std::to_string(g.ranks[i]);
    }
    out += " issued " + describe(g.print, comm_name);
  }
  return out;
}

}  // namespace ordo::comm
