// Reduction family: the sum of an array, seed 004's ladder from one atomicAdd per element to a
// grid-stride loop, plus a warp-shuffle rung; CUB's DeviceReduce::Sum is variant 0.
// Every rung runs on int (exact) and float (within the summation bound): the dtype is part of
// the shape, so one registry entry per rung covers both types with the same launcher.
#pragma once

#include "kl/case_result.hpp"
#include "kl/registry.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace kl::reduction {

enum class Dtype { i32, f32 };
std::string to_string(Dtype d);
// "int" or "float"; throws std::invalid_argument otherwise.
Dtype parse_dtype(const std::string& text);

struct Shape {
  std::int64_t n = 0;
  int block = 256;
  Dtype dtype = Dtype::i32;
};

// in: n elements of the dtype; out: one element that receives the sum.
struct Args {
  const void* in = nullptr;
  void* out = nullptr;
  Shape shape;
};

struct Variant : kl::Variant<Shape, Args> {};

std::span<const Variant> variants();
inline const Variant& variant(std::string_view name) { return find_variant(variants(), name); }

// The largest n the int inputs are drawn for: values in [-7, 7] so |sum| <= 7 * 2^28 < 2^31 and
// no int32 partial sum of any order can overflow (the GPU accumulates in int, as the seed does).
inline constexpr std::int64_t max_exact_int_n = std::int64_t{1} << 28;

struct Inputs {
  std::vector<int> i;    // used when dtype == i32
  std::vector<float> f;  // used when dtype == f32
};

// Random inputs of shape.n elements, never all zero: int uniform in [-7, 7]; float uniform in
// [-1, 1]. Throws std::invalid_argument for int with n > max_exact_int_n.
Inputs make_inputs(const Shape& shape, std::uint64_t seed);

struct Oracle {
  std::int64_t exact = 0;  // int: the exact sum (64-bit accumulation)
  double value = 0;        // float: the sum in double
  double sum_abs = 0;      // float: sum |x|, for the error bound
};
Oracle oracle(Dtype dtype, const Inputs& in);

// Compares a sum of n elements with the oracle: int exactly, float within
// kl::bounds::float_sum_bound(n, sum|x|). The poison (a NaN, or a sentinel int) never matches.
CaseResult compare_sum(std::int64_t n, int got, const Oracle& want);
CaseResult compare_sum(std::int64_t n, float got, const Oracle& want);

// Uploads exact-size inputs, poisons a guarded one-element output, launches `v`, checks the
// guards, and compares: int exactly, float within kl::bounds::float_sum_bound(n, sum|x|).
CaseResult run_case(const Variant& v, const Shape& shape, const Inputs& inputs);
// The same with the oracle of `inputs` computed once by the caller (for many rungs on one input).
CaseResult run_case(const Variant& v, const Shape& shape, const Inputs& inputs, const Oracle& want);

}  // namespace kl::reduction
