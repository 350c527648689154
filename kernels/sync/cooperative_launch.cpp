// The sync family's cooperative launches (04's grid.sync, 07's reusable barriers): one place that
// launches a kernel of the family's signature with every block resident, and explains a refusal.
#include "launchers.hpp"

#include "kl/device_facts.hpp"
#include "kl/sync.hpp"

#include <stdexcept>
#include <string>

namespace kl::sync {

void launch_cooperatively(const void* kernel, const char* variant_id, const Args& args, cudaStream_t stream) {
  int* seen = args.out;
  unsigned* arrived = args.arrived;
  WatchdogView watchdog = args.watchdog;
  void* params[] = {&seen, &arrived, &watchdog};
  // The driver, not kernel-lab, decides: the capacity is only computed to explain a refusal.
  const cudaError_t status = cudaLaunchCooperativeKernel(kernel, dim3(static_cast<unsigned>(args.shape.blocks)),
                                                         dim3(static_cast<unsigned>(args.shape.block)), params, 0, stream);
  if (status == cudaErrorCooperativeLaunchTooLarge) {
    (void)cudaGetLastError();  // not sticky: clear it so the context stays usable
    throw std::invalid_argument(std::string(variant_id) + ": cooperative launch of " +
                                std::to_string(args.shape.blocks) + " blocks exceeds the co-resident capacity " +
                                std::to_string(kl::co_resident_capacity(kernel, args.shape.block)) + " (" +
                                std::to_string(args.shape.block) +
                                " threads per block; cudaErrorCooperativeLaunchTooLarge)");
  }
  KL_CUDA_CHECK(status);
}

}  // namespace kl::sync
