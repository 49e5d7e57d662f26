// A World whose communicators are wrappers of another world's: how a diagnostic (the flight
// recorder, fingerprint mode, the timeline) stands between the program and the backend. One
// wrapper per communicator this rank belongs to, made up front, as the backend's communicators
// are; everything else is the inner world's.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/comm/communicator.hpp"

namespace ordo::comm {

// A communicator that stands in for `inner` (which must outlive it): its name, rank and size are
// the inner one's; a subclass decides what each call does around the inner call.
class WrappedCommunicator : public Communicator {
 public:
  explicit WrappedCommunicator(Communicator& inner) : inner_(inner) {}

  const std::string& name() const override { return inner_.name(); }
  dag::Rank rank() const override { return inner_.rank(); }
  std::uint32_t size() const override { return inner_.size(); }

 protected:
  Communicator& inner_;
};

class WrappedWorld : public World {
 public:
  // Makes the wrapper of communicator `id`, which this rank is a member of.
  using Wrap = std::function<std::unique_ptr<Communicator>(dag::CommId id, Communicator& inner)>;

  // `inner` must outlive this world. Calls `wrap` once per member communicator, in id order.
  WrappedWorld(World& inner, const Wrap& wrap);

  dag::Rank rank() const override { return inner_.rank(); }
  std::uint32_t size() const override { return inner_.size(); }
  std::uint32_t comm_count() const override { return inner_.comm_count(); }
  // The wrapper; for an unknown id or a communicator this rank is not in, the inner world's error.
  Communicator& comm(dag::CommId id) override;
  bool is_member(dag::CommId id) const override { return inner_.is_member(id); }

 private:
  World& inner_;
  std::vector<std::unique_ptr<Communicator>> comms_;
};

// A non-blocking call's request that tells `ended(failed)` once, when it is seen to end, and is
// otherwise the inner request.
class ObservedRequest final : public Request {
 public:
  ObservedRequest(std::unique_ptr<Request> inner, std::function<void(bool failed)> ended);

  bool test() override;
  void wait() override;

 private:
  void end(bool failed);

  std::unique_ptr<Request> inner_;
  std::function<void(bool failed)> ended_;
  bool over_ = false;
};

}  // namespace ordo::comm
