// Inputs and checked runs for the quicksort family.
#include "kl/quicksort.hpp"

#include <algorithm>
#include <random>

namespace kl::quicksort {

std::vector<int> make_input(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const int range = static_cast<int>(std::min<std::int64_t>(std::max<std::int64_t>(n, 1), 1 << 30));
  std::uniform_int_distribution<int> dist(-range, range);
  std::vector<int> x(static_cast<std::size_t>(std::max<std::int64_t>(n, 0)));
  for (int& v : x) v = dist(rng);
  if (!x.empty() && x[0] == 0) x[0] = 1;
  return x;
}

void reserve_pending_launches(std::size_t count) {
  std::size_t current = 0;
  KL_CUDA_CHECK(cudaDeviceGetLimit(&current, cudaLimitDevRuntimePendingLaunchCount));
  if (current < count) KL_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, count));
}

CaseResult run_case(const Variant& v, std::span<const int> input) {
  const Shape shape{static_cast<std::int64_t>(input.size())};
  if (const std::string rule = v.unsupported(shape); !rule.empty())
    throw std::invalid_argument(v.info.id() + ": " + rule);
  GuardedBuffer<int> data(input.size());
  data.poison();
  if (!input.empty())
    KL_CUDA_CHECK(cudaMemcpy(data.data(), input.data(), input.size_bytes(), cudaMemcpyHostToDevice));
  v.launch({data.data(), shape});
  KL_CUDA_CHECK(cudaDeviceSynchronize());

  CaseResult r;
  r.guards = data.inspect();
  std::vector<int> want(input.begin(), input.end());
  std::sort(want.begin(), want.end());
  const std::vector<int> got = data.download();
  r.checked = got.size();
  // Equal to the sorted input, element by element: sorted and a permutation at once.
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i]) r.add_mismatch({i, static_cast<double>(got[i]), static_cast<double>(want[i]), 0});
  return r;
}

}  // namespace kl::quicksort
