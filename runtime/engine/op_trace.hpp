// What a timeline (docs/diagnostics.md, "Timeline") hears from an engine: each op function's
// start and end on the pool thread that runs it, and each wait of a caller thread that blocks.
// The engine calls it only when one is set, so an engine without one pays a null check per op.
// Implementations must be thread-safe and must not call back into the engine: begin and end come
// from every pool thread, waits' from under the engine's lock.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "runtime/engine/rules/op_desc.hpp"

namespace ordo::engine {

class OpTrace {
 public:
  OpTrace() = default;
  OpTrace(const OpTrace&) = delete;
  OpTrace& operator=(const OpTrace&) = delete;
  virtual ~OpTrace() = default;

  // On the thread about to run the op's function, which stands for `thread` of the pool (a helping
  // caller stands for the free index it took). Returns a token for op_end. `desc` lives until the
  // op completes, which may be before op_end for an async op: copy what is kept.
  virtual std::int64_t op_begin(const OpDesc& desc, const std::string& pool_name,
                                std::uint32_t thread) = 0;
  // The function returned (an async op may still be in flight).
  virtual void op_end(std::int64_t token) = 0;
  // A caller thread blocks in wait_to_read (`var` named) or wait_for_all (`var` empty); under the
  // engine's lock.
  virtual std::int64_t wait_begin(std::string_view what, std::string_view var) = 0;
  virtual void wait_end(std::int64_t token) = 0;
};

}  // namespace ordo::engine
