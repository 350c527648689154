#include "kl/device_facts.hpp"

#include "kl/check.hpp"

#include <string>

namespace kl {

void require_gpu() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess)
    throw NoGpuError(std::string("no usable CUDA GPU: cudaGetDeviceCount failed with ") +
                     cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")");
  if (count == 0) throw NoGpuError("no usable CUDA GPU: cudaGetDeviceCount found 0 devices");
}

DeviceFacts device_facts() {
  require_gpu();
  DeviceFacts f;
  KL_CUDA_CHECK(cudaGetDevice(&f.device));
  cudaDeviceProp p{};
  KL_CUDA_CHECK(cudaGetDeviceProperties(&p, f.device));
  f.name = p.name;
  f.cc_major = p.major;
  f.cc_minor = p.minor;
  f.sm_count = p.multiProcessorCount;
  f.max_threads_per_block = p.maxThreadsPerBlock;
  f.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
  f.max_blocks_per_sm = p.maxBlocksPerMultiProcessor;
  f.shared_bytes_per_block = p.sharedMemPerBlock;
  f.l2_bytes = static_cast<std::size_t>(p.l2CacheSize);
  f.global_bytes = p.totalGlobalMem;
  f.cooperative_launch = p.cooperativeLaunch != 0;
  return f;
}

int co_resident_capacity(const void* kernel, int threads, std::size_t dynamic_shared) {
  int per_sm = 0;
  KL_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, dynamic_shared));
  return per_sm * device_facts().sm_count;
}

KernelImage kernel_image(const void* kernel) {
  KernelImage image;
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    (void)cudaGetLastError();
    return image;
  }
  image.has_gpu = true;
  (void)cudaDeviceGetAttribute(&image.cc_major, cudaDevAttrComputeCapabilityMajor, device);
  (void)cudaDeviceGetAttribute(&image.cc_minor, cudaDevAttrComputeCapabilityMinor, device);
  cudaFuncAttributes attributes{};
  image.loaded = cudaFuncGetAttributes(&attributes, kernel) == cudaSuccess;
  (void)cudaGetLastError();  // a missing image is an answer here, not an error for later checks
  if (image.loaded) image.binary_version = attributes.binaryVersion;
  return image;
}

}  // namespace kl
