// Validation of an op before it touches any state. Each message names the op and says what to do,
// because these are the errors a user of the engine meets first.
#include <algorithm>
#include <array>
#include <cassert>
#include <span>
#include <string>
#include <vector>

#include "runtime/engine/rules/errors.hpp"
#include "runtime/engine/rules/engine_state.hpp"

namespace ordo::engine {
namespace {

std::string role_of(const OpDesc& desc, std::size_t position) {
  return position < desc.reads.size() ? "reads" : "writes";
}

// Messages are built only on the throwing path: check() runs on every submission.
[[noreturn]] void reject(const OpDesc& desc, const std::string& fault) {
  throw UsageError("op '" + desc.name + "' " + fault);
}

}  // namespace

void EngineState::check(const OpDesc& desc, bool async) const {
  if (desc.name.size() > dag::limits::name_bytes_max) {
    throw UsageError("op name of " + std::to_string(desc.name.size()) + " bytes exceeds " +
                     std::to_string(dag::limits::name_bytes_max));
  }
  if (desc.pool >= pools_.size()) {
    reject(desc, "names pool " + std::to_string(desc.pool) + " but the engine has " +
                     std::to_string(pools_.size()) + " pools");
  }
  // An async op of kind collective is a blocking collective whose completion arrives by handle:
  // it holds its thread until then, exactly like a sync op that blocks in the call. An async
  // compute or copy op is a device op (device_pool.hpp): its function enqueues the work and
  // returns, and the op completes when the device reaches it (docs/engine.md, "Device pools").
  if (!async && desc.kind == dag::OpKind::async_collective) {
    reject(desc, "has kind async_collective but is submitted as a sync op; use submit_async");
  }
  if (desc.collective.has_value() != dag::is_collective(desc.kind)) {
    reject(desc, desc.collective ? "carries a collective but its kind is not a collective kind"
                                 : "has a collective kind but no collective");
  }
  check_vars(desc);
}

// Every var exists and is named once: a var in both reads and writes, or twice in one list, is
// rejected rather than merged, since it almost always hides a mistake in the caller.
void EngineState::check_vars(const OpDesc& desc) const {
  const std::size_t count = desc.reads.size() + desc.writes.size();
  if (count > dag::limits::op_vars_max) {
    reject(desc, "names " + std::to_string(count) + " vars; at most " +
                     std::to_string(dag::limits::op_vars_max) + " are allowed");
  }
  // (var, position in reads ++ writes); ops name few vars, so the common case does not allocate.
  using Entry = std::pair<dag::VarId, std::size_t>;
  std::array<Entry, 16> small{};
  std::vector<Entry> large(count > small.size() ? count : 0);
  const std::span<Entry> ids =
      count > small.size() ? std::span<Entry>(large) : std::span<Entry>(small.data(), count);
  std::size_t position = 0;
  for (const VarHandle var : desc.reads) {
    ids[position] = Entry{var.id, position};
    ++position;
  }
  for (const VarHandle var : desc.writes) {
    ids[position] = Entry{var.id, position};
    ++position;
  }
  for (const auto& [id, where] : ids) {
    if (id >= vars_.size()) {
      reject(desc, role_of(desc, where) + " var " + std::to_string(id) +
                       " which does not exist (the engine has " + std::to_string(vars_.size()) +
                       " vars)");
    }
  }
  std::sort(ids.begin(), ids.end());
  const auto twice = std::adjacent_find(
      ids.begin(), ids.end(), [](const auto& a, const auto& b) { return a.first == b.first; });
  if (twice != ids.end()) {
    const std::string first = role_of(desc, twice->second);
    const std::string second = role_of(desc, std::next(twice)->second);
    const std::string where =
        first == second ? "twice in its " + first : "in both reads and writes";
    reject(desc, "names var " + std::to_string(twice->first) + " " + where +
                     "; list each var once (a write already grants read access)");
  }
  assert(position == count);
}

}  // namespace ordo::engine
