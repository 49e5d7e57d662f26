#include "runtime/comm/rules/completion.hpp"

namespace ordo::comm {

CompletionNeeds completion_needs(const Call& call, std::size_t member) {
  const bool is_root = call.root && *call.root == member;
  switch (call.kind) {
    case dag::CollectiveKind::bcast:
      return is_root ? CompletionNeeds::own : CompletionNeeds::root;
    case dag::CollectiveKind::reduce:
      return is_root ? CompletionNeeds::all : CompletionNeeds::own;
    case dag::CollectiveKind::allreduce:
    case dag::CollectiveKind::barrier:
    case dag::CollectiveKind::reduce_scatter:
    case dag::CollectiveKind::allgather:
      return CompletionNeeds::all;
  }
  return CompletionNeeds::all;
}

bool may_complete_early(Backend backend) { return !stream_ordered(backend); }

}  // namespace ordo::comm
