// Polls a condition from a test thread without calling into the code under test, for tests that
// must see something happen on another thread (a worker woken, a completion delivered).
#pragma once

#include <chrono>
#include <thread>

namespace ordo::testing {

// True once `holds()` is true; false if it is still false after `patience`.
template <class Pred>
bool eventually(Pred holds, std::chrono::milliseconds patience = std::chrono::seconds(10)) {
  const auto end = std::chrono::steady_clock::now() + patience;
  while (!holds()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  return true;
}

}  // namespace ordo::testing
