// Facts about the current GPU that tests and kernels reason with.
#pragma once

#include "kl/check.hpp"  // kl::NoGpuError

#include <cstddef>
#include <optional>
#include <utility>
#include <string>

namespace kl {

struct DeviceFacts {
  int device = 0;
  std::string name;
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  int max_threads_per_block = 0;
  int max_threads_per_sm = 0;
  int max_blocks_per_sm = 0;
  std::size_t shared_bytes_per_block = 0;
  std::size_t l2_bytes = 0;
  std::size_t global_bytes = 0;
  bool cooperative_launch = false;
};

// Throws kl::NoGpuError (with CUDA's reason) when no GPU can be used.
void require_gpu();
// Facts of the current device; throws kl::NoGpuError without a GPU. Under KL_DEVICE_CC (e.g.
// "8.0", at most the GPU's own) the compute capability reported is that one, and
// kernel_image() answers as such a GPU would, so the lab runs as it would on an older GPU: the
// rungs that need 9.0 (reduction.bulk_copy_ring, matmul.wgmma_tma) say they do not apply and
// every test skips them by asking. A malformed or higher value throws std::invalid_argument.
DeviceFacts device_facts();
// The capability KL_DEVICE_CC asks this GPU to report, if any (same rules as above).
std::optional<std::pair<int, int>> capability_override();

// For a variant's rule: "" when this process's GPU (as reported, KL_DEVICE_CC included) has
// compute capability major.minor or newer, or when there is no GPU to ask (the launch then says
// so); else "does not apply: <what> needs compute capability M.m or newer; this GPU is X.Y".
// Asked once per process.
std::string capability_shortfall(int major, int minor, const std::string& what);

// How many blocks of `kernel` with `threads` threads and `dynamic_shared` bytes can be
// resident on the whole GPU at once: occupancy API x SM count. A grid larger than this
// cannot have all its blocks running together.
int co_resident_capacity(const void* kernel, int threads, std::size_t dynamic_shared = 0);

// Whether the current GPU can run `kernel`, for variants that apply only on some architectures:
// the GPU's compute capability and, when the binary holds code this GPU loads for the kernel,
// the architecture that code was built for (cudaFuncAttributes::binaryVersion, e.g. 90).
// has_gpu is false when no GPU can be used; nothing here throws or leaves a CUDA error behind.
struct KernelImage {
  bool has_gpu = false;
  int cc_major = 0;
  int cc_minor = 0;
  bool loaded = false;
  int binary_version = 0;
};
KernelImage kernel_image(const void* kernel);

}  // namespace kl
