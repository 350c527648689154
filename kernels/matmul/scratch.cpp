// Scratch device memory for launchers that stage an input (B transposed, inputs in FP16, the
// SGEMM ladder's zero-padded copies).
// Reallocated at exactly the requested size whenever it changes, so memcheck still sees the
// staged copy's true extent. A new allocation is filled with the lab's poison (a NaN payload):
// a padded C that a tensor-core rung leaves partly unwritten is copied back as poison, which the
// checks report, and initcheck, which does not count the copy engine's TMA stores (rung 35) as
// writes, does not report the corner copy-back as reading uninitialised memory. Counters a
// kernel keeps at zero between its launches (rung 36's) ask for zeros instead.
#include "launchers.hpp"

#include "kl/device_buffer.hpp"
#include "kl/guarded_buffer.hpp"
#include "kl/matmul.hpp"

#include <array>

namespace kl::matmul {

void* scratch(ScratchSlot slot, std::size_t bytes, ScratchFill fill) {
  static std::array<DeviceBuffer<unsigned char>, 11> buffers;
  DeviceBuffer<unsigned char>& buf = buffers.at(static_cast<std::size_t>(slot));
  if (buf.size() != bytes) {
    buf = DeviceBuffer<unsigned char>();  // cudaFree synchronises with pending work first
    buf = DeviceBuffer<unsigned char>(bytes);
    if (fill == ScratchFill::zeros)
      KL_CUDA_CHECK(cudaMemset(buf.data(), 0, bytes));
    else
      detail::fill_words(buf.data(), bytes / 4, 4, GuardPatterns<4>::poison, nullptr);
    KL_CUDA_CHECK(cudaStreamSynchronize(nullptr));  // before any stream's launch may use it
  }
  return buf.data();
}

}  // namespace kl::matmul
