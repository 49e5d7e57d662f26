#include "runtime/comm/staged/ordered_worker.hpp"

#include <cstdio>
#include <exception>
#include <stdexcept>
#include <utility>

#include "runtime/comm/rules/call.hpp"

namespace ordo::comm {
namespace {

// What a request and its collective share: whether it has ended, and how.
struct Completion {
  std::mutex mutex;
  std::condition_variable ended_changed;
  bool ended = false;
  std::exception_ptr error;

  void end(std::exception_ptr e) {
    {
      const std::lock_guard lock(mutex);
      ended = true;
      error = std::move(e);
    }
    ended_changed.notify_all();
  }

  std::exception_ptr wait() {
    std::unique_lock lock(mutex);
    ended_changed.wait(lock, [&] { return ended; });
    return error;
  }
};

class OrderedRequest final : public Request {
 public:
  explicit OrderedRequest(std::shared_ptr<Completion> completion)
      : completion_(std::move(completion)) {}

  // The buffer stays in use until the collective ends, so a request dropped early waits for it.
  ~OrderedRequest() override {
    if (over_) return;
    if (const std::exception_ptr error = completion_->wait()) {
      try {
        std::rethrow_exception(error);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "ordo::comm: a collective whose request was dropped failed: %s\n",
                     e.what());
      }
    }
  }
  OrderedRequest(const OrderedRequest&) = delete;
  OrderedRequest& operator=(const OrderedRequest&) = delete;

  bool test() override {
    if (over_) return true;
    std::exception_ptr error;
    {
      const std::lock_guard lock(completion_->mutex);
      if (!completion_->ended) return false;
      error = completion_->error;
    }
    over_ = true;
    if (error) std::rethrow_exception(error);
    return true;
  }

  void wait() override {
    if (over_) return;
    const std::exception_ptr error = completion_->wait();
    over_ = true;
    if (error) std::rethrow_exception(error);
  }

 private:
  std::shared_ptr<Completion> completion_;
  bool over_ = false;
};

}  // namespace

OrderedWorker::OrderedWorker(std::string name, Run run)
    : name_(std::move(name)), run_(std::move(run)) {}

OrderedWorker::~OrderedWorker() {
  std::unique_lock lock(mutex_);
  stop_ = true;
  std::thread thread = std::move(thread_);
  lock.unlock();
  changed_.notify_all();
  if (thread.joinable()) thread.join();
}

void OrderedWorker::call(const Call& call, void* buffer) {
  std::unique_lock lock(mutex_);
  if (!queue_.empty() || busy_) {
    if (std::this_thread::get_id() == thread_.get_id()) {
      throw std::logic_error(describe(call, name_) +
                             ": a blocking call from a completion callback of the same "
                             "communicator would wait for the thread it runs on");
    }
    lock.unlock();
    auto completion = std::make_shared<Completion>();
    then(call, buffer, true, [completion](std::exception_ptr e) { completion->end(std::move(e)); });
    if (const std::exception_ptr error = completion->wait()) std::rethrow_exception(error);
    return;
  }
  busy_ = true;
  lock.unlock();
  std::exception_ptr error;
  try {
    run_(call, buffer, true);
  } catch (...) {
    error = std::current_exception();
  }
  lock.lock();
  busy_ = false;
  lock.unlock();
  changed_.notify_all();  // a collective queued meanwhile may run now
  if (error) std::rethrow_exception(error);
}

std::unique_ptr<Request> OrderedWorker::start(const Call& call, void* buffer) {
  auto completion = std::make_shared<Completion>();
  then(call, buffer, false, [completion](std::exception_ptr e) { completion->end(std::move(e)); });
  return std::make_unique<OrderedRequest>(std::move(completion));
}

void OrderedWorker::then(const Call& call, void* buffer, bool blocking, Communicator::Done done) {
  enqueue(Job{call, buffer, blocking, std::move(done)});
}

void OrderedWorker::enqueue(Job job) {
  {
    const std::lock_guard lock(mutex_);
    queue_.push_back(std::move(job));
    if (!thread_.joinable()) thread_ = std::thread([this] { loop(); });
  }
  changed_.notify_all();
}

void OrderedWorker::loop() {
  std::unique_lock lock(mutex_);
  while (true) {
    changed_.wait(lock, [&] { return (stop_ && queue_.empty()) || (!queue_.empty() && !busy_); });
    if (queue_.empty()) return;  // stopped, and nothing left to run
    Job job = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    lock.unlock();
    std::exception_ptr error;
    try {
      run_(job.call, job.buffer, job.blocking);
    } catch (...) {
      error = std::current_exception();
    }
    // Marked idle before `done` runs: it may issue the next collective, which must not wait
    // behind its own predecessor's callback.
    lock.lock();
    busy_ = false;
    lock.unlock();
    complete_or_terminate(job.done, error, "a staged collective");
    lock.lock();
  }
}

}  // namespace ordo::comm
