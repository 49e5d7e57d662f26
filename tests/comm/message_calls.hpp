// A send or recv call as the message tests write it (docs/semantics.md, §3b): f32 elements, no
// reduction and no root, and the peer and tag the test names.
#pragma once

#include "runtime/comm/rules/call.hpp"

namespace ordo::comm::test {

inline Call message(dag::CollectiveKind kind, dag::Rank peer, std::uint32_t tag,
                    std::int64_t key, std::uint64_t count) {
  Call call{kind, key, count, dag::DType::f32, dag::Reduction::none, std::nullopt};
  call.peer = peer;
  call.tag = tag;
  return call;
}

}  // namespace ordo::comm::test
