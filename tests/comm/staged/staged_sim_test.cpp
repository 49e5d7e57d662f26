// The staged pipeline on the CPU: StagedCommunicator over the simulated world, its "device"
// buffers host memory copied by HostStager's own thread. Every kind, every member, many buffer
// and chunk sizes, bitwise against the local reference; the pipeline's order of copies and
// reductions; errors; and that the host calls match as the caller's would (blocking with
// blocking). Labelled sim, so ThreadSanitizer runs it too.
#include <gtest/gtest.h>

#include <algorithm>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "expected.hpp"
#include "runtime/comm/rules/violation.hpp"
#include "runtime/comm/sim/sim_world.hpp"
#include "runtime/comm/staged/host_stager.hpp"
#include "runtime/comm/staged/staged_communicator.hpp"

namespace ordo::comm {
namespace {

using dag::CollectiveKind;
using dag::DType;
using dag::Reduction;

template <class Body>
void on_every_rank(std::uint32_t ranks, Body body) {
  std::vector<std::thread> threads;
  for (dag::Rank r = 0; r < ranks; ++r) threads.emplace_back([&body, r] { body(r); });
  for (std::thread& t : threads) t.join();
}

Call make_call(CollectiveKind kind, std::uint64_t count, DType dtype, Reduction reduction,
               std::optional<dag::Rank> root = std::nullopt) {
  return Call{kind, 5, count, dtype, reduction, root};
}

// One staged communicator per rank over a fresh simulated world.
struct StagedRanks {
  StagedRanks(std::uint32_t ranks, std::size_t chunk_bytes) : world(ranks, {{"grads", {}}}) {
    for (dag::Rank r = 0; r < ranks; ++r) {
      comms.push_back(std::make_unique<StagedCommunicator>(
          world.rank(r).comm(0), std::make_unique<HostStager>(), StagedOptions{chunk_bytes}));
    }
  }
  sim::SimWorld world;
  std::vector<std::unique_ptr<StagedCommunicator>> comms;
};

enum class Form { blocking, started, callback };

// Runs `call` on every rank in `form` and checks every rank's bytes.
void expect_staged(StagedRanks& ranks, const Call& call, Form form) {
  const auto size = static_cast<std::uint32_t>(ranks.comms.size());
  std::vector<std::string> reports(size);
  on_every_rank(size, [&](dag::Rank r) {
    const test::Expected e = test::expected(call, size, r);
    std::vector<std::byte> buffer = e.before;
    StagedCommunicator& comm = *ranks.comms[r];
    try {
      if (form == Form::blocking) {
        comm.call(call, buffer.data());
      } else if (form == Form::started) {
        std::unique_ptr<Request> request = comm.start(call, buffer.data());
        while (!request->test()) std::this_thread::yield();
      } else {
        std::promise<std::exception_ptr> ended;
        comm.start_then(call, buffer.data(),
                        [&ended](std::exception_ptr error) { ended.set_value(error); });
        if (const std::exception_ptr error = ended.get_future().get()) {
          std::rethrow_exception(error);
        }
      }
      reports[r] = test::check(buffer, e, call, r);
    } catch (const std::exception& error) {
      reports[r] = "rank " + std::to_string(r) + " threw: " + error.what();
    }
  });
  for (const std::string& report : reports) EXPECT_EQ(report, "") << test::label(call, 0);
  EXPECT_FALSE(ranks.world.violation());
}

class StagedSim : public ::testing::TestWithParam<std::uint32_t> {};

TEST_P(StagedSim, AllreduceSumsBitwiseAtEveryBufferAndChunkSize) {
  const std::uint32_t size = GetParam();
  for (const DType dtype : {DType::f32, DType::f16, DType::i64}) {
    for (const test::StagedSize s : test::staged_sizes(dtype, 20000, 300)) {
      SCOPED_TRACE(std::to_string(s.count) + " elements in chunks of " +
                   std::to_string(s.chunk_bytes) + " bytes");
      StagedRanks ranks(size, s.chunk_bytes);
      expect_staged(ranks, make_call(CollectiveKind::allreduce, s.count, dtype, Reduction::sum),
                    Form::blocking);
    }
  }
}

TEST_P(StagedSim, EveryReductionAndEveryForm) {
  const std::uint32_t size = GetParam();
  StagedRanks ranks(size, 12);
  for (const Reduction reduction :
       {Reduction::sum, Reduction::prod, Reduction::min, Reduction::max}) {
    for (const Form form : {Form::blocking, Form::started, Form::callback}) {
      expect_staged(ranks, make_call(CollectiveKind::allreduce, 101, DType::i32, reduction), form);
      expect_staged(ranks, make_call(CollectiveKind::allreduce, 33, DType::bf16, reduction), form);
    }
  }
}

TEST_P(StagedSim, BcastAndReduceFromEveryRoot) {
  const std::uint32_t size = GetParam();
  for (const std::size_t chunk : {std::size_t{8}, std::size_t{100}, std::size_t{1} << 20}) {
    StagedRanks ranks(size, chunk);
    for (dag::Rank root = 0; root < size; ++root) {
      for (const std::uint64_t count : {0u, 1u, 77u, 1001u}) {
        expect_staged(ranks,
                      make_call(CollectiveKind::bcast, count, DType::f64, Reduction::none, root),
                      Form::blocking);
        expect_staged(ranks,
                      make_call(CollectiveKind::reduce, count, DType::f32, Reduction::max, root),
                      Form::started);
      }
    }
  }
}

TEST_P(StagedSim, ReduceScatterAllgatherAndBarrierStageTheWholeBuffer) {
  const std::uint32_t size = GetParam();
  StagedRanks ranks(size, 16);
  for (const std::uint64_t per_rank : {0u, 1u, 5u, 300u}) {
    const std::uint64_t count = per_rank * size;
    expect_staged(ranks,
                  make_call(CollectiveKind::reduce_scatter, count, DType::f32, Reduction::sum),
                  Form::blocking);
    expect_staged(ranks, make_call(CollectiveKind::allgather, count, DType::u8, Reduction::none),
                  Form::callback);
  }
  expect_staged(ranks, make_call(CollectiveKind::barrier, 0, DType::f32, Reduction::none),
                Form::started);
}

INSTANTIATE_TEST_SUITE_P(Ranks, StagedSim, ::testing::Values(1u, 2u, 3u, 4u));

// Several collectives in flight on every rank, started back to back: they run in issue order,
// which is the order the host matches them in, so every one lands.
TEST(StagedSim, CollectivesStartedBackToBackCompleteInIssueOrder) {
  StagedRanks ranks(3, 40);
  const std::vector<Call> calls = {
      make_call(CollectiveKind::allreduce, 500, DType::f32, Reduction::sum),
      make_call(CollectiveKind::bcast, 123, DType::i32, Reduction::none, 2),
      make_call(CollectiveKind::allreduce, 17, DType::f64, Reduction::min),
      make_call(CollectiveKind::reduce, 64, DType::i8, Reduction::sum, 0)};
  std::vector<std::string> reports(3);
  on_every_rank(3, [&](dag::Rank r) {
    try {
      std::vector<test::Expected> want;
      std::vector<std::vector<std::byte>> buffers;
      for (const Call& call : calls) {
        want.push_back(test::expected(call, 3, r));
        buffers.push_back(want.back().before);
      }
      std::vector<std::unique_ptr<Request>> requests;
      for (std::size_t i = 0; i + 1 < calls.size(); ++i) {
        requests.push_back(ranks.comms[r]->start(calls[i], buffers[i].data()));
      }
      ranks.comms[r]->call(calls.back(), buffers.back().data());  // queued behind the others
      for (auto& request : requests) request->wait();
      for (std::size_t i = 0; i < calls.size(); ++i) {
        reports[r] += test::check(buffers[i], want[i], calls[i], r);
      }
    } catch (const std::exception& error) {
      reports[r] = "rank " + std::to_string(r) + " threw: " + error.what();
    }
  });
  for (const std::string& report : reports) EXPECT_EQ(report, "");
  EXPECT_FALSE(ranks.world.violation());
}

// The host sees the form the caller used: a blocking staged call against a non-blocking one is
// the mismatch MPI would make of it, reported by the simulated world, not silently matched.
TEST(StagedSim, ABlockingCallDoesNotMatchANonBlockingOne) {
  StagedRanks ranks(2, 1 << 20);
  const Call call = make_call(CollectiveKind::allreduce, 4, DType::f32, Reduction::sum);
  std::vector<float> a(4, 1.0f);
  std::vector<float> b(4, 2.0f);
  std::exception_ptr blocking_error;
  std::exception_ptr started_error;
  on_every_rank(2, [&](dag::Rank r) {
    try {
      if (r == 0) {
        ranks.comms[0]->call(call, a.data());
      } else {
        ranks.comms[1]->start(call, b.data())->wait();
      }
    } catch (...) {
      (r == 0 ? blocking_error : started_error) = std::current_exception();
    }
  });
  EXPECT_TRUE(blocking_error != nullptr);
  EXPECT_TRUE(started_error != nullptr);
  const std::optional<Violation> v = ranks.world.violation();
  ASSERT_TRUE(v);
  EXPECT_TRUE(std::holds_alternative<Mismatch>(*v)) << describe(*v);
}

// --- The pipeline's order, on one rank, with a host and a stager that write down what happens.

// A communicator of one rank that records each collective it is given (by its count) and can be
// told to fail at the n-th.
class RecordingHost final : public Communicator {
 public:
  explicit RecordingHost(std::vector<std::string>& log) : log_(log) {}
  const std::string& name() const override { return name_; }
  dag::Rank rank() const override { return 0; }
  std::uint32_t size() const override { return 1; }
  void call(const Call& call, void*) override {
    const std::lock_guard lock(mutex_);
    if (calls_++ == fail_at_)
      throw std::runtime_error("host failed at its collective " + std::to_string(fail_at_));
    log_.push_back("collective " + std::to_string(calls_ - 1) + " of " +
                   std::to_string(call.count));
  }
  std::unique_ptr<Request> start(const Call& c, void* buffer) override {
    call(c, buffer);
    struct Ended final : Request {
      bool test() override { return true; }
      void wait() override {}
    };
    return std::make_unique<Ended>();
  }
  std::size_t fail_at_ = static_cast<std::size_t>(-1);

 private:
  std::string name_ = "host";
  std::vector<std::string>& log_;
  std::mutex mutex_;
  std::size_t calls_ = 0;
};

// A HostStager that writes down each copy's issue and wait, naming copies by the element of the
// "device" buffer they start at.
class RecordingStager final : public Stager {
 public:
  RecordingStager(std::vector<std::string>& log, const float* device)
      : log_(log), device_(device) {}
  void* host(std::size_t bytes) override { return inner_.host(bytes); }
  Copy to_host(const void* device, void* host, std::size_t bytes) override {
    return note("in", device, inner_.to_host(device, host, bytes));
  }
  Copy to_device(const void* host, void* device, std::size_t bytes) override {
    return note("out", device, inner_.to_device(host, device, bytes));
  }
  void wait(Copy copy) override {
    inner_.wait(copy);
    log_.push_back("waited " + names_.at(copy));
    names_.erase(copy);
  }
  std::size_t in_flight() const { return names_.size(); }

 private:
  Copy note(const char* way, const void* device, Copy copy) {
    const auto element = static_cast<const float*>(device) - device_;
    names_[copy] = std::string(way) + " " + std::to_string(element);
    log_.push_back("issued " + names_[copy]);
    return copy;
  }
  std::vector<std::string>& log_;
  const float* device_;
  HostStager inner_;
  std::map<Copy, std::string> names_;
};

std::size_t position(const std::vector<std::string>& log, const std::string& entry) {
  const auto found = std::find(log.begin(), log.end(), entry);
  EXPECT_NE(found, log.end()) << "no '" << entry << "' in the log";
  return static_cast<std::size_t>(found - log.begin());
}

TEST(StagedPipeline, TheNeighboursCopiesAreInFlightWhileAChunkIsReduced) {
  std::vector<std::string> log;
  std::vector<float> device(10, 1.0f);  // chunks of 2 floats: elements 0, 2, 4, 6, 8
  RecordingHost host(log);
  auto stager = std::make_unique<RecordingStager>(log, device.data());
  RecordingStager& recorder = *stager;
  StagedCommunicator staged(host, std::move(stager), StagedOptions{8});
  staged.allreduce(device.data(), 10, DType::f32, Reduction::sum);
  for (int i = 1; i + 1 < 5; ++i) {
    SCOPED_TRACE("chunk " + std::to_string(i));
    const std::size_t reduced = position(log, "collective " + std::to_string(i) + " of 2");
    const std::string next_in = "in " + std::to_string(2 * (i + 1));
    const std::string previous_out = "out " + std::to_string(2 * (i - 1));
    EXPECT_LT(position(log, "issued " + next_in), reduced);
    EXPECT_LT(position(log, "issued " + previous_out), reduced);
    EXPECT_GT(position(log, "waited " + next_in), reduced);
    EXPECT_GT(position(log, "waited " + previous_out), reduced);
  }
  EXPECT_EQ(recorder.in_flight(), 0u);
  EXPECT_EQ(device, std::vector<float>(10, 1.0f));  // one rank: the sum is the buffer
}

TEST(StagedPipeline, AHostFailureLeavesNoCopyInFlightAndTheCommunicatorUsable) {
  std::vector<std::string> log;
  std::vector<float> device(12, 3.0f);
  RecordingHost host(log);
  host.fail_at_ = 2;
  auto stager = std::make_unique<RecordingStager>(log, device.data());
  RecordingStager& recorder = *stager;
  StagedCommunicator staged(host, std::move(stager), StagedOptions{8});
  try {
    staged.allreduce(device.data(), 12, DType::f32, Reduction::sum);
    ADD_FAILURE() << "the host's failure was not thrown";
  } catch (const std::runtime_error& error) {
    EXPECT_EQ(std::string(error.what()), "host failed at its collective 2");
  }
  EXPECT_EQ(recorder.in_flight(), 0u);
  staged.allreduce(device.data(), 12, DType::f32, Reduction::sum);
  EXPECT_EQ(recorder.in_flight(), 0u);
}

TEST(StagedPipeline, MalformedCallsAndChunksAreRefusedBeforeAnythingMoves) {
  std::vector<std::string> log;
  RecordingHost host(log);
  EXPECT_THROW(StagedCommunicator(host, std::make_unique<HostStager>(), StagedOptions{0}),
               std::invalid_argument);
  EXPECT_THROW(StagedCommunicator(host, nullptr), std::invalid_argument);
  StagedCommunicator staged(host, std::make_unique<HostStager>());
  std::vector<float> device(4);
  EXPECT_THROW(staged.allreduce(device.data(), 4, DType::f32, Reduction::none),
               std::invalid_argument);
  EXPECT_THROW(staged.allreduce(nullptr, 4, DType::f32, Reduction::sum), std::invalid_argument);
  std::exception_ptr error;
  staged.start_then(make_call(CollectiveKind::bcast, 4, DType::f32, Reduction::none, 1),
                    device.data(), [&error](std::exception_ptr e) { error = e; });
  EXPECT_THROW(std::rethrow_exception(error), std::invalid_argument);
  EXPECT_TRUE(log.empty());
}

}  // namespace
}  // namespace ordo::comm
