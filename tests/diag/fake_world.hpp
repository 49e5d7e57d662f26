// A rank's world for the diagnostics' tests, played by the test: rank 0 of two, two
// communicators "a" and "b", whose calls end at once, or fail, or (start_then) end when the test
// says so.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "runtime/comm/communicator.hpp"
#include "runtime/dag/program.hpp"

namespace ordo::diag::testing {

class FakeComm final : public comm::Communicator {
 public:
  explicit FakeComm(std::string name) : name_(std::move(name)) {}
  const std::string& name() const override { return name_; }
  dag::Rank rank() const override { return 0; }
  std::uint32_t size() const override { return 2; }
  void call(const comm::Call& call, void*) override {
    ++calls;
    if (call.key == fail_key) throw std::runtime_error("backend failed");
  }
  std::unique_ptr<comm::Request> start(const comm::Call&, void*) override {
    ++calls;
    struct Ended final : comm::Request {
      bool test() override { return true; }
      void wait() override {}
    };
    return std::make_unique<Ended>();
  }
  void start_then(const comm::Call&, void*, Done done) override {
    ++calls;
    held = std::move(done);
  }

  std::int64_t fail_key = -100;
  int calls = 0;  // issued to this backend
  Done held;

 private:
  std::string name_;
};

class FakeWorld final : public comm::World {
 public:
  FakeWorld() : a("a"), b("b") {}
  dag::Rank rank() const override { return 0; }
  std::uint32_t size() const override { return 2; }
  std::uint32_t comm_count() const override { return 2; }
  comm::Communicator& comm(dag::CommId id) override { return id == 0 ? a : b; }
  bool is_member(dag::CommId) const override { return true; }
  FakeComm a;
  FakeComm b;
};

// The table the fake world is built from.
inline const std::vector<dag::Communicator> fake_comms = {{"a", {}}, {"b", {}}};

}  // namespace ordo::diag::testing
