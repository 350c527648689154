// Holding a stream's device work back until the host has queued what follows it.
//
// An event recorded on an idle GPU starts the clock at once; whatever the host then does before
// the next launch reaches the GPU (a library's host-side set-up, the launch's own latency) falls
// inside the timed window. A StreamHold queues a one-thread kernel that waits on a flag in pinned
// host memory; the host queues the start event, the work and the stop event behind it and only
// then releases the flag, so the GPU runs the three back to back. The wait gives way after a
// budget (the device watchdog) whatever the host does, so a host that cannot finish queuing
// behind a held stream is not deadlocked; the start event then fires part-way through the host's
// queuing, so the caller must not trust that run's time (time_device_work times it again unheld).
#pragma once

#include "kl/watchdog.hpp"

#include <cuda_runtime_api.h>

namespace kl {

class StreamHold {
 public:
  explicit StreamHold(double budget_ms = 200);
  ~StreamHold();  // releases a hold still in place and waits for its kernel before freeing the flag
  StreamHold(const StreamHold&) = delete;
  StreamHold& operator=(const StreamHold&) = delete;

  void hold(cudaStream_t stream);  // queues the waiting kernel
  void release();                  // lets it end
  bool gave_way() const;           // the last hold ended by its budget, not by release (synchronous)

 private:
  int* released_ = nullptr;         // pinned, mapped host memory
  int* released_on_device_ = nullptr;  // the same flag as the GPU addresses it
  cudaStream_t held_ = nullptr;  // the stream of the last hold
  Watchdog watchdog_;
};

}  // namespace kl
