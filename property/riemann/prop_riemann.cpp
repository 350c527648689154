// Properties of the Riemann family over random n (1, small, primes, warp and block edges, more
// intervals than one wave of the grid-stride rungs covers) and random power-of-two blocks.
// The host oracle costs n evaluations of exp and sin per case (about 4M at most, 5000 under a
// sanitizer).
#include "generators.hpp"
#include "pairwise.hpp"
#include "property.hpp"
#include "riemann_edges.hpp"

#include "kl/riemann.hpp"

#include <bit>
#include <cmath>
#include <sstream>

using namespace kl::riemann;

namespace {

std::vector<std::string> gpu_names() {
  std::vector<std::string> out;
  for (const Variant& v : variants())
    if (v.info.role == kl::Role::teaching) out.push_back(v.info.name);
  return out;
}

std::string precise(double x) {
  std::ostringstream os;
  os.precision(17);
  os << x;
  return os.str();
}

std::string describe(const std::string& id, const Shape& s, const CheckedSum& r) {
  return id + " n=" + std::to_string(s.n) + " block=" + std::to_string(s.block) + ": " + r.check.describe();
}

}  // namespace

// (a) and (b): every rung is within integral_bound of the closed-form integral and within
// left_sum_bound of the CPU left sum; the poisoned output was written and no canary changed.
KL_PROPERTY(RiemannProperty, EveryRungWithinItsBoundsOfTheIntegralAndTheCpuSum, ()) {
  const Variant& v = variant(*rc::gen::elementOf(gpu_names()).as("variant"));
  const Shape shape{*kl::gen::count(1).as("n"), *kl::gen::power_of_two_block(32).as("block")};
  const CheckedSum r = run_case(v, shape, oracle(shape.n));
  if (!r.check.ok()) RC_FAIL(describe(v.info.id(), shape, r));
}

// (a) and (b) for every rung on every pair of edge classes of its declaration (riemann_edges.hpp:
// power-of-two block, n from 1 interval to past one grid), each pair in every run: one interval
// in a block of 1024, a grid-stride loop that runs once or many times.
TEST(RiemannPairwise, EveryRungOnEveryPairOfEdges) {
  for (const std::string& name : gpu_names()) {
    const Variant& v = variant(name);
    kl::pairwise::check_every_pair(name, edges_for(v), [&v](const kl::pairwise::Values& x) {
      const Shape shape = shape_of(v, x);
      kl::pairwise::require_declared_shape(v, shape);
      const CheckedSum r = run_case(v, shape, oracle(shape.n));
      if (!r.check.ok()) RC_FAIL(describe(v.info.id(), shape, r));
    });
  }
}

// (c): on one shape all rungs agree pairwise within twice the GPU rounding bound (each is
// within one bound of the exact sum of the rounded terms), and each passes (a) and (b).
KL_PROPERTY(RiemannProperty, AllRungsAgreeWithEachOther, ()) {
  const Shape shape{*kl::gen::count(1).as("n"), *kl::gen::power_of_two_block(32).as("block")};
  const Oracle want = oracle(shape.n);
  std::vector<std::pair<std::string, double>> sums;
  for (const std::string& name : gpu_names()) {
    const CheckedSum r = run_case(variant(name), shape, want);
    if (!r.check.ok()) RC_FAIL(describe("riemann." + name, shape, r));
    sums.emplace_back(name, r.sum);
  }
  for (const auto& [first, s1] : sums)
    for (const auto& [second, s2] : sums)
      if (!(std::abs(s1 - s2) <= agreement_bound(want)))
        RC_FAIL(first + " = " + precise(s1) + " and " + second + " = " + precise(s2) + " differ by more than " +
                precise(agreement_bound(want)) + " at n=" + std::to_string(shape.n));
}

// A block that is not a power of two in 32..1024 is refused with the rule named, before launch.
KL_PROPERTY(RiemannProperty, BadBlocksAreRejectedWithAClearError, ()) {
  const Variant& v = variant(*rc::gen::elementOf(gpu_names()).as("variant"));
  const int block = *kl::gen::bad_power_of_two_block(32).as("block");
  RC_ASSERT(block < 32 || block > 1024 || !std::has_single_bit(static_cast<unsigned>(block)));
  kl::DeviceBuffer<double> out(1);
  try {
    v.launch({out.data(), {1000, block}});
    RC_FAIL("accepted block " + std::to_string(block));
  } catch (const std::invalid_argument& e) {
    RC_ASSERT(std::string(e.what()) ==
              v.info.id() + ": block size must be a power of two in 32..1024, got " + std::to_string(block));
  }
}
