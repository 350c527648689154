// The FP64 oracle of every element of a product, computed on the GPU, with the per-element bound
// computed there too, and the comparison of a device output against it that downloads only what
// it reports. Host-only header; kernels/matmul/device_oracle.cu.
//
// The host oracle (matmul::expected_elements below host_oracle_limit) costs O(m n k) on the CPU:
// about a second at 1024^3, minutes at 8192^3. On the GPU it takes milliseconds, so no check needs
// to sample: every element of every shape is compared, the bench's included. Up to
// in_k_order_limit multiply-adds the lab's own kernel sums each element in the host oracle's order
// (the same doubles); above it, the value and |A||B| are two cuBLAS DGEMMs on the FP64 tensor
// cores (1.1 TFLOP each at 8192^3: tens of milliseconds by the peak, where one thread an element
// without them would take several times as long; estimated, not measured).
#pragma once

#include "kl/case_result.hpp"
#include "kl/device_buffer.hpp"
#include "kl/matmul.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace kl::matmul {

// value[i*n + j] = sum_k a_ik b_kj (+ bias_j), in FP64; bound[i*n + j] the error an FP32 variant
// may make there (element_bound of the inputs' |products|), widened by the FP64 oracle's own
// rounding so that a correct variant can never fail because of the oracle. Exact products of
// integers (imatmul, the small-integer mode) have bound 0: every partial sum is an integer below
// 2^53, which FP64 adds exactly in any order.
struct DeviceReference {
  std::int64_t rows = 0, cols = 0;
  DeviceBuffer<double> value, bound;
};

// Which computes the reference of an FP32 product: by_size takes the kernel in k order up to
// in_k_order_limit multiply-adds (m * n * k) with k up to in_k_order_max_depth, cuBLAS DGEMM
// otherwise; the other two force one (the oracle's tests run each against the host oracle).
// imatmul's int32 reference is DGEMM's.
enum class OracleEngine { by_size, in_k_order, cublas_dgemm };
// 2^34: the test shapes the device oracle takes, sanitizer runs included, where the kernel keeps
// racecheck off DGEMM's shared memory, but for the 4096^3 and 8192^3 of the wrong-tile test; and
// the bench's 1024^3, 2048^3, 4096 x 4096 x 1024 and K-heavy 1024 x 1024 x 16384.
inline constexpr double in_k_order_limit = 0x1p34;
// A thread sums its element's k products alone: a skinny shape with a long k (1 x 1 x 2^28) would
// leave one thread a quarter of a billion dependent adds, so k past 2^16 takes DGEMM too.
inline constexpr std::int64_t in_k_order_max_depth = std::int64_t{1} << 16;
// Whether by_size takes the kernel for C = A B of `shape` (both limits above; host code).
bool in_k_order_takes(const Shape& shape);

// The reference of C = A B (+ bias) for device inputs in the lab's layout (row-major; bias may be
// nullptr when !shape.bias), of the inputs the variant multiplies: FP16-rounded for
// InputPrecision::fp16. Synchronises with `stream` before it returns.
DeviceReference device_reference(const float* a, const float* b, const float* bias, const Shape& shape,
                                 InputPrecision precision, cudaStream_t stream = nullptr,
                                 OracleEngine engine = OracleEngine::by_size);
// The exact reference of an int32 product (imatmul's n x n); throws std::invalid_argument when
// n * max|a| * max|b| could reach 2^53 (not the case for any shape imatmul takes).
DeviceReference device_reference(const std::int32_t* a, const std::int32_t* b, std::int64_t n,
                                 std::int32_t max_abs_input, cudaStream_t stream = nullptr);

// Compares every element of a device output with the reference on the GPU: |got - value| <= bound
// (NaN, the float poison, fails). Only the mismatch count and the lowest mismatching indices
// (up to max_reported_mismatches of them) come back to the host. `checked` is rows * cols.
CaseResult compare_on_device(const float* got, const DeviceReference& want, cudaStream_t stream = nullptr);
CaseResult compare_on_device(const std::int32_t* got, const DeviceReference& want, cudaStream_t stream = nullptr);

// Uniform values in [-1, 1) (Data::random) or integers in [-8, 8] (Data::small_integers), from a
// counter-based hash of (seed, index): the same numbers for the same seed on every GPU, written on
// the device, never all zero. For inputs no host oracle reads (the bench's).
void fill_device_inputs(float* x, std::size_t count, Data data, std::uint64_t seed, cudaStream_t stream = nullptr);

}  // namespace kl::matmul
