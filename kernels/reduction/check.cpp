// Inputs, oracle and checked runs for the reduction family.
#include "kl/reduction.hpp"

#include "kl/error_bounds.hpp"
#include "kl/guarded_buffer.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

namespace kl::reduction {

std::string to_string(Dtype d) { return d == Dtype::i32 ? "int" : "float"; }

Dtype parse_dtype(const std::string& text) {
  if (text == "int") return Dtype::i32;
  if (text == "float") return Dtype::f32;
  throw std::invalid_argument("dtype must be int or float, got '" + text + "'");
}

std::string to_string(FloatData d) { return d == FloatData::exact_integers ? "exact-integers" : "rounding"; }

namespace {

std::vector<int> int_inputs(std::size_t n, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> dist(-7, 7);
  std::vector<int> x(n);
  for (int& v : x) v = dist(rng);
  // Never all zero: a zero sum would hide a kernel that adds nothing.
  if (n != 0 && x[0] == 0) x[0] = 5;
  return x;
}

// Makes the sum of x[lo, hi) positive by turning negative terms positive (sum|x| unchanged). With
// mean 1 the half sums are ~n/2 against a spread of ~sqrt(n), so this almost never changes a term.
void make_positive_sum(std::vector<float>& x, std::size_t lo, std::size_t hi) {
  double sum = 0;
  for (std::size_t i = lo; i < hi; ++i) sum += x[i];
  for (std::size_t i = lo; i < hi && sum <= 0; ++i)
    if (x[i] < 0) {
      sum -= 2.0 * x[i];
      x[i] = -x[i];
    }
}

// Integers in [-6, 8]; past n ~ 4*10^6 each term is nonzero with probability p chosen so that
// sum|x| stays near 0.9 * 2^24 (E|x| = 3.8), and is then capped at 2^24 exactly: every partial sum
// of every order is an exact binary32 integer. The first and last terms are nonzero (a kernel that
// drops either is caught) and each half sums to a positive value (a kernel that sums one half is).
std::vector<float> exact_integer_inputs(std::size_t n, std::mt19937_64& rng) {
  constexpr double mean_abs = 3.8;
  const double p = std::min(1.0, 0.9 * bounds::fp32_exact_integer_limit / (mean_abs * static_cast<double>(n)));
  std::bernoulli_distribution nonzero(p);
  std::uniform_int_distribution<int> value(-6, 8);
  std::vector<float> x(n, 0.0f);
  for (float& v : x)
    if (nonzero(rng)) v = static_cast<float>(value(rng));
  if (n == 0) return x;
  if (x.front() == 0.0f) x.front() = 1.0f;
  if (x.back() == 0.0f) x.back() = 1.0f;
  double sum_abs = 0;
  for (const float v : x) sum_abs += std::abs(v);
  // The cap (practically never reached at 0.9 of it): clear interior terms until it holds.
  for (std::size_t i = 1; i + 1 < n && sum_abs > bounds::fp32_exact_integer_limit; ++i) {
    sum_abs -= std::abs(x[i]);
    x[i] = 0.0f;
  }
  make_positive_sum(x, 0, n / 2);
  make_positive_sum(x, n / 2, n);
  return x;
}

std::vector<float> rounding_inputs(std::size_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<float> dist(0.5f, 1.5f);
  std::vector<float> x(n);
  for (float& v : x) v = dist(rng);
  return x;
}

}  // namespace

Inputs make_inputs(const Shape& shape, std::uint64_t seed, FloatData data) {
  std::mt19937_64 rng(seed);
  const auto n = static_cast<std::size_t>(std::max<std::int64_t>(shape.n, 0));
  Inputs in;
  if (shape.dtype == Dtype::i32) {
    if (shape.n > max_exact_int_n)
      throw std::invalid_argument("int inputs: n must be at most 2^28 so the int32 sum cannot overflow");
    in.i = int_inputs(n, rng);
  } else {
    in.f = data == FloatData::exact_integers ? exact_integer_inputs(n, rng) : rounding_inputs(n, rng);
  }
  return in;
}

Oracle oracle(Dtype dtype, const Inputs& in) {
  Oracle o;
  if (dtype == Dtype::i32) {
    for (int x : in.i) o.exact += x;
    o.value = static_cast<double>(o.exact);
  } else {
    bool integers = true;
    for (float x : in.f) {
      o.value += x;
      o.sum_abs += std::abs(static_cast<double>(x));
      integers = integers && std::trunc(x) == x;
    }
    // Integer terms below 2^24 in magnitude sum exactly in double too (the sum is below 2^53).
    o.exact_in_fp32 = integers && o.sum_abs <= bounds::fp32_exact_integer_limit;
  }
  return o;
}

namespace {

template <class T>
CaseResult run_typed(const Variant& v, const Shape& shape, const std::vector<T>& host, const Oracle& want,
                     double* got, int offset) {
  if (offset < 0 || offset > 3) throw std::invalid_argument("reduction input offset must be in 0..3 elements");
  // The input starts `offset` elements into an allocation that ends where it ends, so memcheck
  // sees any read past its end (and initcheck any read of the elements before its start).
  DeviceBuffer<T> in(host.size() + static_cast<std::size_t>(offset));
  if (!host.empty())
    KL_CUDA_CHECK(cudaMemcpy(in.data() + offset, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  GuardedBuffer<T> out(1);
  out.poison();
  v.launch({in.data() + offset, out.data(), shape});
  KL_CUDA_CHECK(cudaDeviceSynchronize());

  const T sum = out.download()[0];
  if (got) *got = static_cast<double>(sum);
  CaseResult r = compare_sum(v, shape, sum, want);
  r.guards = out.inspect();
  return r;
}

}  // namespace

std::int64_t summation_depth(const Variant& v, const Shape& shape) {
  const std::int64_t worst = std::max<std::int64_t>(shape.n - 1, 0);
  return v.summation_depth ? std::min(v.summation_depth(shape), worst) : worst;
}

double float_sum_allowance(const Variant& v, const Shape& shape, const Oracle& want) {
  if (want.exact_in_fp32) return 0.0;
  return bounds::float_sum_bound(summation_depth(v, shape), want.sum_abs);
}

CaseResult compare_sum(const Variant&, const Shape&, int got, const Oracle& want) {
  CaseResult r;
  r.checked = 1;
  if (static_cast<std::int64_t>(got) != want.exact) r.add_mismatch({0, double(got), want.value, 0.0});
  return r;
}

CaseResult compare_sum(const Variant& v, const Shape& shape, float got, const Oracle& want) {
  CaseResult r;
  r.checked = 1;
  const double allowed = float_sum_allowance(v, shape, want);
  // NaN (the poison) fails this comparison too.
  if (!(std::abs(static_cast<double>(got) - want.value) <= allowed))
    r.add_mismatch({0, static_cast<double>(got), want.value, allowed});
  return r;
}

CaseResult run_case(const Variant& v, const Shape& shape, const Inputs& in) {
  return run_case(v, shape, in, oracle(shape.dtype, in));
}

CaseResult run_case(const Variant& v, const Shape& shape, const Inputs& in, const Oracle& want, double* got,
                    int offset) {
  return shape.dtype == Dtype::i32 ? run_typed<int>(v, shape, in.i, want, got, offset)
                                   : run_typed<float>(v, shape, in.f, want, got, offset);
}

}  // namespace kl::reduction
