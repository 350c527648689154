// Properties of the imatmul family: every variant exact against the int64 oracle.
#include "matmul_generators.hpp"
#include "property.hpp"

#include "kl/matmul.hpp"

using namespace kl::imatmul;
using kl::CaseResult;

KL_PROPERTY(ImatmulProperty, EveryVariantIsExact, ()) {
  std::vector<std::string> names;
  for (const Variant& v : variants()) names.push_back(v.info.name);
  const Variant& v = variant(*rc::gen::elementOf(names).as("variant"));
  const std::int64_t n = *kl::gen::imatmul_side().as("n");
  const CaseResult r = run_case(v, {n}, make_inputs({n}, *rc::gen::arbitrary<std::uint64_t>().as("data seed")));
  if (!r.ok()) RC_FAIL(v.info.id() + ": " + r.describe());
}
