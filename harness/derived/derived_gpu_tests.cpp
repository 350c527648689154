// The GPU tests every family with derived checks gets without writing them (family.hpp,
// DerivedChecks; the kit's families, kit.hpp, give them whole). Each case names its replay:
//   DerivedShapes.EveryCleanVariantPassesEveryUnitShape   empty, single, odd, overhanging shapes
//                                                       (those its rules take)
//   DerivedProperty.EveryCleanVariantMatchesTheOracle     generated shapes, blocks and data
//   PlantedDerived.EveryCanaryAndOracleFindingIsSeenAndItsFixIsSilent
// Clean variants are bit-exact (or within their ulps) against the oracle, write every element
// (the output is poisoned) and no canary. The Planted suite runs deliberate bugs: kl_add_lab
// leaves it out of the sanitizer runs whose tool reports them.
#include "derived.hpp"
#include "generators.hpp"
#include "kit.hpp"
#include "property.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using kl::derived::families;
using kl::derived::joined;
using kl::derived::replay;

constexpr std::uint64_t unit_seed = 5;

// A variant with the derived group that covers it.
struct Covered {
  const kl::VariantInfo* variant;
  const kl::DerivedChecks* derived;
};

std::vector<Covered> clean_variants() {
  std::vector<Covered> out;
  for (const kl::Family* f : families())
    for (const kl::VariantInfo* v : f->variants)
      if (const kl::DerivedChecks* d = f->derived_for(v->name); d != nullptr && !v->has_findings())
        out.push_back({v, d});
  return out;
}

// A shape the family's kind draws: sizes and blocks with their edges (generators.hpp), small
// under a sanitizer.
rc::Gen<std::vector<std::string>> shape_flags(const std::string& kind) {
  if (kind == "vector")
    return rc::gen::apply([](std::int64_t n, int block) { return kl::kit::flags_of(kl::kit::Vector{n, block}); },
                          kl::gen::count(0), kl::gen::any_block());
  return rc::gen::apply(
      [](int rows, int cols, kl::Dim2 block) { return kl::kit::flags_of(kl::kit::Matrix{rows, cols, block}); },
      kl::gen::side(), kl::gen::side(), kl::gen::block_2d());
}

}  // namespace

TEST(DerivedShapes, EveryCleanVariantPassesEveryUnitShape) {
  ASSERT_FALSE(clean_variants().empty()) << "no clean variant of a family with derived checks in this program";
  for (const auto& [v, d] : clean_variants())
    for (const std::vector<std::string>& flags : d->unit_shapes) {
      // A shape outside the variant's own rule (DerivedRules checks each variant takes some).
      if (!d->rule(*v, flags).empty()) continue;
      const kl::CaseResult r = d->check(*v, flags, unit_seed);
      EXPECT_TRUE(r.ok()) << v->id() << " " << joined(flags) << ": " << r.describe()
                          << "\n  replay: " << replay(*v, flags, unit_seed);
    }
}

// A shape of one of the families' kinds first, then a clean variant whose rules take it: a
// variant's own rule may be narrow (blocks that tile the shape, power-of-two blocks), and drawing
// the variant first would discard most of its shapes (RapidCheck gives up under a sanitizer's
// few cases). A shape no clean variant takes (an empty grid for families that refuse one) is
// discarded.
KL_PROPERTY(DerivedProperty, EveryCleanVariantMatchesTheOracle, ()) {
  const std::vector<Covered> clean = clean_variants();
  std::vector<std::string> kinds;
  for (const Covered& c : clean)
    if (std::find(kinds.begin(), kinds.end(), c.derived->shape_kind) == kinds.end()) kinds.push_back(c.derived->shape_kind);
  RC_PRE(!kinds.empty());
  const std::string kind = *rc::gen::elementOf(kinds).as("shape kind");
  const std::vector<std::string> shape = *shape_flags(kind).as("shape");
  std::vector<std::string> takers;
  for (const Covered& c : clean)
    if (c.derived->shape_kind == kind && c.derived->rule(*c.variant, c.derived->named(shape)).empty())
      takers.push_back(c.variant->id());
  RC_PRE(!takers.empty());
  const kl::VariantInfo& v = kl::find_info(*rc::gen::elementOf(takers).as("variant"));
  const kl::DerivedChecks& d = *kl::find_family(v.family).derived_for(v.name);
  const std::vector<std::string> flags = d.named(shape);
  const auto seed = *rc::gen::arbitrary<std::uint64_t>().as("data seed");
  const kl::CaseResult r = d.check(v, flags, seed);
  if (!r.ok()) RC_FAIL(v.id() + " " + joined(flags) + ": " + r.describe() + "\n  replay: " + replay(v, flags, seed));
}

// A planted variant's canary and oracle findings, at the shape each names: the check reports
// it, and the same check on the variant that fixes it is silent.
TEST(PlantedDerived, EveryCanaryAndOracleFindingIsSeenAndItsFixIsSilent) {
  int findings = 0;
  for (const kl::Family* f : families())
    for (const kl::VariantInfo* v : f->variants)
      for (const kl::ExpectedFinding& finding : v->findings) {
        if (finding.checker != kl::Checker::canary && finding.checker != kl::Checker::oracle) continue;
        const kl::DerivedChecks* d = f->derived_for(v->name);
        if (d == nullptr) continue;
        ++findings;
        const kl::CaseResult r = d->check(*v, finding.run_args, unit_seed);
        const std::string where = v->id() + " " + joined(finding.run_args) + " (" +
                                  std::string(kl::to_string(finding.checker)) + ")";
        if (finding.checker == kl::Checker::canary)
          EXPECT_GT(r.guards.damaged_before + r.guards.damaged_after, 0u) << where << ": " << r.describe();
        else
          EXPECT_GT(r.mismatch_count, 0u) << where << ": " << r.describe();
        const kl::VariantInfo& fix = kl::find_info(finding.fixed_by);
        const kl::DerivedChecks* fix_checks = kl::find_family(fix.family).derived_for(fix.name);
        ASSERT_NE(fix_checks, nullptr) << "the fix " << fix.id() << " of " << where << " has no derived checks";
        const kl::CaseResult fixed = fix_checks->check(fix, finding.run_args, unit_seed);
        EXPECT_TRUE(fixed.ok()) << "the fix " << fix.id() << " of " << where << ": " << fixed.describe()
                                << "\n  replay: " << replay(fix, finding.run_args, unit_seed);
      }
  if (findings == 0) GTEST_SKIP() << "no planted variant declares a canary or oracle finding";
}
