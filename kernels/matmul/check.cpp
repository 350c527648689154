// Inputs, the double oracle with its per-element bound, and checked runs for the matmul family.
#include "kl/matmul.hpp"

#include "kl/error_bounds.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>

namespace kl::matmul {
namespace {

std::vector<float> random_values(std::size_t count, Data data, std::mt19937_64& rng) {
  std::vector<float> v(count);
  if (data == Data::random) {
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    for (float& x : v) x = dist(rng);
  } else {
    std::uniform_int_distribution<int> dist(-8, 8);
    for (float& x : v) x = static_cast<float>(dist(rng));
  }
  // Never all zero: an all-zero input hides unwritten or misplaced outputs.
  if (!v.empty() && v[0] == 0.0f) v[0] = 1.0f;
  return v;
}

double input(const std::vector<float>& v, std::int64_t index, InputPrecision p) {
  const float x = v[static_cast<std::size_t>(index)];
  return p == InputPrecision::fp16 ? round_to_fp16(x) : x;
}

// Which elements are compared: all of them, or whole sampled rows and columns when the oracle
// of every element would cost too much.
std::vector<bool> sampled(std::int64_t extent) {
  std::vector<bool> pick(static_cast<std::size_t>(extent), false);
  for (const std::int64_t i : sampled_lines_of(extent)) pick[static_cast<std::size_t>(i)] = true;
  return pick;
}

}  // namespace

std::vector<std::int64_t> sampled_lines_of(std::int64_t extent) {
  std::vector<std::int64_t> at;
  for (int s = 0; s < sampled_lines; ++s) {
    const std::int64_t i = (extent - 1) * s / (sampled_lines - 1);
    if (at.empty() || at.back() != i) at.push_back(i);
  }
  return at;
}

std::vector<std::size_t> checked_elements(const Shape& shape) {
  std::vector<std::size_t> out;
  if (shape.m <= 0 || shape.n <= 0) return out;
  const bool full = shape.m * shape.n * shape.k <= full_check_limit;
  const std::vector<bool> rows = full ? std::vector<bool>() : sampled(shape.m);
  const std::vector<bool> cols = full ? std::vector<bool>() : sampled(shape.n);
  for (std::int64_t i = 0; i < shape.m; ++i)
    for (std::int64_t j = 0; j < shape.n; ++j)
      if (full || rows[static_cast<std::size_t>(i)] || cols[static_cast<std::size_t>(j)])
        out.push_back(static_cast<std::size_t>(i * shape.n + j));
  return out;
}

float round_to_fp16(float x) {
  if (!std::isfinite(x) || x == 0.0f) return x;
  const double ax = std::fabs(static_cast<double>(x));
  if (ax >= 65520.0) return std::copysign(INFINITY, x);  // rounds past the largest half, 65504
  // Spacing of binary16 numbers around x: 2^-24 below 2^-14 (subnormals), else 2^(e-10).
  const int e = std::max(std::ilogb(ax), -14);
  const double quantum = std::ldexp(1.0, e - 10);
  return static_cast<float>(std::nearbyint(static_cast<double>(x) / quantum) * quantum);  // ties to even
}

Inputs make_inputs(const Shape& shape, Data data, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto count = [](std::int64_t a, std::int64_t b) { return static_cast<std::size_t>(std::max<std::int64_t>(a * b, 0)); };
  Inputs in;
  in.a = random_values(count(shape.m, shape.k), data, rng);
  in.b = random_values(count(shape.k, shape.n), data, rng);
  if (shape.bias) in.bias = random_values(count(1, shape.n), data, rng);
  return in;
}

Expected oracle_element(const Inputs& in, const Shape& s, InputPrecision p, std::int64_t i, std::int64_t j) {
  double sum = 0, abs_sum = 0;
  for (std::int64_t k = 0; k < s.k; ++k) {
    const double prod = input(in.a, i * s.k + k, p) * input(in.b, k * s.n + j, p);
    sum += prod;
    abs_sum += std::fabs(prod);
  }
  std::int64_t terms = s.k;
  if (s.bias) {
    const double bias = in.bias[static_cast<std::size_t>(j)];
    sum += bias;
    abs_sum += std::fabs(bias);
    ++terms;
  }
  return {sum, element_bound(terms, p, abs_sum)};
}

double element_bound(std::int64_t terms, InputPrecision p, double abs_sum) {
  // gamma(terms) bounds any order of FP32 multiply-adds, fused or not (Higham 3.1). A product
  // of two FP16 values is exact in FP32, so GemmEx only rounds in its FP32 accumulation; tensor
  // cores normalise those sums toward zero (Fasi et al., "Numerical behavior of NVIDIA tensor
  // cores", 2021), which doubles the unit roundoff: gamma(2 * terms) for them.
  const std::int64_t rounding_steps = p == InputPrecision::fp16 ? 2 * terms : terms;
  return bounds::gamma(rounding_steps) * abs_sum;
}

std::vector<double> oracle(const Inputs& in, const Shape& s) {
  std::vector<double> c(static_cast<std::size_t>(s.m * s.n));
  for (std::int64_t i = 0; i < s.m; ++i)
    for (std::int64_t j = 0; j < s.n; ++j)
      c[static_cast<std::size_t>(i * s.n + j)] = oracle_element(in, s, InputPrecision::fp32, i, j).value;
  return c;
}

std::vector<Expected> expected_elements(const Inputs& in, const Shape& shape, InputPrecision precision) {
  std::vector<Expected> expected;
  for (const std::size_t index : checked_elements(shape))
    expected.push_back(oracle_element(in, shape, precision, static_cast<std::int64_t>(index) / shape.n,
                                      static_cast<std::int64_t>(index) % shape.n));
  return expected;
}

CaseResult run_case(const Variant& v, const Shape& shape, const Inputs& in, std::vector<float>* out) {
  return run_case(v, shape, in, expected_elements(in, shape, v.precision), out);
}

CaseResult run_case(const Variant& v, const Shape& shape, const Inputs& in, const std::vector<Expected>& expected,
                    std::vector<float>* out) {
  const std::vector<std::size_t> compared = checked_elements(shape);
  if (expected.size() != compared.size())
    throw std::invalid_argument("matmul::run_case: " + std::to_string(expected.size()) + " expected elements for " +
                                std::to_string(compared.size()) + " compared ones (use expected_elements)");
  // Exact-size inputs so memcheck sees any read past their ends.
  DeviceBuffer<float> a{std::span<const float>(in.a)};
  DeviceBuffer<float> b{std::span<const float>(in.b)};
  DeviceBuffer<float> bias{std::span<const float>(in.bias)};
  GuardedBuffer<float> c(static_cast<std::size_t>(std::max<std::int64_t>(shape.m * shape.n, 0)));
  c.poison();
  v.launch({a.data(), b.data(), bias.data(), c.data(), shape});
  KL_CUDA_CHECK(cudaDeviceSynchronize());

  CaseResult r;
  r.guards = c.inspect();
  const std::vector<float> got = c.download();
  for (std::size_t e = 0; e < compared.size(); ++e) {
    const std::size_t index = compared[e];
    const Expected& want = expected[e];
    ++r.checked;
    // NaN (the poison, or a real NaN) fails the comparison.
    if (!(std::fabs(got[index] - want.value) <= want.bound)) r.add_mismatch({index, got[index], want.value, want.bound});
  }
  if (out != nullptr) *out = got;
  return r;
}

}  // namespace kl::matmul
