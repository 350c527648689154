// Reduction family: the sum of an array, seed 004's ladder from one atomicAdd per element to a
// grid-stride loop, plus a warp-shuffle rung; CUB's DeviceReduce::Sum is variant 0.
// Every rung runs on int (exact) and float (exact on the lab's default float inputs, within the
// rung's own summation-depth bound on rounding inputs): the dtype is part of the shape, so one
// registry entry per rung covers both types with the same launcher.
#pragma once

#include "kl/case_result.hpp"
#include "kl/reduction_args.hpp"
#include "kl/registry.hpp"
#include "kl/scoped_setting.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace kl::reduction {

std::string to_string(Dtype d);
// "int" or "float"; throws std::invalid_argument otherwise.
Dtype parse_dtype(const std::string& text);

// The longest chain of roundings any element passes through in a rung's sum of `shape`
// (kernels/reduction/summation_plan.hpp): the float check's error bound follows it.
using DepthFn = std::int64_t (*)(const Shape&);

struct Variant : kl::Variant<Shape, Args> {
  DepthFn summation_depth = nullptr;  // nullptr: order unknown (CUB), the worst case n - 1
};
// The summation depth of `v` on `shape`, never more than the worst case n - 1.
std::int64_t summation_depth(const Variant& v, const Shape& shape);

std::span<const Variant> variants();
// Whether `v` runs on this GPU at all (rung 10 and its twins do not below compute capability 9.0,
// nor under a lower KL_DEVICE_CC): its rule, asked on a shape every rung takes.
inline bool runs_here(const Variant& v) { return !does_not_apply(v.unsupported({1, 256, Dtype::i32})); }
inline const Variant& variant(std::string_view name) { return find_variant(variants(), name); }

// The largest n the int inputs are drawn for: values in [-7, 7] so |sum| <= 7 * 2^28 < 2^31 and
// no int32 partial sum of any order can overflow (the GPU accumulates in int, as the seed does).
inline constexpr std::int64_t max_exact_int_n = std::int64_t{1} << 28;

struct Inputs {
  std::vector<int> i;    // used when dtype == i32
  std::vector<float> f;  // used when dtype == f32
};

// What float inputs are drawn (int inputs are always nonzero integers in [-7, 7]).
enum class FloatData {
  // Integers whose positive terms sum to at most 2^24 and negative ones to at least -2^24, so
  // every partial sum of every order is an exact binary32 integer and the check demands the exact
  // sum: zero, half and one-element-short sums are refused. In [-6, 8] without 0 up to ~2*10^6
  // elements, +-1 beyond; no zero up to 2^25 - 2^20 elements, past which exactly that many terms
  // are nonzero (each nonzero term takes at least 1 of the mass: no longer binary32 input is both
  // exact in every order and free of zeros; the int inputs are, to 2^28).
  exact_integers,
  // Uniform in [0.5, 1.5): every addition rounds, so a kernel that truncates or accumulates in
  // int is caught; checked within gamma(summation depth) * sum|x|. The positive mean keeps the
  // sum far above that bound, so zero and half sums are rejected while the depth stays < 2^22.
  rounding,
};
std::string to_string(FloatData d);

// Random inputs of shape.n elements. int: nonzero, uniform in [-7, 7] without 0. float: as
// `data` says; exact_integers with a nonzero first and last element. Both: each half sums to a
// positive value. Throws std::invalid_argument for int with n > max_exact_int_n.
Inputs make_inputs(const Shape& shape, std::uint64_t seed, FloatData data = FloatData::exact_integers);

struct Oracle {
  std::int64_t exact = 0;       // int: the exact sum (64-bit accumulation)
  double value = 0;             // float: the sum in double
  double sum_abs = 0;           // float: sum |x|, for the error bound
  bool exact_in_fp32 = false;   // float: integer terms, each sign's mass <= 2^24: every order exact
};
Oracle oracle(Dtype dtype, const Inputs& in);

// The error a float sum by `v` of `shape` may carry: 0 when the oracle says every order is exact,
// else kl::bounds::float_sum_bound(summation_depth(v, shape), sum|x|).
double float_sum_allowance(const Variant& v, const Shape& shape, const Oracle& want);

// Compares a sum by `v` of `shape` with the oracle: int exactly, float within
// float_sum_allowance. The poison (a NaN, or a sentinel int) never matches.
CaseResult compare_sum(const Variant& v, const Shape& shape, int got, const Oracle& want);
CaseResult compare_sum(const Variant& v, const Shape& shape, float got, const Oracle& want);

// Uploads exact-size inputs, poisons a guarded one-element output, launches `v`, checks the
// guards, and compares with compare_sum. `got`, if given, receives the sum the GPU wrote.
CaseResult run_case(const Variant& v, const Shape& shape, const Inputs& inputs);
// The same with the oracle of `inputs` computed once by the caller (for many rungs on one input),
// and the input starting `offset` elements (0..3) past a 16-byte boundary: the vectorised rung
// reads 16 bytes at a time and must handle any start.
CaseResult run_case(const Variant& v, const Shape& shape, const Inputs& inputs, const Oracle& want,
                    double* got = nullptr, int offset = 0);

// reduction.bulk_copy_ring (kernels/reduction/10_bulk_copy_ring.cu): whether its plan streams a
// shape through its ring on the current GPU (whole 32 KiB chunks outnumbering its blocks), and its
// grid's blocks. For tests, a process-wide cap on the blocks the ring's grid may have, so that a few
// chunks make every block go round its ring (0 returns to what the GPU holds at once); it returns
// the cap it replaced, and RingGridCap holds one for its lifetime.
bool bulk_copy_ring_streams(const Shape& shape);
std::int64_t bulk_copy_ring_blocks(const Shape& shape);
int cap_ring_grid(int blocks);
using RingGridCap = ScopedSetting<int, cap_ring_grid>;

}  // namespace kl::reduction
