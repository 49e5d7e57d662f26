// A Stager whose "device" memory is host memory: copies are memcpy calls made by a thread of the
// stager's own, so they are as asynchronous as a copy engine's and the pipeline's overlap (and
// its synchronisation, under ThreadSanitizer) is exercised without a GPU.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/comm/staged/stager.hpp"

namespace ordo::comm {

class HostStager final : public Stager {
 public:
  HostStager();
  // Finishes the copies enqueued, then stops the thread.
  ~HostStager() override;
  HostStager(const HostStager&) = delete;
  HostStager& operator=(const HostStager&) = delete;

  void* host(std::size_t bytes) override;
  Copy to_host(const void* device, void* host, std::size_t bytes) override;
  Copy to_device(const void* host, void* device, std::size_t bytes) override;
  void wait(Copy copy) override;

 private:
  struct Pending {
    Copy copy = 0;
    void* to = nullptr;
    const void* from = nullptr;
    std::size_t bytes = 0;
  };

  Copy enqueue(void* to, const void* from, std::size_t bytes);
  void loop();

  std::vector<std::byte> area_;  // what host() hands out
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Pending> queue_;  // under mutex_
  Copy issued_ = 0;            // under mutex_: the last copy enqueued
  Copy landed_ = 0;            // under mutex_: copies 1..landed_ are done (one thread, in order)
  bool stop_ = false;          // under mutex_
  std::thread thread_;         // last: started once the rest is in place
};

}  // namespace ordo::comm
