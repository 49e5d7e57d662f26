// Polls a condition from a test thread without calling into the code under test, for tests that
// must see something happen on another thread (a worker woken, a completion delivered).
#pragma once

#include <chrono>
#include <thread>

namespace ordo::testing {

// True once `holds()` is true; false if it is still false after `patience`. The patience is only a
// hang guard, and longer than any test's ctest TIMEOUT: however loaded the machine, a condition
// that does come true is seen true, and one that never does ends the test at ctest's bound.
template <class Pred>
bool eventually(Pred holds, std::chrono::milliseconds patience = std::chrono::hours(1)) {
  const auto end = std::chrono::steady_clock::now() + patience;
  while (!holds()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  return true;
}

}  // namespace ordo::testing
