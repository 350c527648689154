// kl::DeviceBuffer<T>: move-only owner of a plain cudaMalloc allocation.
// Plain cudaMalloc (no pools, no managed memory) so memcheck sees the exact extent of every
// allocation and reports an access one element past it.
#pragma once

#include "kl/check.hpp"

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

namespace kl {

namespace detail {
struct CudaFree {
  void operator()(void* p) const noexcept { cudaFree(p); }
};
}  // namespace detail

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count == 0) return;
    void* raw = nullptr;
    KL_CUDA_CHECK(cudaMalloc(&raw, count * sizeof(T)));
    ptr_.reset(static_cast<T*>(raw));
  }
  // Allocates exactly host.size() elements and copies them in.
  explicit DeviceBuffer(std::span<const T> host) : DeviceBuffer(host.size()) { upload(host); }

  T* data() noexcept { return ptr_.get(); }
  const T* data() const noexcept { return ptr_.get(); }
  std::size_t size() const noexcept { return count_; }
  std::size_t bytes() const noexcept { return count_ * sizeof(T); }

  void upload(std::span<const T> host) {
    if (host.size() != count_) throw std::invalid_argument("DeviceBuffer::upload: size mismatch");
    if (count_ != 0) KL_CUDA_CHECK(cudaMemcpy(data(), host.data(), bytes(), cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    if (count_ != 0) KL_CUDA_CHECK(cudaMemcpy(host.data(), data(), bytes(), cudaMemcpyDeviceToHost));
    return host;
  }

 private:
  std::unique_ptr<T, detail::CudaFree> ptr_;
  std::size_t count_ = 0;
};

}  // namespace kl
