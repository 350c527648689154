// The FP64 device oracle of a product and the device comparison against it (kl/matmul_oracle.hpp).
#include "cublas_handle.hpp"

#include "kl/error_bounds.hpp"
#include "kl/matmul_oracle.hpp"

#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace kl::matmul {
namespace {

constexpr int block = 256;

unsigned grid_for(std::size_t count) {
  return static_cast<unsigned>(std::clamp<std::size_t>((count + block - 1) / block, 1, 8192));
}

// An FP32 input as the oracle multiplies it: FP16-rounded (round to nearest even) for the
// variants that multiply FP16, as round_to_fp16 on the host.
__device__ double operand(float x, bool round_to_half) {
  return round_to_half ? static_cast<double>(__half2float(__float2half_rn(x))) : static_cast<double>(x);
}

template <class T>
__global__ void widen(const T* in, double* out, std::size_t count, bool round_to_half) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    if constexpr (std::is_same_v<T, float>)
      out[i] = operand(in[i], round_to_half);
    else
      out[i] = static_cast<double>(in[i]);
  }
}

__global__ void absolute(double* x, std::size_t count) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    x[i] = fabs(x[i]);
}

__global__ void scale(double* x, std::size_t count, double factor) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    x[i] *= factor;
}

// Row i of `out` (rows x cols) = the bias row (or its magnitudes), the start of the accumulation.
__global__ void broadcast_bias(const float* bias, double* out, std::int64_t rows, std::int64_t cols, bool magnitude) {
  const std::size_t count = static_cast<std::size_t>(rows * cols);
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const double b = bias[i % static_cast<std::size_t>(cols)];
    out[i] = magnitude ? fabs(b) : b;
  }
}

// Counts the elements outside their bound and keeps the lowest such index above `after` (all ones:
// none yet): one pass finds the count and the first mismatch, each further pass the next one.
template <class T>
__global__ void count_outside(const T* got, const double* value, const double* bound, std::size_t count,
                              unsigned long long after, unsigned long long* outside,
                              unsigned long long* lowest_after) {
  unsigned long long mine = 0, low = ~0ull;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const bool within = fabs(static_cast<double>(got[i]) - value[i]) <= bound[i];  // NaN: false
    if (!within) {
      ++mine;
      if ((after == ~0ull || i > after) && i < low) low = i;
    }
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    mine += __shfl_down_sync(0xffffffffu, mine, offset);
    low = min(low, __shfl_down_sync(0xffffffffu, low, offset));
  }
  if (threadIdx.x % 32 == 0) {
    if (mine != 0) atomicAdd(outside, mine);
    if (low != ~0ull) atomicMin(lowest_after, low);
  }
}

// value = A B (+ bias) and bound = bound_factor * (|A||B| (+ |bias|)), each element's sums taken as
// the host oracle takes them (oracle_rows in check.cpp): the products in k order, the bias last,
// every product and every sum rounded once (__dmul_rn, __dadd_rn: no fused multiply-add), so the
// value is the host oracle's double, bit for bit. No shared memory, on purpose: racecheck
// instruments shared-memory accesses, and cuBLAS DGEMM's cost it seconds per test (the tier's
// time, docs/GPU_TIER.md); racecheck does not slow this one.
__global__ void product_in_k_order(const float* a, const float* b, const float* bias, std::int64_t rows,
                                   std::int64_t cols, std::int64_t depth, bool round_to_half, double bound_factor,
                                   double* value, double* bound) {
  const std::size_t count = static_cast<std::size_t>(rows * cols);
  for (std::size_t e = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; e < count;
       e += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const auto i = static_cast<std::int64_t>(e / static_cast<std::size_t>(cols));
    const auto j = static_cast<std::int64_t>(e % static_cast<std::size_t>(cols));
    const float* a_row = a + i * depth;
    double sum = 0.0, magnitude = 0.0;
    for (std::int64_t k = 0; k < depth; ++k) {
      const double product = __dmul_rn(operand(a_row[k], round_to_half), operand(b[k * cols + j], round_to_half));
      sum = __dadd_rn(sum, product);
      magnitude = __dadd_rn(magnitude, fabs(product));
    }
    if (bias != nullptr) {
      const double x = bias[j];
      sum = __dadd_rn(sum, x);
      magnitude = __dadd_rn(magnitude, fabs(x));
    }
    value[e] = sum;
    bound[e] = __dmul_rn(magnitude, bound_factor);
  }
}

// C (rows x cols, row-major) += A (rows x depth) B (depth x cols) in FP64, as cuBLAS's
// column-major C^T = B^T A^T.
void dgemm(const double* a, const double* b, double* c, std::int64_t rows, std::int64_t cols, std::int64_t depth,
           double beta, cudaStream_t stream) {
  cublasHandle_t h = cublas_handle();
  KL_CUBLAS_CHECK(cublasSetStream(h, stream));
  const double one = 1.0;
  const auto m = static_cast<int>(rows), n = static_cast<int>(cols), k = static_cast<int>(depth);
  KL_CUBLAS_CHECK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, std::max(n, 1), a, std::max(k, 1), &beta,
                              c, std::max(n, 1)));
}

template <class T>
DeviceReference reference_of(const T* a, const T* b, const float* bias, std::int64_t rows, std::int64_t cols,
                             std::int64_t depth, bool round_to_half, double bound_factor, OracleEngine engine,
                             cudaStream_t stream) {
  const auto at = [](std::int64_t x) { return static_cast<std::size_t>(std::max<std::int64_t>(x, 0)); };
  DeviceReference ref;
  ref.rows = rows;
  ref.cols = cols;
  const std::size_t outputs = at(rows) * at(cols);
  if (outputs == 0) return ref;
  for (const std::int64_t side : {rows, cols, depth})
    if (side > (std::int64_t{1} << 31) - 1)
      throw std::invalid_argument("matmul device oracle: every side must fit cuBLAS's int");
  ref.value = DeviceBuffer<double>(outputs);
  ref.bound = DeviceBuffer<double>(outputs);
  if constexpr (std::is_same_v<T, float>) {
    const bool by_size = engine == OracleEngine::by_size && in_k_order_takes({rows, cols, depth});
    if (engine == OracleEngine::in_k_order || by_size) {
      product_in_k_order<<<grid_for(outputs), block, 0, stream>>>(a, b, bias, rows, cols, depth, round_to_half,
                                                                  bound_factor, ref.value.data(), ref.bound.data());
      KL_CUDA_CHECK(cudaGetLastError());
      KL_CUDA_CHECK(cudaStreamSynchronize(stream));
      return ref;
    }
  }
  DeviceBuffer<double> wide_a(at(rows) * at(depth)), wide_b(at(depth) * at(cols));
  if (wide_a.size() != 0) widen<<<grid_for(wide_a.size()), block, 0, stream>>>(a, wide_a.data(), wide_a.size(), round_to_half);
  if (wide_b.size() != 0) widen<<<grid_for(wide_b.size()), block, 0, stream>>>(b, wide_b.data(), wide_b.size(), round_to_half);
  KL_CUDA_CHECK(cudaGetLastError());
  double beta = 0.0;
  if (bias != nullptr) {
    broadcast_bias<<<grid_for(outputs), block, 0, stream>>>(bias, ref.value.data(), rows, cols, false);
    broadcast_bias<<<grid_for(outputs), block, 0, stream>>>(bias, ref.bound.data(), rows, cols, true);
    KL_CUDA_CHECK(cudaGetLastError());
    beta = 1.0;
  }
  dgemm(wide_a.data(), wide_b.data(), ref.value.data(), rows, cols, depth, beta, stream);
  if (bound_factor == 0.0) {
    KL_CUDA_CHECK(cudaMemsetAsync(ref.bound.data(), 0, ref.bound.bytes(), stream));
  } else {
    // sum_k |a_ik b_kj| (+ |bias_j|): the same product on the magnitudes.
    if (wide_a.size() != 0) absolute<<<grid_for(wide_a.size()), block, 0, stream>>>(wide_a.data(), wide_a.size());
    if (wide_b.size() != 0) absolute<<<grid_for(wide_b.size()), block, 0, stream>>>(wide_b.data(), wide_b.size());
    KL_CUDA_CHECK(cudaGetLastError());
    dgemm(wide_a.data(), wide_b.data(), ref.bound.data(), rows, cols, depth, beta, stream);
    scale<<<grid_for(outputs), block, 0, stream>>>(ref.bound.data(), outputs, bound_factor);
    KL_CUDA_CHECK(cudaGetLastError());
  }
  KL_CUDA_CHECK(cudaStreamSynchronize(stream));  // the wide inputs are freed on return
  return ref;
}

template <class T>
CaseResult compare(const T* got, const DeviceReference& want, cudaStream_t stream) {
  CaseResult r;
  const std::size_t count = static_cast<std::size_t>(want.rows * want.cols);
  r.checked = count;
  if (count == 0) return r;
  DeviceBuffer<unsigned long long> words(2);  // [0] outside, [1] lowest index after `after`
  auto pass = [&](unsigned long long after) {
    const unsigned long long init[2] = {0ull, ~0ull};
    KL_CUDA_CHECK(cudaMemcpyAsync(words.data(), init, sizeof init, cudaMemcpyHostToDevice, stream));
    count_outside<<<grid_for(count), block, 0, stream>>>(got, want.value.data(), want.bound.data(), count, after,
                                                         words.data(), words.data() + 1);
    KL_CUDA_CHECK(cudaGetLastError());
    unsigned long long back[2] = {0, 0};
    KL_CUDA_CHECK(cudaMemcpyAsync(back, words.data(), sizeof back, cudaMemcpyDeviceToHost, stream));
    KL_CUDA_CHECK(cudaStreamSynchronize(stream));
    return std::pair{back[0], back[1]};
  };
  auto [outside, index] = pass(~0ull);
  // Only a failure downloads: the reported elements, one by one, lowest index first.
  for (std::size_t reported = 0; outside != 0 && index != ~0ull && reported < max_reported_mismatches; ++reported) {
    T g{};
    double v = 0, b = 0;
    KL_CUDA_CHECK(cudaMemcpy(&g, got + index, sizeof g, cudaMemcpyDeviceToHost));
    KL_CUDA_CHECK(cudaMemcpy(&v, want.value.data() + index, sizeof v, cudaMemcpyDeviceToHost));
    KL_CUDA_CHECK(cudaMemcpy(&b, want.bound.data() + index, sizeof b, cudaMemcpyDeviceToHost));
    r.mismatches.push_back({static_cast<std::size_t>(index), static_cast<double>(g), v, b});
    if (reported + 1 < max_reported_mismatches) index = pass(index).second;
  }
  r.mismatch_count = static_cast<std::size_t>(outside);
  return r;
}

}  // namespace

bool in_k_order_takes(const Shape& shape) {
  return static_cast<double>(shape.m) * static_cast<double>(shape.n) * static_cast<double>(shape.k) <=
             in_k_order_limit &&
         shape.k <= in_k_order_max_depth;
}

DeviceReference device_reference(const float* a, const float* b, const float* bias, const Shape& shape,
                                 InputPrecision precision, cudaStream_t stream, OracleEngine engine) {
  if (shape.bias && bias == nullptr) throw std::invalid_argument("matmul device oracle: the shape has a bias, none given");
  const std::int64_t terms = std::max<std::int64_t>(shape.k, 0) + (shape.bias ? 1 : 0);
  // element_bound is linear in sum|a b|: its factor, widened by the FP64 oracle's own rounding in
  // the value (gamma64(terms) sum|ab|) and in the magnitudes the factor multiplies.
  const double g64 = bounds::gamma64(terms + 1);
  const double factor = (element_bound(terms, precision, 1.0) + g64) * (1.0 + 2.0 * g64);
  return reference_of(a, b, shape.bias ? bias : nullptr, shape.m, shape.n, shape.k, precision == InputPrecision::fp16,
                      factor, engine, stream);
}

DeviceReference device_reference(const std::int32_t* a, const std::int32_t* b, std::int64_t n,
                                 std::int32_t max_abs_input, cudaStream_t stream) {
  const double largest = static_cast<double>(std::max<std::int64_t>(n, 0)) * max_abs_input * max_abs_input;
  if (largest >= 0x1p53)
    throw std::invalid_argument("imatmul device oracle: n * max|x|^2 must stay below 2^53 for an exact FP64 sum");
  return reference_of(a, b, nullptr, n, n, n, false, 0.0, OracleEngine::cublas_dgemm, stream);
}

CaseResult compare_on_device(const float* got, const DeviceReference& want, cudaStream_t stream) {
  return compare(got, want, stream);
}

CaseResult compare_on_device(const std::int32_t* got, const DeviceReference& want, cudaStream_t stream) {
  return compare(got, want, stream);
}

namespace {

// splitmix64's finaliser: a counter-based generator, so element i's value depends on (seed, i) only.
__device__ std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

__global__ void fill_inputs(float* x, std::size_t count, bool integers, std::uint64_t seed) {
  const std::uint64_t key = mix(seed);
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::uint64_t h = mix(key ^ i);
    // 24 random bits: multiples of 2^-23 in [-1, 1), or 17 integers -8..8 (bias below 2^-20).
    float v = integers ? static_cast<float>(static_cast<int>((h >> 40) % 17) - 8)
                       : static_cast<float>(static_cast<double>(h >> 40) * 0x1p-23 - 1.0);
    if (i == 0 && v == 0.0f) v = 1.0f;  // never all zero
    x[i] = v;
  }
}

}  // namespace

void fill_device_inputs(float* x, std::size_t count, Data data, std::uint64_t seed, cudaStream_t stream) {
  if (count == 0) return;
  fill_inputs<<<grid_for(count), block, 0, stream>>>(x, count, data == Data::small_integers, seed);
  KL_CUDA_CHECK(cudaGetLastError());
}

}  // namespace kl::matmul
