#include "runtime/comm/wrapped_world.hpp"

#include <utility>

namespace ordo::comm {

WrappedWorld::WrappedWorld(World& inner, const Wrap& wrap) : inner_(inner) {
  comms_.resize(inner_.comm_count());
  for (dag::CommId id = 0; id < comms_.size(); ++id) {
    if (inner_.is_member(id)) comms_[id] = wrap(id, inner_.comm(id));
  }
}

Communicator& WrappedWorld::comm(dag::CommId id) {
  if (id < comms_.size() && comms_[id] != nullptr) return *comms_[id];
  return inner_.comm(id);  // throws the backend's error for an unknown id or a non-member
}

ObservedRequest::ObservedRequest(std::unique_ptr<Request> inner,
                                 std::function<void(bool failed)> ended)
    : inner_(std::move(inner)), ended_(std::move(ended)) {}

bool ObservedRequest::test() {
  bool over = false;
  try {
    over = inner_->test();
  } catch (...) {
    end(true);
    throw;
  }
  if (over) end(false);
  return over;
}

void ObservedRequest::wait() {
  try {
    inner_->wait();
  } catch (...) {
    end(true);
    throw;
  }
  end(false);
}

void ObservedRequest::end(bool failed) {
  if (over_) return;
  over_ = true;
  ended_(failed);
}

}  // namespace ordo::comm
