#include "runtime/diag/deadline.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ordo::diag {

Deadline::Deadline(double seconds, std::function<void()> expire) {
  if (!(seconds > 0.0)) {
    throw std::invalid_argument("deadline of " + std::to_string(seconds) +
                                " s; expected a positive number of seconds");
  }
  // Capped at about 30 years, as the watchdog's timeout is, so that the nanoseconds fit.
  const auto limit = std::chrono::nanoseconds(
      static_cast<std::int64_t>(std::min(std::isfinite(seconds) ? seconds : 1e9, 1e9) * 1e9));
  thread_ = std::thread([this, limit, expire = std::move(expire)] {
    std::unique_lock lock(mutex_);
    if (wake_.wait_for(lock, limit, [this] { return done_; })) return;
    lock.unlock();
    expire();
  });
}

Deadline::~Deadline() {
  {
    const std::lock_guard lock(mutex_);
    done_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

}  // namespace ordo::diag
