// The completion handle an async op's function receives. It is a cheap copyable reference to one
// shared completion record, so it can travel through std::function and across threads; the record
// completes the op exactly once:
// - invoking any copy completes the op (failed, if given an exception); a second invocation, of
//   any copy, throws UsageError;
// - when the last copy is destroyed uninvoked, the op completes with AsyncHandleDropped, so a
//   lost handle cannot hang the ops that depend on it;
// - after the engine shut down (and stopped waiting for this op), invoking it does nothing.
#pragma once

#include <exception>
#include <memory>
#include <mutex>
#include <string>

#include "runtime/engine/rules/handles.hpp"

namespace ordo::engine {

class EngineCore;

// Where handles deliver completions. The engine severs it at shutdown, after which completions
// arriving late are dropped instead of touching a destroyed engine.
class CompletionLink {
 public:
  explicit CompletionLink(EngineCore& core) : core_(&core) {}
  void deliver(OpHandle op, std::exception_ptr error);
  void sever();

 private:
  std::mutex mutex_;
  EngineCore* core_;
};

class AsyncDone {
 public:
  AsyncDone() = default;  // an empty handle; invoking it is a usage error
  AsyncDone(std::shared_ptr<CompletionLink> link, OpHandle op, std::string op_name);

  // Completes the op; `error` set means the op failed and poisons its writes.
  void operator()(std::exception_ptr error = nullptr) const;
  // Completes the op unless some copy already did; returns whether this call completed it.
  bool complete_once(std::exception_ptr error) const;
  explicit operator bool() const { return record_ != nullptr; }

 private:
  struct Record;
  std::shared_ptr<Record> record_;
};

}  // namespace ordo::engine
