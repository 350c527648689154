// Inputs, the double oracle with its per-element bound, and checked runs for the matmul family.
#include "kl/matmul.hpp"

#include "kl/error_bounds.hpp"
#include "kl/matmul_oracle.hpp"

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

// The host oracle of a whole C, a row at a time: for each k of row i, a_ik times B's row k is
// added to the row's n sums at once, so B is read along its rows instead of down a column per
// element, and the FP16 rounding is applied once per input instead of once per product (an
// element at a time, as oracle_element goes, took 20 times as long at 128 x 256 x 1024 in FP16
// and 4 times in FP32: the matmul tests' host time).
// Every element's sum is still taken in k order, the bias last, as oracle_element takes it: the
// same doubles (kl.oracles.host compares them). emit_row(sums, abs_sums, terms) gets each row in
// order.
template <class EmitRow>
void oracle_rows(const Inputs& in, const Shape& s, InputPrecision p, EmitRow emit_row) {
  const auto n = static_cast<std::size_t>(std::max<std::int64_t>(s.n, 0));
  const auto k = static_cast<std::size_t>(std::max<std::int64_t>(s.k, 0));
  std::vector<float> rounded_b;
  if (p == InputPrecision::fp16) {
    rounded_b.resize(in.b.size());
    std::transform(in.b.begin(), in.b.end(), rounded_b.begin(), round_to_fp16);
  }
  const std::vector<float>& b = p == InputPrecision::fp16 ? rounded_b : in.b;
  std::vector<double> sum(n), abs_sum(n);
  const std::int64_t terms = s.k + (s.bias ? 1 : 0);
  for (std::int64_t i = 0; i < s.m; ++i) {
    std::fill(sum.begin(), sum.end(), 0.0);
    std::fill(abs_sum.begin(), abs_sum.end(), 0.0);
    for (std::size_t kk = 0; kk < k; ++kk) {
      const double a_ik = input(in.a, i * s.k + static_cast<std::int64_t>(kk), p);
      const float* b_row = b.data() + kk * n;
      for (std::size_t j = 0; j < n; ++j) {
        const double prod = a_ik * static_cast<double>(b_row[j]);
        sum[j] += prod;
        abs_sum[j] += std::fabs(prod);
      }
    }
    if (s.bias)
      for (std::size_t j = 0; j < n; ++j) {
        const double bias = in.bias[j];
        sum[j] += bias;
        abs_sum[j] += std::fabs(bias);
      }
    emit_row(sum, abs_sum, terms);
  }
}

}  // namespace

bool host_oracle_takes(const Shape& shape) { return shape.m * shape.n * shape.k <= host_oracle_limit; }

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
  std::vector<double> c;
  if (s.m <= 0 || s.n <= 0) return c;
  c.reserve(static_cast<std::size_t>(s.m * s.n));
  oracle_rows(in, s, InputPrecision::fp32,
              [&](const std::vector<double>& sum, const std::vector<double>&, std::int64_t) {
                c.insert(c.end(), sum.begin(), sum.end());
              });
  return c;
}

std::vector<Expected> expected_elements(const Inputs& in, const Shape& shape, InputPrecision precision) {
  std::vector<Expected> expected;
  if (shape.m <= 0 || shape.n <= 0) return expected;
  const auto count = static_cast<std::size_t>(shape.m * shape.n);
  expected.reserve(count);
  if (host_oracle_takes(shape)) {
    oracle_rows(in, shape, precision,
                [&](const std::vector<double>& sum, const std::vector<double>& abs_sum, std::int64_t terms) {
                  for (std::size_t j = 0; j < sum.size(); ++j)
                    expected.push_back({sum[j], element_bound(terms, precision, abs_sum[j])});
                });
    return expected;
  }
  const DeviceBuffer<float> a{std::span<const float>(in.a)}, b{std::span<const float>(in.b)};
  const DeviceBuffer<float> bias{std::span<const float>(in.bias)};
  const DeviceReference ref = device_reference(a.data(), b.data(), bias.data(), shape, precision);
  const std::vector<double> value = ref.value.download(), bound = ref.bound.download();
  for (std::size_t e = 0; e < count; ++e) expected.push_back({value[e], bound[e]});
  return expected;
}

CaseResult run_case(const Variant& v, const Shape& shape, const Inputs& in, std::vector<float>* out) {
  return run_case(v, shape, in, expected_elements(in, shape, v.precision), out);
}

CaseResult run_case(const Variant& v, const Shape& shape, const Inputs& in, const std::vector<Expected>& expected,
                    std::vector<float>* out) {
  const auto outputs = static_cast<std::size_t>(std::max<std::int64_t>(shape.m * shape.n, 0));
  if (expected.size() != outputs)
    throw std::invalid_argument("matmul::run_case: " + std::to_string(expected.size()) + " expected elements for " +
                                std::to_string(outputs) + " outputs (use expected_elements)");
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
  for (std::size_t index = 0; index < outputs; ++index) {
    const Expected& want = expected[index];
    ++r.checked;
    // NaN (the poison, or a real NaN) fails the comparison.
    if (!(std::fabs(got[index] - want.value) <= want.bound)) r.add_mismatch({index, got[index], want.value, want.bound});
  }
  if (out != nullptr) *out = got;
  return r;
}

}  // namespace kl::matmul
