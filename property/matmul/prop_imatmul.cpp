// Properties of the imatmul family: every variant exact against the int64 oracle.
#include "generators.hpp"
#include "property.hpp"

#include "kl/matmul.hpp"

using namespace kl::imatmul;
using kl::CaseResult;

KL_PROPERTY(ImatmulProperty, EveryVariantIsExact, ()) {
  std::vector<std::string> names;
  for (const Variant& v : variants()) names.push_back(v.info.name);
  const Variant& v = variant(*rc::gen::elementOf(names).as("variant"));
  const std::int64_t limit = kl::sanitizer_small_mode() ? 64 : 300;
  const std::int64_t n = *rc::gen::weightedOneOf<std::int64_t>({
      {1, rc::gen::elementOf(std::vector<std::int64_t>{1, 2, 15, 16, 17, 31, 32, 33, 63, 64})},
      {1, rc::gen::inRange<std::int64_t>(1, limit + 1)},
  }).as("n");
  const CaseResult r = run_case(v, {n}, make_inputs({n}, *rc::gen::arbitrary<std::uint64_t>().as("data seed")));
  if (!r.ok()) RC_FAIL(v.info.id() + ": " + r.describe());
}
