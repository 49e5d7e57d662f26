#include "bench/designs/alone_world.hpp"

#include <stdexcept>

#include "runtime/comm/rules/call.hpp"

namespace ordo::bench {

namespace {

// A collective that ended when it was started.
class Ended final : public comm::Request {
 public:
  bool test() override { return true; }
  void wait() override {}
};

}  // namespace

class AloneWorld::Comm final : public comm::Communicator {
 public:
  explicit Comm(std::string name) : name_(std::move(name)) {}
  const std::string& name() const override { return name_; }
  dag::Rank rank() const override { return 0; }
  std::uint32_t size() const override { return 1; }
  // The same argument checks as every backend, so a malformed call fails here too.
  void call(const comm::Call& call, void* buffer) override {
    comm::check_call(call, buffer, name_, 1);
  }
  std::unique_ptr<comm::Request> start(const comm::Call& call, void* buffer) override {
    comm::check_call(call, buffer, name_, 1);
    return std::make_unique<Ended>();
  }

 private:
  std::string name_;
};

AloneWorld::AloneWorld(const std::vector<dag::Communicator>& comms) {
  for (const dag::Communicator& c : comms) comms_.push_back(std::make_unique<Comm>(c.name));
}

AloneWorld::~AloneWorld() = default;

std::uint32_t AloneWorld::comm_count() const { return static_cast<std::uint32_t>(comms_.size()); }

comm::Communicator& AloneWorld::comm(dag::CommId id) {
  if (id >= comm_count()) {
    throw std::out_of_range("communicator " + std::to_string(id) + " of " +
                            std::to_string(comm_count()));
  }
  return *comms_[id];
}

}  // namespace ordo::bench
