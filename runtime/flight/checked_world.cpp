#include "runtime/flight/checked_world.hpp"

#include <chrono>
#include <exception>
#include <iostream>
#include <mutex>
#include <span>
#include <thread>
#include <utility>

namespace ordo::flight {
namespace {

std::string mismatch_message(const std::string& comm_name, std::uint64_t seq,
                             const std::vector<comm::FingerprintGroup>& groups) {
  return "collective mismatch on '" + comm_name + "' at call " + std::to_string(seq) +
         " (fingerprint mode): " + comm::describe_divergence(groups, comm_name);
}

}  // namespace

CollectiveMismatch::CollectiveMismatch(std::string comm_name, std::uint64_t seq,
                                       std::vector<comm::FingerprintGroup> groups)
    : std::runtime_error(mismatch_message(comm_name, seq, groups)),
      comm_name_(std::move(comm_name)),
      seq_(seq),
      groups_(std::move(groups)) {}

struct CheckedCommunicator::Exchange {
  std::uint64_t seq = 0;
  comm::FingerprintRecord mine{};
  std::vector<std::byte> all;
};

namespace {

// A non-blocking call and its exchange, ended together: `done` runs once, when both have ended,
// or at once when the exchange shows a divergence (the call may then never end: MPI matched it
// with a call it does not match, and the job must end anyway).
struct Join {
  std::mutex mutex;
  int open = 2;
  bool reported = false;
  std::exception_ptr call_error;
  comm::Communicator::Done done;

  void call_ended(std::exception_ptr error) {
    std::unique_lock lock(mutex);
    call_error = std::move(error);
    if (--open > 0 || reported) return;
    reported = true;
    lock.unlock();
    done(call_error);
  }
  // `verdict` is the exchange's failure or the divergence it showed, null when the calls match.
  void check_ended(std::exception_ptr verdict) {
    std::unique_lock lock(mutex);
    --open;
    if (reported) return;
    if (verdict == nullptr && open > 0) return;
    reported = true;
    std::exception_ptr error = verdict != nullptr ? verdict : call_error;
    lock.unlock();
    done(std::move(error));
  }
};

// start()'s request: ends when both the call and its exchange have, and throws the divergence
// as soon as the exchange shows it.
class CheckedRequest final : public comm::Request {
 public:
  struct Verdict {
    std::mutex mutex;
    bool ended = false;
    std::exception_ptr error;
  };

  CheckedRequest(std::unique_ptr<comm::Request> inner, std::shared_ptr<Verdict> verdict)
      : inner_(std::move(inner)), verdict_(std::move(verdict)) {}
  ~CheckedRequest() override {
    // After a divergence the call may never end, and destroying it would wait for it: it is let
    // go instead, since the job is ending.
    if (diverged_) static_cast<void>(inner_.release());
  }

  bool test() override {
    bool ended = false;
    {
      const std::lock_guard lock(verdict_->mutex);
      ended = verdict_->ended;
      if (ended && verdict_->error != nullptr) {
        diverged_ = true;
        std::rethrow_exception(verdict_->error);
      }
    }
    const bool call_over = call_ended_ || (call_ended_ = inner_->test());
    return call_over && ended;
  }
  void wait() override {
    // The exchange ends on another thread; polling both keeps a divergence from waiting behind
    // a call that will never end.
    while (!test()) std::this_thread::sleep_for(std::chrono::microseconds(50));
  }

 private:
  std::unique_ptr<comm::Request> inner_;
  std::shared_ptr<Verdict> verdict_;
  bool call_ended_ = false;
  bool diverged_ = false;
};

}  // namespace

CheckedCommunicator::CheckedCommunicator(comm::Communicator& inner, comm::CheckChannel& channel,
                                         MismatchReport report, comm::Backend backend,
                                         std::string shown_name)
    : WrappedCommunicator(inner),
      channel_(channel),
      report_(std::move(report)),
      backend_(backend),
      name_(shown_name.empty() ? inner.name() : std::move(shown_name)) {
  if (channel_.size() != inner_.size()) {
    throw std::invalid_argument("the check channel of '" + inner_.name() + "' has " +
                                std::to_string(channel_.size()) + " members, the communicator " +
                                std::to_string(inner_.size()));
  }
}

std::shared_ptr<CheckedCommunicator::Exchange> CheckedCommunicator::exchange_for(
    const comm::Call& call, bool blocks) {
  auto exchange = std::make_shared<Exchange>();
  exchange->seq = next_seq_.fetch_add(1, std::memory_order_relaxed);
  exchange->mine = comm::encode(comm::Fingerprint{call, comm::call_blocks(backend_, blocks)});
  exchange->all.resize(comm::fingerprint_bytes * channel_.size());
  return exchange;
}

void CheckedCommunicator::judge(const Exchange& exchange) {
  std::vector<comm::Fingerprint> prints;
  prints.reserve(channel_.size());
  for (std::uint32_t r = 0; r < channel_.size(); ++r) {
    const std::span<const std::byte, comm::fingerprint_bytes> record(
        exchange.all.data() + r * comm::fingerprint_bytes, comm::fingerprint_bytes);
    try {
      prints.push_back(comm::decode(record));
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error("fingerprint exchange on '" + name_ + "' at call " +
                               std::to_string(exchange.seq) + ": rank " + std::to_string(r) +
                               "'s " + e.what());
    }
  }
  std::vector<comm::FingerprintGroup> groups = comm::group_by_call(prints);
  if (groups.size() == 1) return;
  CollectiveMismatch mismatch(name_, exchange.seq, std::move(groups));
  // Every member finds this position divergent (they all hold the same records): each reports,
  // then waits a moment for the others, once, so that none ends the job before the others have
  // reported.
  if (!settled_.exchange(true)) {
    report_(mismatch);
    channel_.settle(mismatch_settle_s);
  }
  throw mismatch;
}

void CheckedCommunicator::check_blocking(const comm::Call& call) {
  const std::shared_ptr<Exchange> exchange = exchange_for(call, true);
  channel_.gather(exchange->mine.data(), exchange->all.data(), comm::fingerprint_bytes);
  judge(*exchange);
}

// A send or recv has two parties, not the communicator's members, and a recv from any source
// does not know its sender: the members' exchange of every call cannot judge it, so it goes to
// MPI unchecked (docs/diagnostics.md, "Fingerprint mode").
void CheckedCommunicator::call(const comm::Call& call, void* buffer) {
  if (!dag::is_point_to_point(call.kind)) check_blocking(call);
  inner_.call(call, buffer);
}

void CheckedCommunicator::call_then(const comm::Call& call, void* buffer, Done done) {
  if (dag::is_point_to_point(call.kind)) {
    inner_.call_then(call, buffer, std::move(done));
    return;
  }
  try {
    check_blocking(call);
  } catch (...) {
    done(std::current_exception());
    return;
  }
  inner_.call_then(call, buffer, std::move(done));
}

std::unique_ptr<comm::Request> CheckedCommunicator::start(const comm::Call& call, void* buffer) {
  if (dag::is_point_to_point(call.kind)) return inner_.start(call, buffer);
  const std::shared_ptr<Exchange> exchange = exchange_for(call, false);
  auto verdict = std::make_shared<CheckedRequest::Verdict>();
  channel_.gather_then(exchange->mine.data(), exchange->all.data(), comm::fingerprint_bytes,
                       [this, exchange, verdict](std::exception_ptr error) {
                         if (error == nullptr) {
                           try {
                             judge(*exchange);
                           } catch (...) {
                             error = std::current_exception();
                           }
                         }
                         const std::lock_guard lock(verdict->mutex);
                         verdict->ended = true;
                         verdict->error = std::move(error);
                       });
  return std::make_unique<CheckedRequest>(inner_.start(call, buffer), std::move(verdict));
}

void CheckedCommunicator::start_then(const comm::Call& call, void* buffer, Done done) {
  if (dag::is_point_to_point(call.kind)) {
    inner_.start_then(call, buffer, std::move(done));
    return;
  }
  const std::shared_ptr<Exchange> exchange = exchange_for(call, false);
  auto join = std::make_shared<Join>();
  join->done = std::move(done);
  channel_.gather_then(exchange->mine.data(), exchange->all.data(), comm::fingerprint_bytes,
                       [this, exchange, join](std::exception_ptr error) {
                         if (error == nullptr) {
                           try {
                             judge(*exchange);
                           } catch (...) {
                             error = std::current_exception();
                           }
                         }
                         join->check_ended(std::move(error));
                       });
  inner_.start_then(call, buffer,
                    [join](std::exception_ptr error) { join->call_ended(std::move(error)); });
}

namespace {

comm::WrappedWorld::Wrap checking(const comm::World& inner,
                                  const std::vector<comm::CheckChannel*>& channels,
                                  MismatchReport report, comm::Backend backend,
                                  const std::string& name_prefix) {
  if (channels.size() != inner.comm_count()) {
    throw std::invalid_argument(
        "a checked world needs one channel per communicator: " + std::to_string(channels.size()) +
        " channels for " + std::to_string(inner.comm_count()) + " communicators");
  }
  if (!report) {
    report = [rank = inner.rank(), size = inner.size()](const CollectiveMismatch& m) {
      // One write, so that ranks sharing a terminal do not interleave their lines.
      const std::string line = "ordo: rank " + std::to_string(rank) + " of " +
                               std::to_string(size) + ": " + m.what() + "\n";
      std::cerr << line << std::flush;
    };
  }
  return [channels, report, backend, name_prefix](
             dag::CommId id, comm::Communicator& c) -> std::unique_ptr<comm::Communicator> {
    if (channels[id] == nullptr) {
      throw std::invalid_argument("a checked world needs a channel for communicator " +
                                  std::to_string(id) + ", which this rank is a member of");
    }
    return std::make_unique<CheckedCommunicator>(c, *channels[id], report, backend,
                                                 name_prefix.empty() ? "" : name_prefix + c.name());
  };
}

}  // namespace

CheckedWorld::CheckedWorld(comm::World& inner, const std::vector<comm::CheckChannel*>& channels,
                           MismatchReport report, comm::Backend backend,
                           const std::string& name_prefix)
    : WrappedWorld(inner, checking(inner, channels, std::move(report), backend, name_prefix)) {}

}  // namespace ordo::flight
