#include "kl/timing.hpp"

#include "kl/stream_hold.hpp"

#include <optional>
#include <utility>

namespace kl {

EventPair::EventPair() {
  KL_CUDA_CHECK(cudaEventCreate(&start_));
  KL_CUDA_CHECK(cudaEventCreate(&stop_));
}

EventPair::~EventPair() {
  cudaEventDestroy(start_);
  cudaEventDestroy(stop_);
}

void EventPair::start(cudaStream_t stream) { KL_CUDA_CHECK(cudaEventRecord(start_, stream)); }
void EventPair::stop(cudaStream_t stream) { KL_CUDA_CHECK(cudaEventRecord(stop_, stream)); }

float EventPair::elapsed_ms() {
  KL_CUDA_CHECK(cudaEventSynchronize(stop_));
  float ms = 0;
  KL_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
  return ms;
}

TimingSummary summarize_timings(std::vector<double> ms) {
  TimingSummary s;
  s.repetitions = static_cast<int>(ms.size());
  s.runs_ms = ms;
  if (ms.empty()) return s;
  std::sort(ms.begin(), ms.end());
  s.min_ms = ms.front();
  s.max_ms = ms.back();
  s.median_ms = ms.size() % 2 ? ms[ms.size() / 2] : (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]) / 2;
  return s;
}

TimingSummary time_device_work(const std::function<void(cudaStream_t)>& work, int warmup, int reps,
                               cudaStream_t stream, const std::function<void(cudaStream_t)>& prepare,
                               HostTime host_time) {
  for (int i = 0; i < warmup; ++i) {
    if (prepare) prepare(stream);
    work(stream);
  }
  std::vector<double> ms;
  int unheld = 0;
  EventPair events;
  std::optional<StreamHold> hold;
  if (host_time == HostTime::excluded) hold.emplace();
  for (int i = 0; i < reps; ++i) {
    if (prepare) prepare(stream);
    const bool held = hold.has_value();
    if (held) hold->hold(stream);
    events.start(stream);
    work(stream);
    events.stop(stream);
    if (held) hold->release();
    const double run_ms = events.elapsed_ms();
    if (held && hold->gave_way()) {
      // The start event fired when the hold gave way, part-way through the host's queuing, so the
      // reading is short by the budget. The run is timed again, and so are the rest, without a
      // hold: one that gave way (work that waits for the GPU, launches made blocking by
      // CUDA_LAUNCH_BLOCKING=1) would only cost its budget again.
      hold.reset();
      --i;
      continue;
    }
    ms.push_back(run_ms);
    if (!held && host_time == HostTime::excluded) ++unheld;
  }
  TimingSummary t = summarize_timings(std::move(ms));
  t.unheld_runs = unheld;
  return t;
}

}  // namespace kl
