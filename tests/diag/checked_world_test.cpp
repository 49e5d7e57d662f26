// Fingerprint mode's wrapper on one communicator, with the exchange and the backend played by the
// test: a blocking call is issued only after its exchange agrees; a non-blocking call ends once,
// when both it and its exchange have, with the divergence preferred over the call's own error and
// reported without waiting for a call that may never end. The two ends racing on two threads is
// what ThreadSanitizer checks here.
#include "runtime/flight/checked_world.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "runtime/comm/check_channel.hpp"

namespace ordo::diag {
namespace {

using comm::Call;
using comm::Fingerprint;

Call allreduce(std::int64_t key) {
  return Call{
      dag::CollectiveKind::allreduce, key, 4, dag::DType::f32, dag::Reduction::sum, std::nullopt};
}

// Two members: this rank is 0; what rank 1 issued at each position is the test's script.
class ScriptedChannel final : public comm::CheckChannel {
 public:
  struct Pending {
    const std::byte* mine;
    std::byte* all;
    comm::Communicator::Done done;
  };

  std::uint32_t size() const override { return 2; }
  void gather(const std::byte* mine, std::byte* all, std::size_t bytes) override {
    fill(mine, all, bytes);
  }
  void gather_then(const std::byte* mine, std::byte* all, std::size_t bytes,
                   comm::Communicator::Done done) override {
    EXPECT_EQ(bytes, comm::fingerprint_bytes);
    const std::lock_guard lock(mutex);
    pending.push_back(Pending{mine, all, std::move(done)});
  }
  void settle(double) override { ++settles; }

  // Ends the oldest non-blocking exchange.
  void end_next() {
    Pending p;
    {
      const std::lock_guard lock(mutex);
      p = std::move(pending.front());
      pending.pop_front();
    }
    fill(p.mine, p.all, comm::fingerprint_bytes);
    p.done(nullptr);
  }

  std::deque<Fingerprint> theirs;
  std::deque<Pending> pending;
  std::mutex mutex;
  std::atomic<int> settles{0};

 private:
  void fill(const std::byte* mine, std::byte* all, std::size_t bytes) {
    Fingerprint other;
    {
      const std::lock_guard lock(mutex);
      other = theirs.front();
      theirs.pop_front();
    }
    std::memcpy(all, mine, bytes);
    const comm::FingerprintRecord record = comm::encode(other);
    std::memcpy(all + bytes, record.data(), bytes);
  }
};

class ScriptedComm final : public comm::Communicator {
 public:
  const std::string& name() const override { return name_; }
  dag::Rank rank() const override { return 0; }
  std::uint32_t size() const override { return 2; }
  void call(const Call& c, void*) override { issued.push_back(c); }
  std::unique_ptr<comm::Request> start(const Call&, void*) override {
    throw std::logic_error("not used");
  }
  void start_then(const Call& c, void*, Done done) override {
    issued.push_back(c);
    const std::lock_guard lock(mutex);
    pending.push_back(std::move(done));
  }
  void end_next(std::exception_ptr error) {
    Done done;
    {
      const std::lock_guard lock(mutex);
      done = std::move(pending.front());
      pending.pop_front();
    }
    done(std::move(error));
  }

  std::vector<Call> issued;
  std::deque<Done> pending;
  std::mutex mutex;

 private:
  std::string name_ = "grads";
};

struct Fixture {
  ScriptedChannel channel;
  ScriptedComm inner;
  std::atomic<int> reports{0};
  flight::MismatchReport report = [this](const flight::CollectiveMismatch&) { ++reports; };
  flight::CheckedCommunicator checked{inner, channel, report};
};

// Collects a non-blocking call's completions.
struct Ends {
  std::mutex mutex;
  std::vector<std::exception_ptr> errors;
  comm::Communicator::Done done() {
    return [this](std::exception_ptr e) {
      const std::lock_guard lock(mutex);
      errors.push_back(std::move(e));
    };
  }
};

std::string what(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& x) {
    return x.what();
  }
}

TEST(CheckedCommunicator, AgreeingBlockingCallsAreIssued) {
  Fixture f;
  f.channel.theirs = {Fingerprint{allreduce(1), true}, Fingerprint{allreduce(2), true}};
  f.checked.call(allreduce(1), nullptr);
  f.checked.call(allreduce(2), nullptr);
  EXPECT_EQ(f.inner.issued.size(), 2u);
  EXPECT_EQ(f.checked.checked(), 2u);
  EXPECT_EQ(f.reports, 0);
}

TEST(CheckedCommunicator, ADivergentBlockingCallIsNeverIssued) {
  Fixture f;
  f.channel.theirs = {Fingerprint{allreduce(1), true}, Fingerprint{allreduce(3), true},
                      Fingerprint{allreduce(9), true}};
  f.checked.call(allreduce(1), nullptr);
  try {
    f.checked.call(allreduce(2), nullptr);
    FAIL() << "no mismatch";
  } catch (const flight::CollectiveMismatch& m) {
    EXPECT_EQ(m.seq(), 1u);
    EXPECT_EQ(m.comm_name(), "grads");
    EXPECT_EQ(std::string(m.what()),
              "collective mismatch on 'grads' at call 1 (fingerprint mode): rank 0 issued "
              "allreduce of 4 x f32 (sum) on 'grads', key 2, blocking; rank 1 issued allreduce "
              "of 4 x f32 (sum) on 'grads', key 3, blocking");
  }
  EXPECT_EQ(f.inner.issued.size(), 1u);
  // Reported and settled once, at the first divergence only.
  EXPECT_THROW(f.checked.call(allreduce(2), nullptr), flight::CollectiveMismatch);
  EXPECT_EQ(f.reports, 1);
  EXPECT_EQ(f.channel.settles, 1);
}

TEST(CheckedCommunicator, BlockingAgainstNonBlockingIsADivergence) {
  Fixture f;
  f.channel.theirs = {Fingerprint{allreduce(1), false}};
  EXPECT_THROW(f.checked.call(allreduce(1), nullptr), flight::CollectiveMismatch);
  EXPECT_TRUE(f.inner.issued.empty());
}

TEST(CheckedCommunicator, ANonBlockingCallEndsWhenBothEndInEitherOrder) {
  for (const bool check_first : {true, false}) {
    Fixture f;
    Ends ends;
    f.channel.theirs = {Fingerprint{allreduce(1), false}};
    f.checked.start_then(allreduce(1), nullptr, ends.done());
    ASSERT_EQ(f.inner.issued.size(), 1u);  // issued at once, not after the exchange
    if (check_first) {
      f.channel.end_next();
      EXPECT_TRUE(ends.errors.empty());
      f.inner.end_next(nullptr);
    } else {
      f.inner.end_next(nullptr);
      EXPECT_TRUE(ends.errors.empty());
      f.channel.end_next();
    }
    ASSERT_EQ(ends.errors.size(), 1u);
    EXPECT_EQ(ends.errors[0], nullptr);
  }
}

TEST(CheckedCommunicator, TheDivergenceIsPreferredToTheCallsOwnError) {
  Fixture f;
  Ends ends;
  f.channel.theirs = {Fingerprint{allreduce(2), false}};
  f.checked.start_then(allreduce(1), nullptr, ends.done());
  f.inner.end_next(std::make_exception_ptr(std::runtime_error("MPI_ERR_TRUNCATE")));
  EXPECT_TRUE(ends.errors.empty());
  f.channel.end_next();
  ASSERT_EQ(ends.errors.size(), 1u);
  EXPECT_NE(what(ends.errors[0]).find("collective mismatch on 'grads' at call 0"),
            std::string::npos);
}

TEST(CheckedCommunicator, ADivergenceDoesNotWaitForACallThatMayNeverEnd) {
  Fixture f;
  Ends ends;
  f.channel.theirs = {Fingerprint{allreduce(1), true}};
  f.checked.start_then(allreduce(1), nullptr, ends.done());
  f.channel.end_next();
  ASSERT_EQ(ends.errors.size(), 1u);
  EXPECT_NE(ends.errors[0], nullptr);
  f.inner.end_next(nullptr);  // if it ever ends, nothing runs twice
  EXPECT_EQ(ends.errors.size(), 1u);
  EXPECT_EQ(f.reports, 1);
}

TEST(CheckedCommunicator, RacingEndsRunTheCallbackOnce) {
  for (int round = 0; round < 200; ++round) {
    Fixture f;
    Ends ends;
    const bool diverge = round % 2 == 1;
    f.channel.theirs = {Fingerprint{allreduce(diverge ? 7 : 1), false}};
    f.checked.start_then(allreduce(1), nullptr, ends.done());
    std::thread exchange([&] { f.channel.end_next(); });
    f.inner.end_next(nullptr);
    exchange.join();
    ASSERT_EQ(ends.errors.size(), 1u);
    EXPECT_EQ(ends.errors[0] != nullptr, diverge);
  }
}

TEST(CheckedCommunicator, AChannelOfAnotherSizeIsRefused) {
  class OneMember final : public comm::CheckChannel {
   public:
    std::uint32_t size() const override { return 1; }
    void gather(const std::byte*, std::byte*, std::size_t) override {}
    void gather_then(const std::byte*, std::byte*, std::size_t, comm::Communicator::Done) override {
    }
    void settle(double) override {}
  } channel;
  ScriptedComm inner;
  const flight::MismatchReport report = [](const flight::CollectiveMismatch&) {};
  EXPECT_THROW(flight::CheckedCommunicator(inner, channel, report), std::invalid_argument);
}

}  // namespace
}  // namespace ordo::diag
