#include "runtime/flight/timeline_world.hpp"

#include <exception>
#include <string>
#include <utility>

namespace ordo::flight {

TracedCommunicator::TracedCommunicator(comm::Communicator& inner, dag::CommId id, TimelineLog& log)
    : WrappedCommunicator(inner), id_(id), log_(log) {}

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
  return std::make_unique<comm::ObservedRequest>(
      std::move(request),
      [log = &log_, token](bool failed) { log->collective_end(token, failed); });
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

TimelineWorld::TimelineWorld(comm::World& inner, TimelineLog& log, dag::CommId first_id,
                             std::string_view name_prefix)
    : WrappedWorld(inner, [&log, first_id, name_prefix](dag::CommId id, comm::Communicator& c) {
        log.set_comm_name(first_id + id, std::string(name_prefix) + c.name());
        return std::make_unique<TracedCommunicator>(c, first_id + id, log);
      }) {}

}  // namespace ordo::flight
