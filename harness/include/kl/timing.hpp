// CUDA-event timing of device work.
#pragma once

#include "kl/check.hpp"

#include <algorithm>
#include <functional>
#include <vector>

namespace kl {

class EventPair {
 public:
  EventPair();
  ~EventPair();
  EventPair(const EventPair&) = delete;
  EventPair& operator=(const EventPair&) = delete;
  void start(cudaStream_t stream);
  void stop(cudaStream_t stream);
  float elapsed_ms();  // waits for the stop event

 private:
  cudaEvent_t start_{};
  cudaEvent_t stop_{};
};

struct TimingSummary {
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  int repetitions = 0;
  std::vector<double> runs_ms;  // every run, in the order they ran
  int unheld_runs = 0;          // device runs timed without the hold, once it had given way (below)
};

// Whether the host's time to queue the work is timed. `excluded` (device work): the GPU is held
// until the host has queued the start event, the work and the stop event (kl/stream_hold.hpp), so
// the window holds the device's time alone, as a caller whose stream is busy sees it. `included`:
// work that runs on the host or waits for the GPU itself, which a held GPU would keep waiting
// until the hold gave way. Once a hold gives way, that run and the rest are timed without one,
// with the host's time in the window.
enum class HostTime { excluded, included };

// Median, min, max and count of per-run times in ms (zeros for none), and the runs themselves.
TimingSummary summarize_timings(std::vector<double> ms);

// Runs `work` `warmup` times untimed, then `reps` times, each timed by its own event pair.
// `prepare`, if given, runs before every run, outside the timed window (an in-place kernel's
// input restored).
TimingSummary time_device_work(const std::function<void(cudaStream_t)>& work, int warmup, int reps,
                               cudaStream_t stream = nullptr, const std::function<void(cudaStream_t)>& prepare = {},
                               HostTime host_time = HostTime::excluded);

}  // namespace kl
