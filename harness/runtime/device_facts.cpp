#include "kl/device_facts.hpp"

#include "kl/check.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

namespace kl {

namespace {

struct Capability {
  int major = 0, minor = 0;
  int number() const { return major * 10 + minor; }
};

// KL_DEVICE_CC ("8.0"): the capability reported instead of a higher real one. Unset or empty:
// none. Malformed, or above the real GPU's: std::invalid_argument naming the variable and the rule.
std::optional<Capability> reported_capability(const Capability& real) {
  const char* text = std::getenv("KL_DEVICE_CC");
  if (text == nullptr || *text == '\0') return std::nullopt;
  // MAJOR.MINOR: a major of one or two digits not starting with 0, a one-digit minor.
  const std::string_view s = text;
  const auto digits = [](std::string_view d) { return !d.empty() && d.find_first_not_of("0123456789") == d.npos; };
  const std::size_t dot = s.find('.');
  const bool well_formed = dot != s.npos && dot <= 2 && s[0] != '0' && digits(s.substr(0, dot)) &&
                           s.size() == dot + 2 && digits(s.substr(dot + 1));
  if (!well_formed)
    throw std::invalid_argument(std::string("KL_DEVICE_CC must be a compute capability such as 8.0, got '") + text + "'");
  const Capability asked{std::stoi(std::string(s.substr(0, dot))), s[dot + 1] - '0'};
  if (asked.number() > real.number())
    throw std::invalid_argument(std::string("KL_DEVICE_CC=") + text + " is above this GPU's compute capability " +
                                std::to_string(real.major) + "." + std::to_string(real.minor) +
                                ": the override can only lower it");
  return asked;
}

}  // namespace

std::optional<std::pair<int, int>> capability_override() {
  int device = 0, major = 0, minor = 0;
  KL_CUDA_CHECK(cudaGetDevice(&device));
  KL_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  KL_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  const std::optional<Capability> c = reported_capability({major, minor});
  if (!c) return std::nullopt;
  return std::pair{c->major, c->minor};
}

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
  if (const std::optional<Capability> c = reported_capability({p.major, p.minor})) {
    f.cc_major = c->major;
    f.cc_minor = c->minor;
  }
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

std::string capability_shortfall(int major, int minor, const std::string& what) {
  static const std::optional<Capability> reported = []() -> std::optional<Capability> {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
      (void)cudaGetLastError();
      return std::nullopt;
    }
    const DeviceFacts f = device_facts();
    return Capability{f.cc_major, f.cc_minor};
  }();
  if (!reported || reported->number() >= Capability{major, minor}.number()) return "";
  return "does not apply: " + what + " needs compute capability " + std::to_string(major) + "." +
         std::to_string(minor) + " or newer; this GPU is " + std::to_string(reported->major) + "." +
         std::to_string(reported->minor);
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
  // Under KL_DEVICE_CC the GPU answers as one of that capability would: code built for a later
  // architecture does not load there.
  if (const std::optional<Capability> c = reported_capability({image.cc_major, image.cc_minor})) {
    image.cc_major = c->major;
    image.cc_minor = c->minor;
    if (image.loaded && image.binary_version > c->number()) image.loaded = false;
  }
  return image;
}

}  // namespace kl
