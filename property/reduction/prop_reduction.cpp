// Properties of the reduction family over random sizes, power-of-two blocks, dtypes and data,
// the flawed volatile rung (right sums on the H100: its own suite, so only racecheck, which
// reports its hazards, leaves it out), and the planted no-volatile rung, which a property must catch.
// Float data is either exact integers (every order exact: the sum must be exact) or rounding
// values (within each rung's summation-depth bound); see kl::reduction::FloatData.
// The slow tier (kl.reduction.property.slow, KL_PROPERTY_TIER=slow) runs the oracle and agreement
// properties with n from 2^22 to 10^8 (float on exact-integer data only: the depth bound of
// naive_sum and CUB, n - 1, checks nothing on rounding data there) in a few cases. Their cost is
// mostly on the host: drawing 10^8 random values takes a few seconds, the oracle sum and the
// 400 MB upload a fraction of that; the GPU work (naive_sum's 10^8 atomics included) is well
// under a second.
#include "generators.hpp"
#include "pairwise.hpp"
#include "property.hpp"
#include "reduction_edges.hpp"

#include "kl/reduction.hpp"

#include <algorithm>
#include <cmath>
#include <random>

using namespace kl::reduction;
using kl::CaseResult;

namespace {

// The clean rungs that run on this GPU (rung 10 does not apply below compute capability 9.0).
std::vector<std::string> clean_names() {
  std::vector<std::string> out;
  for (const Variant& v : variants())
    if (!v.info.has_findings() && runs_here(v)) out.push_back(v.info.name);
  return out;
}

// A power-of-two block the variant accepts: 32..1024, or 64..1024 for the last-warp rungs;
// any 1..1024 for naive_sum is covered by its own rule, so draw powers of two for all. Drawn
// whatever the size (every tier reaches 1024), shrinking toward the smallest.
rc::Gen<int> block_for(const Variant& v) { return kl::gen::power_of_two_block(v.supports({1, 32, Dtype::i32}) ? 32 : 64); }

rc::Gen<Dtype> dtype() { return rc::gen::element(Dtype::i32, Dtype::f32); }

// Rounding data only up to the normal tier's sizes: past them the worst-case depth of naive_sum
// and CUB (n - 1) makes its bound empty, while exact-integer data stays exact at any n.
rc::Gen<FloatData> float_data(std::int64_t n) {
  if (n > kl::gen::max_count()) return rc::gen::just(FloatData::exact_integers);
  return rc::gen::element(FloatData::exact_integers, FloatData::rounding);
}

// A shape for `v`: any count of the tier, a block it accepts, either dtype.
Shape shape_for(const Variant& v) {
  return {*kl::gen::count_for_tier(0).as("n"), *block_for(v).as("block"), *dtype().as("dtype")};
}

void check_matches_oracle(const Variant& v) {
  const Shape shape = shape_for(v);
  const FloatData data = *float_data(shape.n).as("float data");
  const auto seed = *rc::gen::arbitrary<std::uint64_t>().as("data seed");
  const CaseResult r = run_case(v, shape, make_inputs(shape, seed, data));
  if (!r.ok()) RC_FAIL(v.info.id() + ": " + r.describe());
}

}  // namespace

namespace kl::reduction {
inline void showValue(Dtype d, std::ostream& os) { os << to_string(d); }
inline void showValue(FloatData d, std::ostream& os) { os << to_string(d); }
}  // namespace kl::reduction

// Every clean rung: int sums exact; float sums exact on exact-integer data, within the rung's
// depth bound on rounding data; output guards intact.
KL_PROPERTY(ReductionProperty, EveryCleanRungMatchesTheOracle, ()) {
  check_matches_oracle(variant(*rc::gen::elementOf(clean_names()).as("variant")));
}

// Every clean rung with its input starting 0..3 elements past a 16-byte boundary: the vectorised
// rung's head and tail paths (and every rung's indexing) at every alignment, over count()'s
// edges (1, 2, 3, the primes 97, 1021, 1048573, 2^k +- 1) and uniform sizes.
KL_PROPERTY(ReductionProperty, EveryCleanRungSumsAtEveryStartOffset, ()) {
  const Variant& v = variant(*rc::gen::elementOf(clean_names()).as("variant"));
  const Shape shape = shape_for(v);
  const int offset = *rc::gen::inRange(0, 4).as("offset");
  const Inputs in = make_inputs(shape, *rc::gen::arbitrary<std::uint64_t>().as("data seed"));
  const CaseResult r = run_case(v, shape, in, oracle(shape.dtype, in), nullptr, offset);
  if (!r.ok()) RC_FAIL(v.info.id() + " at offset " + std::to_string(offset) + ": " + r.describe());
}

// Every clean rung (CUB too, as above) on every pair of edge classes of its declaration
// (reduction_edges.hpp: block, n, data, input offset), each pair in every run, with the checks of
// EveryCleanRungMatchesTheOracle and EveryCleanRungSumsAtEveryStartOffset at once: naive_sum with
// block 1 past one grid, the vectorised rung's 3-element head with n below it, rounding data at
// every block. A rung that does not apply on this GPU (its rule says so) is skipped, by asking it.
TEST(ReductionPairwise, EveryCleanRungOnEveryPairOfEdges) {
  for (const std::string& name : clean_names()) {
    const Variant& v = variant(name);
    if (const std::string why = v.unsupported(smallest_shape(v)); kl::does_not_apply(why)) {
      std::cout << v.info.id() << " skipped: " << why << "\n";
      continue;
    }
    kl::pairwise::check_every_pair(name, edges_for(v), [&v](const kl::pairwise::Values& x) {
      const Shape shape = shape_of(v, x);
      kl::pairwise::require_declared_shape(v, shape);
      const auto offset = static_cast<int>(x["input offset"]);
      const Inputs in = make_inputs(shape, *rc::gen::arbitrary<std::uint64_t>().as("data seed"), float_data_of(x));
      const CaseResult r = run_case(v, shape, in, oracle(shape.dtype, in), nullptr, offset);
      if (!r.ok()) RC_FAIL(v.info.id() + " at offset " + std::to_string(offset) + ": " + r.describe());
    });
  }
}

// The flawed rung as the seed writes it (volatile, no __syncwarp) sums right on the H100 and is
// benchmarked, so its values are checked like every clean rung's. Its own suite: racecheck, which
// reports its hazards (kl.expect.race-reduce-unroll-volatile), leaves it out; the others run it.
KL_PROPERTY(FlawedUnrollLastWarpProperty, SumsMatchTheOracle, ()) {
  check_matches_oracle(variant("unroll_last_warp"));
}

// An integer sum is the same under any permutation of its input (order-independent and exact):
// the sums before and after are compared with each other, not only each with the oracle.
KL_PROPERTY(ReductionProperty, IntSumIsUnchangedUnderPermutation, ()) {
  const Variant& v = variant(*rc::gen::elementOf(clean_names()).as("variant"));
  const Shape shape{*kl::gen::count(1).as("n"), *block_for(v).as("block"), Dtype::i32};
  const auto seed = *rc::gen::arbitrary<std::uint64_t>().as("data seed");
  Inputs in = make_inputs(shape, seed);
  const Oracle want = oracle(shape.dtype, in);
  double before = 0, after = 0;
  const CaseResult r_before = run_case(v, shape, in, want, &before);
  std::shuffle(in.i.begin(), in.i.end(), std::mt19937_64(seed ^ 0x9e3779b97f4a7c15ull));
  const CaseResult r_after = run_case(v, shape, in, want, &after);
  if (!r_before.ok() || !r_after.ok())
    RC_FAIL(v.info.id() + ": " + r_before.describe() + " / " + r_after.describe());
  RC_ASSERT(before == after);
}

// All clean rungs agree with each other on one input: each passes its own check, and any two
// differ by at most the sum of their allowances (0 for int and for exact-integer float data, so
// there they must be equal bit for bit).
KL_PROPERTY(ReductionProperty, AllRungsAgree, ()) {
  const Shape shape{*kl::gen::count_for_tier(0).as("n"), 64, *dtype().as("dtype")};
  const FloatData data = *float_data(shape.n).as("float data");
  const Inputs in = make_inputs(shape, *rc::gen::arbitrary<std::uint64_t>().as("data seed"), data);
  const Oracle want = oracle(shape.dtype, in);  // once, not once per rung: at 10^8 it costs
  const Variant* first = nullptr;
  double first_sum = 0;
  for (const Variant& v : variants()) {
    if (v.info.has_findings() || kl::does_not_apply(v.unsupported(shape))) continue;
    double sum = 0;
    const CaseResult r = run_case(v, shape, in, want, &sum);
    if (!r.ok()) RC_FAIL(v.info.id() + ": " + r.describe());
    if (!first) {
      first = &v;
      first_sum = sum;
      continue;
    }
    const double allowed = shape.dtype == Dtype::i32
                               ? 0.0
                               : float_sum_allowance(*first, shape, want) + float_sum_allowance(v, shape, want);
    if (!(std::abs(sum - first_sum) <= allowed))
      RC_FAIL(v.info.id() + " = " + std::to_string(sum) + " vs " + first->info.id() + " = " +
              std::to_string(first_sum) + ", allowed " + std::to_string(allowed));
  }
}

// Rung 10 where it streams through its ring and where the ring wraps: its grid capped at 1-8 blocks
// (cap_ring_grid; 1-3 under a sanitizer), so that a few dozen 32 KiB chunks make each block take
// several round its ring of 3 stages: chunks from one more than the blocks to 8 times the blocks (5
// under a sanitizer), a rest of 0..8191 elements, the input 0-3 elements past a 16-byte boundary,
// any block the rung takes, either dtype (float data as the tier draws it: exact integers or
// rounding values within the capped plan's depth bound). Uncapped, the ring needs ~2.2 M elements and
// wraps past ~6.5 M on an H100: past the normal tier's sizes (2^22) and every sanitizer's (the unit
// test BulkCopyRing.* runs one ring size under the tools). The cap must reach the plan: the rung
// streams the shape on exactly the capped grid.
KL_PROPERTY(ReductionProperty, BulkCopyRingIsExactRoundItsRing, ()) {
  const Variant& v = variant("bulk_copy_ring");
  const bool small = kl::sanitizer_small_mode();
  const int cap = *kl::gen::uniform(1, small ? 3 : 8).as("ring grid cap (blocks)");
  const std::int64_t chunks = *kl::gen::uniform<std::int64_t>(cap + 1, (small ? 5 : 8) * std::int64_t{cap}).as("whole chunks");
  const Shape shape{chunks * 8192 + *kl::gen::uniform<std::int64_t>(0, 8191).as("rest"), *block_for(v).as("block"),
                    *dtype().as("dtype")};
  const int offset = *rc::gen::inRange(0, 4).as("offset");
  if (!runs_here(v)) {  // below compute capability 9.0: refused, never run (a discard would give up)
    RC_ASSERT(kl::does_not_apply(v.unsupported(shape)));
    RC_TAG("does not apply on this GPU");
    return;
  }
  const RingGridCap capped(cap);
  RC_ASSERT(bulk_copy_ring_streams(shape));
  RC_ASSERT(bulk_copy_ring_blocks(shape) == cap);
  // The input's whole chunks start at its first 16-byte boundary: `chunks` or one fewer.
  RC_TAG((chunks - 1 + cap - 1) / cap > 3 ? "the ring wraps" : "one lap or less");
  const Inputs in = make_inputs(shape, *rc::gen::arbitrary<std::uint64_t>().as("data seed"), *float_data(shape.n).as("float data"));
  const CaseResult r = run_case(v, shape, in, oracle(shape.dtype, in), nullptr, offset);
  if (!r.ok()) RC_FAIL(v.info.id() + " on " + std::to_string(cap) + " blocks at offset " + std::to_string(offset) + ": " + r.describe());
}

// A block that is not a power of two, or is over 1024, is refused with the rule named.
KL_PROPERTY(ReductionProperty, BadBlocksAreRejectedWithAClearError, ()) {
  // The rungs with a block rule that run on this GPU: one that does not apply (rung 10 and its
  // twins below compute capability 9.0) refuses every block with that answer instead.
  std::vector<std::string> tree;
  for (const Variant& v : variants())
    if (v.info.role != kl::Role::reference && v.info.name != "naive_sum" &&
        runs_here(v))
      tree.push_back(v.info.name);
  const Variant& v = variant(*rc::gen::elementOf(tree).as("variant"));
  const int block = *kl::gen::bad_power_of_two_block(v.supports({1, 32, Dtype::i32}) ? 32 : 64).as("block");
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
// shrunk case. (Its suite is left out of racecheck only, which reports its hazards.)
TEST(PlantedReductionNoVolatile, OraclePropertyFindsAWrongSum) {
  const Variant& v = variant("unroll_last_warp_no_volatile");
  const auto property = [&v] {
    const Shape shape{*kl::gen::count(1).as("n"),
                      *block_for(v).as("block"), *dtype().as("dtype")};
    const auto seed = *rc::gen::arbitrary<std::uint64_t>().as("data seed");
    const CaseResult r = run_case(v, shape, make_inputs(shape, seed));
    RC_ASSERT(r.ok());
  };
  rc::detail::TestMetadata metadata;
  metadata.id = "PlantedReductionNoVolatile/OraclePropertyFindsAWrongSum";
  const rc::detail::TestResult result = rc::detail::checkTestable(property, metadata, kl::prop::tier_params());
  std::ostringstream message;
  rc::detail::printResultMessage(result, message);
  ASSERT_TRUE(result.is<rc::detail::FailureResult>())
      << "the planted race went unnoticed: every random case summed right.\n" << message.str();
  std::cout << "caught as expected; shrunk counterexample:\n" << message.str() << "\n";
}
