#include "runtime/diag/traced_world.hpp"

#include <exception>
#include <utility>

namespace ordo::diag {
namespace {

// A non-blocking call's request, which logs the call's end when it is seen to end.
class TracedRequest final : public comm::Request {
 public:
  TracedRequest(std::unique_ptr<comm::Request> inner, TimelineLog& log, std::int64_t token)
      : inner_(std::move(inner)), log_(log), token_(token) {}

  bool test() override {
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
  void wait() override {
    try {
      inner_->wait();
    } catch (...) {
      end(true);
      throw;
    }
    end(false);
  }

 private:
  void end(bool failed) {
    if (ended_) return;
    ended_ = true;
    log_.collective_end(token_, failed);
  }

  std::unique_ptr<comm::Request> inner_;
  TimelineLog& log_;
  std::int64_t token_;
  bool ended_ = false;
};

}  // namespace

TracedCommunicator::TracedCommunicator(comm::Communicator& inner, dag::CommId id, TimelineLog& log)
    : inner_(inner), id_(id), log_(log) {}

void TracedCommunicator::call(const comm::Call& call, void* buffer) {
  const std::int64_t token = log_.collective_begin(id_, call, true);
  try {
    inner_.call(call, buffer);
  } catch (...) {
    log_.collective_end(token, true);
    throw;
  }
  log_.collective_end(token, false);
}

std::unique_ptr<comm::Request> TracedCommunicator::start(const comm::Call& call, void* buffer) {
  const std::int64_t token = log_.collective_begin(id_, call, false);
  std::unique_ptr<comm::Request> request;
  try {
    request = inner_.start(call, buffer);
  } catch (...) {
    log_.collective_end(token, true);
    throw;
  }
  return std::make_unique<TracedRequest>(std::move(request), log_, token);
}

comm::Communicator::Done TracedCommunicator::ender(std::int64_t token, Done done) {
  return [log = &log_, token, done = std::move(done)](std::exception_ptr error) {
    log->collective_end(token, error != nullptr);
    done(std::move(error));
  };
}

void TracedCommunicator::call_then(const comm::Call& call, void* buffer, Done done) {
  const std::int64_t token = log_.collective_begin(id_, call, true);
  inner_.call_then(call, buffer, ender(token, std::move(done)));
}

void TracedCommunicator::start_then(const comm::Call& call, void* buffer, Done done) {
  const std::int64_t token = log_.collective_begin(id_, call, false);
  inner_.start_then(call, buffer, ender(token, std::move(done)));
}

TracedWorld::TracedWorld(comm::World& inner, TimelineLog& log) : inner_(inner) {
  comms_.resize(inner_.comm_count());
  for (dag::CommId id = 0; id < comms_.size(); ++id) {
    if (!inner_.is_member(id)) continue;
    comm::Communicator& c = inner_.comm(id);
    log.set_comm_name(id, c.name());
    comms_[id] = std::make_unique<TracedCommunicator>(c, id, log);
  }
}

comm::Communicator& TracedWorld::comm(dag::CommId id) {
  if (id < comms_.size() && comms_[id] != nullptr) return *comms_[id];
  return inner_.comm(id);  // throws the backend's error for an unknown id or a non-member
}

}  // namespace ordo::diag
