// StreamHold (kl/stream_hold.hpp): the waiting kernel and the flag the host sets.
#include "kl/check.hpp"
#include "kl/stream_hold.hpp"
#include "kl/watchdog.cuh"

#include <atomic>

namespace kl {

namespace {
__global__ void wait_for_release(const int* released, WatchdogView watchdog) {
  while (*static_cast<const volatile int*>(released) == 0) {
    if (watchdog_expired(watchdog)) return;
    __nanosleep(100);
  }
}
}  // namespace

StreamHold::StreamHold(double budget_ms) : watchdog_(budget_ms) {
  KL_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&released_), sizeof(int), cudaHostAllocMapped));
  *released_ = 1;
  KL_CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&released_on_device_), released_, 0));
}

StreamHold::~StreamHold() {
  // Work that threw between hold() and release() left the kernel waiting on the flag.
  release();
  cudaStreamSynchronize(held_);
  cudaFreeHost(released_);
}

void StreamHold::hold(cudaStream_t stream) {
  held_ = stream;
  watchdog_.rearm(stream);  // synchronises the stream: the previous hold has ended
  std::atomic_ref<int>(*released_).store(0, std::memory_order_release);
  wait_for_release<<<1, 1, 0, stream>>>(released_on_device_, watchdog_.view());
  KL_CUDA_CHECK(cudaGetLastError());
}

void StreamHold::release() { std::atomic_ref<int>(*released_).store(1, std::memory_order_release); }

bool StreamHold::gave_way() const { return watchdog_.tripped(); }

}  // namespace kl
