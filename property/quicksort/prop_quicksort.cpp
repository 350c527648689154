// Properties of the quicksort family: the fixed qs_gpu returns a sorted permutation of any input
// up to its limit, and refuses larger inputs before launching anything.
#include "generators.hpp"
#include "property.hpp"

#include "kl/quicksort.hpp"

#include <algorithm>

using namespace kl::quicksort;

namespace {
std::int64_t size_limit() { return kl::sanitizer_small_mode() ? 3000 : max_n; }
}  // namespace

KL_PROPERTY(QuicksortProperty, OutputIsTheSortedPermutationOfTheInput, ()) {
  const std::int64_t n = *rc::gen::weightedOneOf<std::int64_t>({
      {2, rc::gen::elementOf(kl::gen::edge_counts(size_limit()))},
      {1, rc::gen::inRange<std::int64_t>(0, size_limit() + 1)},
  }).as("n");
  const auto seed = *rc::gen::arbitrary<std::uint64_t>().as("data seed");
  std::vector<int> input = make_input(n, seed);
  // A third of the cases presorted (quicksort's worst case with the first element as pivot).
  if (*rc::gen::inRange(0, 3).as("presorted when 0") == 0) std::sort(input.begin(), input.end());
  const kl::CaseResult r = run_case(variant("qs_gpu"), input);
  if (!r.ok()) RC_FAIL("qs_gpu n=" + std::to_string(n) + ": " + r.describe());
}

KL_PROPERTY(QuicksortProperty, SizesPastTheLimitAreRefusedBeforeLaunch, ()) {
  const std::int64_t n = *rc::gen::inRange<std::int64_t>(max_n + 1, std::int64_t{1} << 40).as("n");
  RC_ASSERT_FALSE(variant("qs_gpu").supports({n}));
  RC_ASSERT_THROWS_AS(variant("qs_gpu").launch({nullptr, {n}}), std::invalid_argument);
}
