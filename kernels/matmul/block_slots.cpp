// How many blocks of a kernel the current GPU holds at once, for the rungs that plan their grids
// by it (28: split-K, 29: stream-K). Asked once per device and kernel: the occupancy query is not
// free, and the launch path of a timed run must not pay for it again. And the cap a test may set
// on the persistent tensor-core rungs' grids (34 to 37: cap_persistent_grid).
#include "launchers.hpp"

#include "kl/check.hpp"
#include "kl/device_facts.hpp"
#include "kl/matmul.hpp"

#include <map>
#include <mutex>
#include <utility>

namespace kl::matmul {

BlockSlots block_slots(const void* kernel, int threads, std::size_t shared_bytes) {
  static std::mutex mutex;
  static std::map<std::pair<int, const void*>, BlockSlots> known;
  int device = 0;
  KL_CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(mutex);
  auto [it, inserted] = known.try_emplace({device, kernel});
  if (inserted) {
    const int sms = device_facts().sm_count;
    it->second = {sms, co_resident_capacity(kernel, threads, shared_bytes) / sms};
  }
  return it->second;
}

namespace {
TestCap grid_cap{"cap_persistent_grid"};
}  // namespace

int cap_persistent_grid(int blocks) { return grid_cap.set(blocks); }
int capped_persistent_grid(int blocks) { return grid_cap.applied(blocks); }

}  // namespace kl::matmul
