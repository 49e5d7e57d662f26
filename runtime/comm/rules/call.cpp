#include "runtime/comm/rules/call.hpp"

#include <cassert>
#include <stdexcept>
#include <vector>

#include "runtime/dag/action_text.hpp"
#include "runtime/dag/collective_shape.hpp"
#include "runtime/dag/names.hpp"

namespace ordo::comm {
namespace {

[[noreturn]] void reject(const Call& call, std::string_view comm_name, const std::string& why) {
  throw std::invalid_argument(describe(call, comm_name) + ": " + why);
}

void check_enums(const Call& call, std::string_view comm_name) {
  // A Call can come from anywhere, casts included; an out-of-range enum must not reach a switch.
  // Values without a spelling are exactly the out-of-range ones.
  if (dag::to_string(call.kind) == "?") reject(call, comm_name, "unknown collective kind");
  if (dag::to_string(call.dtype) == "?") reject(call, comm_name, "unknown dtype");
  if (dag::to_string(call.reduction) == "?") reject(call, comm_name, "unknown reduction");
}

void check_buffer(const Call& call, const void* buffer, std::string_view comm_name) {
  if (buffer == nullptr && call.count > 0) {
    reject(call, comm_name, "the buffer is null but the count is " + std::to_string(call.count));
  }
}

}  // namespace

Call call_of(const dag::Collective& c) {
  return Call{c.kind, c.key, c.count, c.dtype, c.reduction, c.root, c.offset, c.peer, c.tag};
}

bool message_agrees(const Call& send, const Call& recv) {
  return send.key == recv.key && send.offset == recv.offset && send.dtype == recv.dtype &&
         send.count <= recv.count;
}

bool agree(const Call& a, const Call& b) {
  if (a.kind == dag::CollectiveKind::barrier && b.kind == dag::CollectiveKind::barrier) {
    return a.count == b.count && a.reduction == b.reduction && a.root == b.root &&
           a.offset == b.offset;
  }
  return a == b;
}

bool matches(const Call& a, bool a_blocks, const Call& b, bool b_blocks) {
  return a_blocks == b_blocks && agree(a, b);
}

void check_call_shape(const Call& call, std::string_view comm_name, std::uint32_t comm_size) {
  assert(comm_size > 0 && "a communicator has at least one rank");
  check_enums(call, comm_name);
  const std::vector<dag::ShapeProblem> problems = dag::shape_problems(
      call.kind, call.count, call.reduction, call.root, comm_size,
      call.peer ? std::optional<std::uint64_t>(*call.peer) : std::nullopt, call.tag);
  if (!problems.empty()) {
    reject(call, comm_name, problems.front().found + "; expected " + problems.front().expected);
  }
}

void check_call(const Call& call, const void* buffer, std::string_view comm_name,
                std::uint32_t comm_size) {
  check_call_shape(call, comm_name, comm_size);
  if (call.kind != dag::CollectiveKind::barrier) check_buffer(call, buffer, comm_name);
}

std::string describe(const Call& call, std::string_view comm_name) {
  return dag::describe(dag::Collective{.kind = call.kind,
                                       .key = call.key,
                                       .count = call.count,
                                       .dtype = call.dtype,
                                       .reduction = call.reduction,
                                       .root = call.root,
                                       .offset = call.offset,
                                       .peer = call.peer,
                                       .tag = call.tag},
                       comm_name);
}

}  // namespace ordo::comm
