// Inputs, oracle and checked runs for the reduction family.
#include "kl/reduction.hpp"

#include "kl/error_bounds.hpp"
#include "kl/guarded_buffer.hpp"

#include <cmath>
#include <random>

namespace kl::reduction {

std::string to_string(Dtype d) { return d == Dtype::i32 ? "int" : "float"; }

Dtype parse_dtype(const std::string& text) {
  if (text == "int") return Dtype::i32;
  if (text == "float") return Dtype::f32;
  throw std::invalid_argument("dtype must be int or float, got '" + text + "'");
}

Inputs make_inputs(const Shape& shape, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto n = static_cast<std::size_t>(std::max<std::int64_t>(shape.n, 0));
  Inputs in;
  if (shape.dtype == Dtype::i32) {
    if (shape.n > max_exact_int_n)
      throw std::invalid_argument("int inputs: n must be at most 2^28 so the int32 sum cannot overflow");
    std::uniform_int_distribution<int> dist(-7, 7);
    in.i.resize(n);
    for (int& x : in.i) x = dist(rng);
    // Never all zero: a zero sum would hide a kernel that adds nothing.
    if (n != 0 && in.i[0] == 0) in.i[0] = 5;
  } else {
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    in.f.resize(n);
    for (float& x : in.f) x = dist(rng);
    if (n != 0 && in.f[0] == 0.0f) in.f[0] = 0.5f;
  }
  return in;
}

Oracle oracle(Dtype dtype, const Inputs& in) {
  Oracle o;
  if (dtype == Dtype::i32) {
    for (int x : in.i) o.exact += x;
    o.value = static_cast<double>(o.exact);
  } else {
    for (float x : in.f) {
      o.value += x;
      o.sum_abs += std::abs(static_cast<double>(x));
    }
  }
  return o;
}

namespace {

template <class T>
CaseResult run_typed(const Variant& v, const Shape& shape, const std::vector<T>& host, const Oracle& want) {
  // The input gets an exact-size allocation so memcheck sees any read past its end.
  DeviceBuffer<T> in{std::span<const T>(host)};
  GuardedBuffer<T> out(1);
  out.poison();
  v.launch({in.data(), out.data(), shape});
  KL_CUDA_CHECK(cudaDeviceSynchronize());

  CaseResult r = compare_sum(shape.n, out.download()[0], want);
  r.guards = out.inspect();
  return r;
}

}  // namespace

CaseResult compare_sum(std::int64_t, int got, const Oracle& want) {
  CaseResult r;
  r.checked = 1;
  if (static_cast<std::int64_t>(got) != want.exact) r.add_mismatch({0, double(got), want.value, 0.0});
  return r;
}

CaseResult compare_sum(std::int64_t n, float got, const Oracle& want) {
  CaseResult r;
  r.checked = 1;
  const double allowed = bounds::float_sum_bound(n, want.sum_abs);
  // NaN (the poison) fails this comparison too.
  if (!(std::abs(static_cast<double>(got) - want.value) <= allowed))
    r.add_mismatch({0, static_cast<double>(got), want.value, allowed});
  return r;
}

CaseResult run_case(const Variant& v, const Shape& shape, const Inputs& in) {
  return run_case(v, shape, in, oracle(shape.dtype, in));
}

CaseResult run_case(const Variant& v, const Shape& shape, const Inputs& in, const Oracle& want) {
  return shape.dtype == Dtype::i32 ? run_typed<int>(v, shape, in.i, want) : run_typed<float>(v, shape, in.f, want);
}

}  // namespace kl::reduction
