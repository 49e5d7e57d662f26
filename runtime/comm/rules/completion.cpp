#include "runtime/comm/rules/completion.hpp"

namespace ordo::comm {

CompletionNeeds completion_needs(const Call& call, std::size_t member) {
  const bool is_root = call.root && *call.root == member;
  switch (call.kind) {
    case dag::CollectiveKind::bcast:
    case dag::CollectiveKind::scatter:
      return is_root ? CompletionNeeds::own : CompletionNeeds::root;
    case dag::CollectiveKind::reduce:
    case dag::CollectiveKind::gather:
      return is_root ? CompletionNeeds::all : CompletionNeeds::own;
    case dag::CollectiveKind::scan:
    case dag::CollectiveKind::exscan:
      return CompletionNeeds::prefix;
    case dag::CollectiveKind::allreduce:
    case dag::CollectiveKind::barrier:
    case dag::CollectiveKind::reduce_scatter:
    case dag::CollectiveKind::allgather:
    case dag::CollectiveKind::alltoall:
      return CompletionNeeds::all;
    case dag::CollectiveKind::send:
      return CompletionNeeds::own;
    case dag::CollectiveKind::recv:
      return CompletionNeeds::message;
  }
  return CompletionNeeds::all;
}

bool may_complete_early(Backend backend) { return !stream_ordered(backend); }

}  // namespace ordo::comm
