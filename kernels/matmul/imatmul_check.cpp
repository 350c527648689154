// Inputs, the exact int64 oracle and checked runs for the imatmul family; variant 0 is the
// oracle itself run on device buffers.
#include "launchers.hpp"

#include "kl/guarded_buffer.hpp"
#include "kl/matmul.hpp"

#include <random>

namespace kl::imatmul {

Inputs make_inputs(const Shape& shape, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int32_t> dist(-max_abs_input, max_abs_input);
  const auto count = static_cast<std::size_t>(std::max<std::int64_t>(shape.n * shape.n, 0));
  Inputs in{std::vector<std::int32_t>(count), std::vector<std::int32_t>(count)};
  for (auto& x : in.a) x = dist(rng);
  for (auto& x : in.b) x = dist(rng);
  if (count != 0 && in.a[0] == 0) in.a[0] = 1;  // never all zero
  return in;
}

std::vector<std::int64_t> oracle(const Inputs& in, const Shape& s) {
  const auto n = static_cast<std::size_t>(s.n);
  std::vector<std::int64_t> c(n * n, 0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < n; ++k) {
      const std::int64_t a = in.a[i * n + k];
      for (std::size_t j = 0; j < n; ++j) c[i * n + j] += a * in.b[k * n + j];
    }
  return c;
}

void launch_cpu_oracle(const Args& args, cudaStream_t stream) {
  KL_CUDA_CHECK(cudaStreamSynchronize(stream));
  const auto count = static_cast<std::size_t>(args.shape.n * args.shape.n);
  Inputs in{std::vector<std::int32_t>(count), std::vector<std::int32_t>(count)};
  KL_CUDA_CHECK(cudaMemcpy(in.a.data(), args.a, count * sizeof(std::int32_t), cudaMemcpyDeviceToHost));
  KL_CUDA_CHECK(cudaMemcpy(in.b.data(), args.b, count * sizeof(std::int32_t), cudaMemcpyDeviceToHost));
  const std::vector<std::int64_t> want = oracle(in, args.shape);
  const std::vector<std::int32_t> c(want.begin(), want.end());  // in range by the shape rule
  KL_CUDA_CHECK(cudaMemcpy(args.c, c.data(), count * sizeof(std::int32_t), cudaMemcpyHostToDevice));
}

CaseResult run_case(const Variant& v, const Shape& shape, const Inputs& in) {
  DeviceBuffer<std::int32_t> a{std::span<const std::int32_t>(in.a)};
  DeviceBuffer<std::int32_t> b{std::span<const std::int32_t>(in.b)};
  GuardedBuffer<std::int32_t> c(static_cast<std::size_t>(std::max<std::int64_t>(shape.n * shape.n, 0)));
  c.poison();
  v.launch({a.data(), b.data(), c.data(), shape});
  KL_CUDA_CHECK(cudaDeviceSynchronize());

  CaseResult r;
  r.guards = c.inspect();
  const std::vector<std::int32_t> got = c.download();
  const std::vector<std::int64_t> want = oracle(in, shape);
  r.checked = got.size();
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i]) r.add_mismatch({i, static_cast<double>(got[i]), static_cast<double>(want[i]), 0.0});
  return r;
}

}  // namespace kl::imatmul
