#include "runtime/engine/async_done.hpp"

#include <atomic>
#include <cassert>
#include <string>

#include "runtime/engine/core.hpp"
#include "runtime/engine/errors.hpp"

namespace ordo::engine {

struct AsyncDone::Record {
  Record(std::shared_ptr<CompletionLink> link_in, OpHandle op_in, std::string name_in)
      : link(std::move(link_in)), op(op_in), name(std::move(name_in)) {}
  Record(const Record&) = delete;
  Record& operator=(const Record&) = delete;
  ~Record() {
    if (fired.exchange(true)) return;
    // Destructors must not throw; delivery only fails on an engine invariant breach.
    try {
      link->deliver(op, std::make_exception_ptr(AsyncHandleDropped(
                            "async op '" + name + "' (" + to_string(op) +
                            ") dropped its completion handle without invoking it")));
    } catch (...) {
      assert(false && "completion delivery failed in a handle destructor");
    }
  }

  std::shared_ptr<CompletionLink> link;
  OpHandle op;
  std::string name;
  std::atomic<bool> fired{false};
};

void CompletionLink::deliver(OpHandle op, std::exception_ptr error) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (core_ != nullptr) core_->async_signal(op, std::move(error));
}

void CompletionLink::sever() {
  const std::lock_guard<std::mutex> lock(mutex_);
  core_ = nullptr;
}

AsyncDone::AsyncDone(std::shared_ptr<CompletionLink> link, OpHandle op, std::string op_name)
    : record_(std::make_shared<Record>(std::move(link), op, std::move(op_name))) {
  assert(record_->link != nullptr);
}

void AsyncDone::operator()(std::exception_ptr error) const {
  if (record_ == nullptr) throw UsageError("invoked an empty async completion handle");
  if (!complete_once(std::move(error))) {
    throw UsageError("async op '" + record_->name + "' (" + to_string(record_->op) +
                     "): completion handle invoked twice; an async op completes exactly once");
  }
}

bool AsyncDone::complete_once(std::exception_ptr error) const {
  assert(record_ != nullptr);
  if (record_->fired.exchange(true)) return false;
  record_->link->deliver(record_->op, std::move(error));
  return true;
}

}  // namespace ordo::engine
