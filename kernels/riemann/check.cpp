// Oracle, error bounds and checked runs for the Riemann family.
//
// Notation: n intervals, h = (b-a)/n exact, dx = fl(h) the double step every side uses,
// x_i = fl(a + i dx) the abscissae, t_i = dx * f(x_i) the exact terms on those abscissae,
// S* = sum t_i, T = sum |t_i|, u = 2^-53 (double), u_ld = unit roundoff of long double,
// gamma_k(u) = k u / (1 - k u) (Higham, Accuracy and Stability, Lemma 3.1: a product of k
// factors (1 + d_j)^(+-1), |d_j| <= u, is 1 + theta with |theta| <= gamma_k).
//
// GPU rounding bound, |S_gpu - S*| <= gamma_{n+9}(u) T:
//   one computed term is fl(fl(exp(x) * sin(x)) * dx). We allow 2 ulp for each of exp and sin
//   (the CUDA C Programming Guide lists 1 and 2 ulp for double exp and sin; an error of k ulp is
//   a relative error of at most 2k u, i.e. a theta_{2k}): theta_4 + theta_4 + theta_1 for the
//   product + theta_1 for * dx = theta_10. Any summation order of n terms in double (per-thread
//   loop, shuffles, shared memory, atomicAdd, in any interleaving) puts each term through at
//   most n-1 roundings (Higham 4.2); adds of exact zeros (idle threads) do not round. An FMA
//   contraction of `sum += f * dx` drops a rounding. So every term carries theta_{n+9}.
// CPU rounding bound, |S_cpu - S*| <= (gamma_11(u) + gamma_{n-1}(u_ld) (1 + gamma_10(u))) T:
//   the same theta_10 per term (glibc's listed errors for double exp and sin are about 1 ulp; we
//   allow 2 for any libm), n-1 roundings in long double, one final rounding to double (theta_1,
//   folded into gamma_11).
// The computed T (long double sum of |computed terms|) is within a factor (1 + gamma_10(u))
// (1 + gamma_{n-1}(u_ld)) of the true T; every bound is scaled by (1 + 2^-20), which covers
// that for n < 2^31.
// Both sides evaluate the terms on the same abscissae: a = 0, so x_i = fl(i * dx) whether or
// not the compiler contracts a + i*dx into an FMA, and dx comes from step() on both sides.
//
// Integral bound, |S_gpu - I| <= D(n) + E_step + E_gpu + E_closed:
//   D(n) = (b-a)^2 / (2n) * M1 bounds |L_n - I| for the exact left sum L_n = h sum f(a + i h):
//   on each interval |f(x_i) - f(x)| <= M1 (x - x_i), integrating gives M1 h^2 / 2, times n.
//   M1 = max |f'| on [a, b] <= sqrt(2) e^b, since f'(x) = e^x (sin x + cos x) and 0 <= a < b.
//   E_step bounds |S* - L_n|: |dx - h| <= u dx gives u T / (1 - u); |x_i - (a + i h)| <=
//   i |dx - h| + u i dx + u |x_i| <= 3 u max(|a|, |b|, b - a) (1 + 2^-20), and f moves by at most
//   M1 times that on each of n intervals of width h: (b - a) M1 3 u max(...).
//   E_gpu is the GPU rounding bound above; E_closed the closed form's evaluation error (below).
#include "kl/riemann.hpp"

#include "kl/guarded_buffer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <thread>
#include <vector>

namespace kl::riemann {
namespace {

static_assert(a == 0.0, "check.cpp relies on a = 0: x_i = fl(i * dx) on every side, FMA or not");

constexpr double u = 0x1p-53;
constexpr long double u_ld = std::numeric_limits<long double>::epsilon() / 2;
constexpr double computed_t_slack = 1.0 + 0x1p-20;

double gamma_of(double k, double unit) {
  const double ku = k * unit;
  return ku < 1.0 ? ku / (1.0 - ku) : std::numeric_limits<double>::infinity();
}

// max |f'| on [a, b]: |e^x (sin x + cos x)| <= sqrt(2) e^b.
double max_abs_derivative() { return std::sqrt(2.0) * std::exp(b); }

// The integrand as the kernels write it (kernels/riemann/device_common.cuh).
double f(double x) { return std::exp(x) * std::sin(x); }

long double antiderivative(long double x) { return std::exp(x) * (std::sin(x) - std::cos(x)) / 2; }

}  // namespace

double step(std::int64_t n) { return (b - a) / static_cast<double>(n); }

HostSum left_sum_on_host(std::int64_t n) {
  if (n < 1) throw std::invalid_argument("left_sum_on_host: n must be >= 1, got " + std::to_string(n));
  const double dx = step(n);
  // Fixed chunks summed in order: the result does not depend on how many threads ran them.
  constexpr std::int64_t chunk = std::int64_t{1} << 20;
  const std::int64_t chunks = (n + chunk - 1) / chunk;
  std::vector<long double> sums(static_cast<std::size_t>(chunks)), abs_sums(sums.size());
  const auto workers = static_cast<std::int64_t>(
      std::min<std::int64_t>(chunks, std::max(1u, std::thread::hardware_concurrency())));
  const auto work = [&](std::int64_t w) {
    for (std::int64_t k = w; k < chunks; k += workers) {
      long double s = 0, s_abs = 0;
      for (std::int64_t i = k * chunk; i < std::min(n, (k + 1) * chunk); ++i) {
        const double x = a + static_cast<double>(i) * dx;
        const double term = f(x) * dx;
        s += term;
        s_abs += std::abs(term);
      }
      sums[static_cast<std::size_t>(k)] = s;
      abs_sums[static_cast<std::size_t>(k)] = s_abs;
    }
  };
  {
    std::vector<std::jthread> helpers;
    for (std::int64_t w = 1; w < workers; ++w) helpers.emplace_back(work, w);
    work(0);
  }
  long double sum = 0, sum_abs = 0;
  for (std::size_t k = 0; k < sums.size(); ++k) {
    sum += sums[k];
    sum_abs += abs_sums[k];
  }
  return {static_cast<double>(sum), static_cast<double>(sum_abs)};
}

double integral() { return static_cast<double>(antiderivative(b) - antiderivative(a)); }

Oracle oracle(std::int64_t n) {
  const HostSum s = left_sum_on_host(n);
  return {n, integral(), s.sum, s.sum_abs};
}

double discretisation_bound(std::int64_t n) {
  return (b - a) * (b - a) / (2.0 * static_cast<double>(n)) * max_abs_derivative();
}

double gpu_rounding_bound(const Oracle& o) {
  return gamma_of(static_cast<double>(o.n) + 9.0, u) * o.sum_abs * computed_t_slack;
}

double cpu_rounding_bound(const Oracle& o) {
  const double accumulate = static_cast<double>(
      static_cast<long double>(o.n - 1) * u_ld / (1 - static_cast<long double>(o.n - 1) * u_ld));
  return (gamma_of(11, u) + accumulate * (1.0 + gamma_of(10, u))) * o.sum_abs * computed_t_slack;
}

double integral_bound(const Oracle& o) {
  const double span = std::max({std::abs(a), std::abs(b), b - a});
  const double step_error = u / (1.0 - u) * o.sum_abs * computed_t_slack +
                            (b - a) * max_abs_derivative() * 3.0 * u * span * computed_t_slack;
  // expl, sinl, cosl within a few long-double ulps each, a handful of roundings (16 u_ld is
  // generous), relative to the terms before F(b) - F(a) cancels; plus the rounding to double.
  const auto magnitude = [](double x) { return std::exp(x) * (std::abs(std::sin(x)) + std::abs(std::cos(x))); };
  const double closed_form_error =
      16.0 * static_cast<double>(u_ld) * (magnitude(a) + magnitude(b)) + u * std::abs(integral());
  return discretisation_bound(o.n) + step_error + gpu_rounding_bound(o) + closed_form_error;
}

CaseResult compare_sum(double sum, const Oracle& want) {
  CaseResult r;
  r.checked = 2;
  // NaN (the poison, or a NaN the kernel produced) fails both comparisons.
  const double to_integral = integral_bound(want);
  if (!(std::abs(sum - want.integral) <= to_integral)) r.add_mismatch({0, sum, want.integral, to_integral});
  const double to_left_sum = left_sum_bound(want);
  if (!(std::abs(sum - want.left_sum) <= to_left_sum)) r.add_mismatch({1, sum, want.left_sum, to_left_sum});
  return r;
}

CheckedSum run_case(const Variant& v, const Shape& shape, const Oracle& want) {
  if (want.n != shape.n)
    throw std::invalid_argument("riemann::run_case: oracle for n=" + std::to_string(want.n) + " but shape n=" +
                                std::to_string(shape.n));
  GuardedBuffer<double> out(1);
  out.poison();
  v.launch({out.data(), shape});
  KL_CUDA_CHECK(cudaDeviceSynchronize());

  CheckedSum r;
  r.sum = out.download()[0];
  r.check = compare_sum(r.sum, want);
  r.check.guards = out.inspect();
  return r;
}

}  // namespace kl::riemann
