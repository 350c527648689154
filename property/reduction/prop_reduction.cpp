// Properties of the reduction family over random sizes, power-of-two blocks, dtypes and data,
// and the planted no-volatile rung, which a property must catch.
// The slow tier (kl.reduction.property.slow, KL_PROPERTY_TIER=slow) runs the oracle and agreement
// properties on int data with n from 2^22 to 10^8 in a few cases. Their cost is mostly on the
// host: drawing 10^8 random ints takes a few seconds, the oracle sum and the 400 MB upload a
// fraction of that; the GPU work (naive_sum's 10^8 atomics included) is well under a second.
#include "generators.hpp"
#include "property.hpp"

#include "kl/reduction.hpp"

#include <algorithm>
#include <random>

using namespace kl::reduction;
using kl::CaseResult;

namespace {

std::vector<std::string> clean_names() {
  std::vector<std::string> out;
  for (const Variant& v : variants())
    if (!v.info.has_findings()) out.push_back(v.info.name);
  return out;
}

// A power-of-two block the variant accepts: 32..1024, or 64..1024 for the last-warp rungs;
// any 1..1024 for naive_sum is covered by its own rule, so draw powers of two for all.
rc::Gen<int> block_for(const Variant& v) {
  const int lo_log = v.supports({1, 32, Dtype::i32}) ? 5 : 6;
  return rc::gen::map(rc::gen::inRange(lo_log, 11), [](int k) { return 1 << k; });
}

// The slow tier draws int only: its sums are exact at any n, while the float bound
// (n-1) eps sum|x| exceeds sum|x| itself past n = 2^23 and would check nothing there.
rc::Gen<Dtype> dtype() {
  if (kl::slow_tier() && !kl::sanitizer_small_mode()) return rc::gen::just(Dtype::i32);
  return rc::gen::element(Dtype::i32, Dtype::f32);
}

}  // namespace

namespace kl::reduction {
inline void showValue(Dtype d, std::ostream& os) { os << to_string(d); }
}  // namespace kl::reduction

// Every clean rung: int sums exact, float sums within (n-1)*eps*sum|x|, output guards intact.
KL_PROPERTY(ReductionProperty, EveryCleanRungMatchesTheOracle, ()) {
  const Variant& v = variant(*rc::gen::elementOf(clean_names()).as("variant"));
  const Shape shape{*kl::gen::count_for_tier(0).as("n"), *block_for(v).as("block"), *dtype().as("dtype")};
  const auto seed = *rc::gen::arbitrary<std::uint64_t>().as("data seed");
  const CaseResult r = run_case(v, shape, make_inputs(shape, seed));
  if (!r.ok()) RC_FAIL(v.info.id() + ": " + r.describe());
}

// An integer sum is the same under any permutation of its input (order-independent and exact).
KL_PROPERTY(ReductionProperty, IntSumIsUnchangedUnderPermutation, ()) {
  const Variant& v = variant(*rc::gen::elementOf(clean_names()).as("variant"));
  const Shape shape{*kl::gen::count(1).as("n"), *block_for(v).as("block"), Dtype::i32};
  const auto seed = *rc::gen::arbitrary<std::uint64_t>().as("data seed");
  Inputs in = make_inputs(shape, seed);
  const CaseResult before = run_case(v, shape, in);
  std::shuffle(in.i.begin(), in.i.end(), std::mt19937_64(seed ^ 0x9e3779b97f4a7c15ull));
  const CaseResult after = run_case(v, shape, in);
  if (!before.ok() || !after.ok()) RC_FAIL(v.info.id() + ": " + before.describe() + " / " + after.describe());
}

// All clean rungs agree with each other on one input: int bit for bit (each equals the exact sum,
// checked by run_case), float each within the bound of the double sum, so any two within twice it.
KL_PROPERTY(ReductionProperty, AllRungsAgree, ()) {
  const Shape shape{*kl::gen::count_for_tier(0).as("n"), 64, *dtype().as("dtype")};
  const Inputs in = make_inputs(shape, *rc::gen::arbitrary<std::uint64_t>().as("data seed"));
  const Oracle want = oracle(shape.dtype, in);  // once, not once per rung: at 10^8 it costs
  for (const Variant& v : variants()) {
    if (v.info.has_findings()) continue;
    const CaseResult r = run_case(v, shape, in, want);
    if (!r.ok()) RC_FAIL(v.info.id() + ": " + r.describe());
  }
}

// A block that is not a power of two, or is over 1024, is refused with the rule named.
KL_PROPERTY(ReductionProperty, BadBlocksAreRejectedWithAClearError, ()) {
  std::vector<std::string> tree;
  for (const Variant& v : variants())
    if (v.info.role != kl::Role::reference && v.info.name != "naive_sum") tree.push_back(v.info.name);
  const Variant& v = variant(*rc::gen::elementOf(tree).as("variant"));
  const int block = *rc::gen::suchThat(rc::gen::inRange(-64, 1 << 16), [](int b) {
                       return b <= 0 || b > 1024 || (b & (b - 1)) != 0;
                     }).as("block");
  kl::DeviceBuffer<int> in(1), out(1);
  try {
    v.launch({in.data(), out.data(), {1, block, Dtype::i32}});
    RC_FAIL("accepted block " + std::to_string(block));
  } catch (const std::invalid_argument& e) {
    RC_ASSERT(std::string(e.what()).find(v.info.id() + ": block size must be a power of two in ") == 0);
  }
}

// The planted rung without volatile: the oracle property must FIND a counterexample on the GPU.
// RapidCheck runs it to failure and shrinks it; the test passes only if it failed, and prints the
// shrunk case. (The suite name keeps it out of the clean sanitizer sweep.)
TEST(PlantedReductionNoVolatile, OraclePropertyFindsAWrongSum) {
  const Variant& v = variant("unroll_last_warp_no_volatile");
  const auto property = [&v] {
    const Shape shape{*rc::gen::inRange<std::int64_t>(1, kl::gen::max_count() + 1).as("n"),
                      *block_for(v).as("block"), *dtype().as("dtype")};
    const auto seed = *rc::gen::arbitrary<std::uint64_t>().as("data seed");
    const CaseResult r = run_case(v, shape, make_inputs(shape, seed));
    RC_ASSERT(r.ok());
  };
  rc::detail::TestMetadata metadata;
  metadata.id = "PlantedReductionNoVolatile/OraclePropertyFindsAWrongSum";
  const rc::detail::TestResult result = rc::detail::checkTestable(property, metadata);
  std::ostringstream message;
  rc::detail::printResultMessage(result, message);
  ASSERT_TRUE(result.is<rc::detail::FailureResult>())
      << "the planted race went unnoticed: every random case summed right.\n" << message.str();
  std::cout << "caught as expected; shrunk counterexample:\n" << message.str() << "\n";
}
