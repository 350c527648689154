// Riemann family: seed 004's left Riemann sum of f(x) = e^x sin(x) on [0, 10] with n intervals,
// from one atomicAdd per interval to a block-level reduction with one atomicAdd per block. A
// CPU left sum is variant 0. Every variant accumulates in double, as the seed does.
//
// A result is checked three ways (bounds derived in kernels/riemann/check.cpp):
//  (a) against the closed-form integral, within the left sum's discretisation error plus rounding;
//  (b) against the CPU left sum on the same abscissae, within both sides' rounding bounds;
//  (c) (properties) against every other variant, within twice the GPU rounding bound.
#pragma once

#include "kl/case_result.hpp"
#include "kl/registry.hpp"
#include "kl/riemann_args.hpp"

#include <cstdint>
#include <span>
#include <string>

namespace kl::riemann {

struct Variant : kl::Variant<Shape, Args> {};

std::span<const Variant> variants();
inline const Variant& variant(std::string_view name) { return find_variant(variants(), name); }

// The largest n: the seed's `int N` (kernels index with 64-bit integers, so no stride overflows).
inline constexpr std::int64_t max_n = 2147483647;

// The left sum on the host: terms f(a + i dx) * dx in double with the kernels' expression,
// accumulated in long double over fixed chunks (deterministic for any number of host threads).
struct HostSum {
  double sum = 0;
  double sum_abs = 0;  // sum |term|, for the rounding bounds
};
HostSum left_sum_on_host(std::int64_t n);

// Everything a check needs for one n.
struct Oracle {
  std::int64_t n = 0;
  double integral = 0;  // closed form F(b) - F(a), F(x) = e^x (sin x - cos x) / 2
  double left_sum = 0;  // left_sum_on_host(n).sum
  double sum_abs = 0;   // left_sum_on_host(n).sum_abs
};
// Costs n evaluations of exp and sin on the host (spread over its cores).
Oracle oracle(std::int64_t n);

// The closed-form integral on [a, b] (long double, rounded to double).
double integral();
// |exact left sum on exact abscissae - integral| <= (b-a)^2 / (2n) * max|f'|.
double discretisation_bound(std::int64_t n);
// |GPU sum - exact sum of the rounded terms dx*f(x_i)|, for any summation order in double.
double gpu_rounding_bound(const Oracle& o);
// |CPU left sum - the same exact sum|.
double cpu_rounding_bound(const Oracle& o);
// Allowed |GPU sum - integral|: discretisation + rounded step and abscissae + GPU rounding +
// the closed form's own evaluation error.
double integral_bound(const Oracle& o);
// Allowed |GPU sum - CPU left sum|.
inline double left_sum_bound(const Oracle& o) { return gpu_rounding_bound(o) + cpu_rounding_bound(o); }
// Allowed |sum of one GPU variant - sum of another|.
inline double agreement_bound(const Oracle& o) { return 2.0 * gpu_rounding_bound(o); }

// What one checked launch produced. check's mismatch [0] is the comparison with the integral,
// [1] the comparison with the CPU left sum.
struct CheckedSum {
  CaseResult check;
  double sum = 0;
};

// Compares one sum with the integral (mismatch index 0, integral_bound) and with the CPU left sum
// (index 1, left_sum_bound); NaN fails both. What run_case, the CLI and the bench all check.
CaseResult compare_sum(double sum, const Oracle& want);

// Poisons a guarded one-double output (NaN payload, canaries around it), launches `v`, checks
// the guards, and compares the sum with the integral (integral_bound) and with the CPU left sum
// (left_sum_bound). Throws std::invalid_argument for an unsupported shape.
CheckedSum run_case(const Variant& v, const Shape& shape, const Oracle& want);

}  // namespace kl::riemann
