// Scratch device memory for launchers that stage an input (B transposed, inputs in FP16, the
// SGEMM ladder's zero-padded copies).
// Reallocated at exactly the requested size whenever it changes, so memcheck still sees the
// staged copy's true extent.
#include "launchers.hpp"

#include "kl/device_buffer.hpp"

#include <array>

namespace kl::matmul {

void* scratch(ScratchSlot slot, std::size_t bytes) {
  static std::array<DeviceBuffer<unsigned char>, 6> buffers;
  DeviceBuffer<unsigned char>& buf = buffers.at(static_cast<std::size_t>(slot));
  if (buf.size() != bytes) {
    buf = DeviceBuffer<unsigned char>();  // cudaFree synchronises with pending work first
    buf = DeviceBuffer<unsigned char>(bytes);
  }
  return buf.data();
}

}  // namespace kl::matmul
