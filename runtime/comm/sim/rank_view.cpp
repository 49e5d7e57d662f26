#include "runtime/comm/sim/rank_view.hpp"

#include <condition_variable>
#include <mutex>
#include <stdexcept>

#include "runtime/comm/sim/world_state.hpp"

namespace ordo::comm::sim {

namespace {

// Completion state shared by a Request and the callback that fills it.
struct Completion {
  std::mutex mutex;
  std::condition_variable changed;
  bool done = false;
  std::exception_ptr error;

  void set(std::exception_ptr e) {
    {
      std::lock_guard lock(mutex);
      done = true;
      error = std::move(e);
    }
    changed.notify_all();
  }
  void wait() {
    std::unique_lock lock(mutex);
    changed.wait(lock, [this] { return done; });
    if (error) std::rethrow_exception(error);
  }
};

class SimRequest final : public Request {
 public:
  explicit SimRequest(std::shared_ptr<Completion> c) : c_(std::move(c)) {}
  bool test() override {
    std::lock_guard lock(c_->mutex);
    if (c_->done && c_->error) std::rethrow_exception(c_->error);
    return c_->done;
  }
  void wait() override { c_->wait(); }

 private:
  std::shared_ptr<Completion> c_;
};

}  // namespace

SimCommunicator::SimCommunicator(SimWorld& world, dag::Rank world_rank, dag::CommId id,
                                 std::string name, dag::Rank rank, std::uint32_t size)
    : world_(world), world_rank_(world_rank), id_(id), name_(std::move(name)), rank_(rank),
      size_(size) {}

void SimCommunicator::call(const Call& call, void* buffer) {
  auto completion = std::make_shared<Completion>();
  call_then(call, buffer, [completion](std::exception_ptr e) { completion->set(std::move(e)); });
  completion->wait();
}

std::unique_ptr<Request> SimCommunicator::start(const Call& call, void* buffer) {
  auto completion = std::make_shared<Completion>();
  start_then(call, buffer, [completion](std::exception_ptr e) { completion->set(std::move(e)); });
  return std::make_unique<SimRequest>(completion);
}

void SimCommunicator::call_then(const Call& call, void* buffer, Done done) {
  world_.post(world_rank_, id_, call, buffer, true, std::move(done));
}

void SimCommunicator::start_then(const Call& call, void* buffer, Done done) {
  world_.post(world_rank_, id_, call, buffer, false, std::move(done));
}

SimWorld::RankView::RankView(SimWorld& world, dag::Rank rank) : world_(world), rank_(rank) {
  for (std::size_t id = 0; id < world_.comms_.size(); ++id) {
    const CommState& c = *world_.comms_[id];
    const std::int64_t member = c.member_of[rank];
    if (member < 0) {
      comms_.push_back(nullptr);
      continue;
    }
    comms_.push_back(std::make_unique<SimCommunicator>(
        world_, rank, static_cast<dag::CommId>(id), c.name, static_cast<dag::Rank>(member),
        static_cast<std::uint32_t>(c.members.size())));
  }
}

std::uint32_t SimWorld::RankView::comm_count() const {
  return static_cast<std::uint32_t>(comms_.size());
}

Communicator& SimWorld::RankView::comm(dag::CommId id) {
  if (id >= comms_.size()) {
    throw std::out_of_range("no communicator " + std::to_string(id) + " in the simulated world");
  }
  if (!comms_[id]) {
    throw std::logic_error("rank " + std::to_string(rank_) + " is not a member of communicator " +
                           std::to_string(id));
  }
  return *comms_[id];
}

bool SimWorld::RankView::is_member(dag::CommId id) const {
  return id < comms_.size() && comms_[id] != nullptr;
}

}  // namespace ordo::comm::sim
