// The watchdog's host side and its self-test kernel.
#include "kl/timing.hpp"
#include "kl/watchdog.cuh"
#include "kl/watchdog.hpp"

namespace kl {

Watchdog::Watchdog(double budget_ms) : budget_ms_(budget_ms), start_ns_(1), tripped_(1) {
  if (!(budget_ms > 0)) throw std::invalid_argument("watchdog budget must be > 0 ms");
  rearm();
}

void Watchdog::rearm(cudaStream_t stream) {
  KL_CUDA_CHECK(cudaMemsetAsync(start_ns_.data(), 0, sizeof(unsigned long long), stream));
  KL_CUDA_CHECK(cudaMemsetAsync(tripped_.data(), 0, sizeof(int), stream));
  KL_CUDA_CHECK(cudaStreamSynchronize(stream));
}

WatchdogView Watchdog::view() noexcept {
  return {start_ns_.data(), tripped_.data(), static_cast<unsigned long long>(budget_ms_ * 1e6)};
}

bool Watchdog::tripped() const { return tripped_.download().at(0) != 0; }

namespace {
// Waits for a flag that, without release, nothing sets: only the watchdog ends it.
__global__ void spin_on_flag(const int* flag, WatchdogView watchdog) {
  while (*static_cast<const volatile int*>(flag) == 0) {
    if (watchdog_expired(watchdog)) return;
  }
}
}  // namespace

const void* watchdog_selftest_kernel() { return reinterpret_cast<const void*>(&spin_on_flag); }

WatchdogSelfTest watchdog_selftest(bool release_flag, double budget_ms) {
  Watchdog watchdog(budget_ms);
  DeviceBuffer<int> flag(1);
  KL_CUDA_CHECK(cudaMemset(flag.data(), release_flag ? 1 : 0, sizeof(int)));
  EventPair events;
  events.start(nullptr);
  spin_on_flag<<<1, 32>>>(flag.data(), watchdog.view());
  KL_CUDA_CHECK(cudaGetLastError());
  events.stop(nullptr);
  WatchdogSelfTest result;
  result.elapsed_ms = events.elapsed_ms();
  KL_CUDA_CHECK(cudaDeviceSynchronize());
  result.tripped = watchdog.tripped();
  return result;
}

}  // namespace kl
