// kl::GuardedBuffer<T>: an output buffer that proves what a kernel wrote.
//
// Before a launch the output is poisoned (a NaN payload for floats, a sentinel for integers)
// and surrounded by canary words. After it, inspect() reports output elements still holding
// the poison (never written) and canary words that changed (written past either end). This
// catches a missing bounds guard without any tool: compute-sanitizer is the second witness.
#pragma once

#include "kl/device_buffer.hpp"

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

namespace kl {

// The bit patterns for each element width. The poison is a signalling-NaN payload that no
// float or double arithmetic produces (hardware returns the canonical quiet NaN).
template <std::size_t Bytes> struct GuardPatterns;
template <> struct GuardPatterns<2> { using Word = std::uint16_t; static constexpr Word poison = 0x7DA5u, canary = 0xC0DEu; };
template <> struct GuardPatterns<4> { using Word = std::uint32_t; static constexpr Word poison = 0x7FA5A5A5u, canary = 0xC0DEC0DEu; };
template <> struct GuardPatterns<8> {
  using Word = std::uint64_t;
  static constexpr Word poison = 0x7FF5A5A5A5A5A5A5ull, canary = 0xC0DEC0DEC0DEC0DEull;
};

struct GuardReport {
  static constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
  std::size_t unwritten = 0;               // output elements still holding the poison
  std::size_t first_unwritten = none;
  std::size_t damaged_before = 0;          // canary words changed before the output
  std::size_t damaged_after = 0;           // canary words changed after the output
  std::size_t first_damaged_after = none;  // offset past the end of the first changed word

  bool ok() const noexcept { return unwritten == 0 && damaged_before == 0 && damaged_after == 0; }
  std::string describe() const;
};

namespace detail {
// Fills `count` words of `bytes_per_word` bytes with `pattern` on the device.
void fill_words(void* dst, std::size_t count, std::size_t bytes_per_word, std::uint64_t pattern,
                cudaStream_t stream);
}  // namespace detail

template <class T>
class GuardedBuffer {
  using Patterns = GuardPatterns<sizeof(T)>;
  using Word = typename Patterns::Word;
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  // Each side. At least one block of 1024 threads: an over-launched 1-D grid writes at most
  // 1023 elements past the end, and those writes must land in canaries, not in other allocations.
  static constexpr std::size_t guard_words = 1024;

  // `shift` extra canary elements in front move data() off the allocation's 16-byte alignment
  // (shift % 4 elements of 4 bytes), for kernels whose vectorised paths must handle any offset.
  explicit GuardedBuffer(std::size_t count, std::size_t shift = 0)
      : count_(count), front_(guard_words + shift), storage_(count + front_ + guard_words) {}

  T* data() noexcept { return storage_.data() + front_; }
  const T* data() const noexcept { return storage_.data() + front_; }
  std::size_t size() const noexcept { return count_; }

  // Poison the output, arm the canaries.
  void poison(cudaStream_t stream = nullptr) {
    detail::fill_words(storage_.data(), front_, sizeof(T), Patterns::canary, stream);
    detail::fill_words(data(), count_, sizeof(T), Patterns::poison, stream);
    detail::fill_words(data() + count_, guard_words, sizeof(T), Patterns::canary, stream);
    KL_CUDA_CHECK(cudaStreamSynchronize(stream));
  }

  std::vector<T> download() const {
    std::vector<T> host(count_);
    if (count_ != 0)
      KL_CUDA_CHECK(cudaMemcpy(host.data(), data(), count_ * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }

  GuardReport inspect() const {
    const std::vector<T> all = storage_.download();
    GuardReport report;
    for (std::size_t i = 0; i < all.size(); ++i) {
      const Word bits = bits_of(all[i]);
      if (i < front_) {
        report.damaged_before += bits != Patterns::canary;
      } else if (i < front_ + count_) {
        if (bits == Patterns::poison && report.unwritten++ == 0) report.first_unwritten = i - front_;
      } else if (bits != Patterns::canary && report.damaged_after++ == 0) {
        report.first_damaged_after = i - front_ - count_;
      }
    }
    return report;
  }

  static bool is_poison(const T& value) { return bits_of(value) == Patterns::poison; }

 private:
  static Word bits_of(const T& value) {
    Word w;
    std::memcpy(&w, &value, sizeof w);
    return w;
  }

  std::size_t count_;
  std::size_t front_;  // canary elements before data()
  DeviceBuffer<T> storage_;
};

}  // namespace kl
