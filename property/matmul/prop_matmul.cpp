// Properties of the matmul family over random shapes and data: the per-element bound against
// the double oracle, agreement between variants, bit-exactness on small integers, shape rules,
// and the planted race's effect on the output (recorded, not asserted).
#include "matmul_generators.hpp"
#include "property.hpp"

#include "kl/error_bounds.hpp"

#include <cmath>

using namespace kl::matmul;
using kl::CaseResult;

namespace {

std::vector<std::string> clean_names() {
  std::vector<std::string> out;
  for (const Variant& v : variants())
    if (v.info.role != kl::Role::planted) out.push_back(v.info.name);
  return out;
}

std::int64_t round_up(std::int64_t x, std::int64_t to) { return (x + to - 1) / to * to; }

// The drawn shape, or the nearest one the variant takes: sides rounded up to whole 16x16
// blocks, or a square rounded up to its tile (32 is a multiple of 2 and 16). Every variant
// takes one of these, so no case is discarded.
Shape fit(const Variant& v, Shape s) {
  const std::int64_t side = std::max({s.m, s.n, s.k});
  for (const Shape& candidate : {s, Shape{round_up(s.m, 16), round_up(s.n, 16), s.k, s.bias},
                                 Shape{round_up(side, 32), round_up(side, 32), round_up(side, 32), s.bias}})
    if (v.supports(candidate)) return candidate;
  return s;  // the property's launch then fails naming the rule: a registry bug worth seeing
}

Shape draw_shape_for(const Variant& v) {
  Shape s = *kl::gen::matmul_shape().as("drawn shape");
  s.bias = v.supports({1, 1, 1, true}) && *rc::gen::arbitrary<bool>().as("bias");
  return fit(v, s);
}

}  // namespace

// |c - ref| <= gamma(k) * sum_k |a_ik||b_kj| (+ bias) for every element, every clean variant
// (GemmEx against its FP16-rounded inputs); outputs fully written, canaries intact.
KL_PROPERTY(MatmulProperty, EveryCleanVariantMeetsTheBound, ()) {
  const Variant& v = variant(*rc::gen::elementOf(clean_names()).as("variant"));
  const Shape shape = draw_shape_for(v);
  RC_TAG(v.info.name);
  const auto seed = *rc::gen::arbitrary<std::uint64_t>().as("data seed");
  const CaseResult r = run_case(v, shape, make_inputs(shape, Data::random, seed));
  if (!r.ok()) RC_FAIL(v.info.id() + ": " + r.describe());
}

// Every FP32 variant that takes the shape agrees with cuBLAS SGEMM within the sum of both
// bounds. (GemmEx is left out: it multiplies different, FP16-rounded, numbers.)
KL_PROPERTY(MatmulProperty, AllFp32VariantsAgreeWithCublas, ()) {
  Shape shape = *kl::gen::matmul_shape().as("drawn shape");
  if (*rc::gen::arbitrary<bool>().as("square, a multiple of 32"))
    shape = fit(variant("tiled_32"), shape);
  const Inputs in = make_inputs(shape, Data::random, *rc::gen::arbitrary<std::uint64_t>().as("data seed"));
  std::vector<float> ref;
  const CaseResult rr = run_case(variants().front(), shape, in, &ref);
  if (!rr.ok()) RC_FAIL("cublas_sgemm: " + rr.describe());
  // The compared elements: all, or the sampled rows and columns of a large (slow-tier) shape.
  const std::vector<std::size_t> compared = checked_elements(shape);
  std::vector<double> bound(ref.size());
  for (const std::size_t e : compared)
    bound[e] = oracle_element(in, shape, InputPrecision::fp32, static_cast<std::int64_t>(e) / shape.n,
                              static_cast<std::int64_t>(e) % shape.n).bound;
  for (const Variant& v : variants().subspan(1)) {
    if (v.info.role == kl::Role::planted || v.precision != InputPrecision::fp32 || !v.supports(shape)) continue;
    std::vector<float> got;
    run_case(v, shape, in, &got);
    for (const std::size_t e : compared)
      if (!(std::fabs(static_cast<double>(got[e]) - ref[e]) <= 2 * bound[e]))
        RC_FAIL(v.info.id() + " vs cublas_sgemm at element " + std::to_string(e) + ": " + std::to_string(got[e]) +
                " vs " + std::to_string(ref[e]) + ", allowed " + std::to_string(2 * bound[e]));
  }
}

// Integers in [-8, 8]: every product and partial sum is an integer below 2^24, so any order of
// FP32 (or FP16-input) arithmetic is exact and every variant must equal the oracle bit for bit.
KL_PROPERTY(MatmulProperty, SmallIntegerInputsAreBitExact, ()) {
  const Variant& v = variant(*rc::gen::elementOf(clean_names()).as("variant"));
  const Shape shape = draw_shape_for(v);
  const Inputs in = make_inputs(shape, Data::small_integers, *rc::gen::arbitrary<std::uint64_t>().as("data seed"));
  std::vector<float> got;
  const CaseResult r = run_case(v, shape, in, &got);
  if (!r.guards.ok()) RC_FAIL(v.info.id() + ": " + r.guards.describe());
  for (const std::size_t e : checked_elements(shape)) {
    const double want = oracle_element(in, shape, InputPrecision::fp32, static_cast<std::int64_t>(e) / shape.n,
                                       static_cast<std::int64_t>(e) % shape.n).value;
    if (static_cast<double>(got[e]) != want)
      RC_FAIL(v.info.id() + " element " + std::to_string(e) + ": " + std::to_string(got[e]) + " != " +
              std::to_string(want));
  }
}

// A shape the variant does not take is refused with "<id>: <rule>" and the output stays
// poisoned: never computed wrong.
KL_PROPERTY(MatmulProperty, UnsupportedShapesAreRejectedNeverComputed, ()) {
  const Variant& v = variant(*rc::gen::elementOf(clean_names()).as("variant"));
  Shape shape = *kl::gen::matmul_shape().as("drawn shape");
  shape.bias = *rc::gen::arbitrary<bool>().as("bias");
  if (*rc::gen::arbitrary<bool>().as("break a side")) {
    const std::int64_t bad = *rc::gen::elementOf(std::vector<std::int64_t>{0, -1, -512}).as("bad side");
    (*rc::gen::inRange(0, 3).as("which side") == 0 ? shape.m : shape.n) = bad;
  }
  RC_PRE(!v.supports(shape));
  kl::DeviceBuffer<float> in(1);
  kl::GuardedBuffer<float> out(1);
  out.poison();
  try {
    v.launch({in.data(), in.data(), in.data(), out.data(), shape});
    RC_FAIL("accepted " + v.unsupported(shape));
  } catch (const std::invalid_argument& e) {
    RC_ASSERT(std::string(e.what()).rfind(v.info.id() + ": ", 0) == 0);
  }
  RC_ASSERT(out.inspect().unwritten == 1u);
}

// The planted race (racecheck's verdict is kl.expect.race-tiled-missing-sync): every element
// is written whatever the timing; whether values are wrong is tagged, so the run's output
// reports how often the race corrupted C on this GPU.
KL_PROPERTY(PlantedMatmulProperty, MissingSecondSyncWritesEveryElement, ()) {
  const Variant& v = variant("tiled_missing_second_sync");
  const Shape shape = draw_shape_for(v);
  const CaseResult r = run_case(v, shape, make_inputs(shape, Data::random, *rc::gen::arbitrary<std::uint64_t>()));
  RC_ASSERT(r.guards.ok());
  RC_TAG(r.mismatch_count == 0 ? "output within bound" : "output corrupted by the race");
}
