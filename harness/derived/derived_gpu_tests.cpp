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

std::vector<const kl::VariantInfo*> clean_variants() {
  std::vector<const kl::VariantInfo*> out;
  for (const kl::Family* f : families())
    for (const kl::VariantInfo* v : f->variants)
      if (!v->has_findings()) out.push_back(v);
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
  for (const kl::Family* f : families())
    for (const kl::VariantInfo* v : f->variants) {
      if (v->has_findings()) continue;
      for (const std::vector<std::string>& flags : f->derived.unit_shapes) {
        // A shape outside the variant's own rule (DerivedRules checks each variant takes some).
        if (!f->derived.rule(*v, flags).empty()) continue;
        const kl::CaseResult r = f->derived.check(*v, flags, unit_seed);
        EXPECT_TRUE(r.ok()) << v->id() << " " << joined(flags) << ": " << r.describe()
                            << "\n  replay: " << replay(*v, flags, unit_seed);
      }
    }
}

// A shape of one of the families' kinds first, then a clean variant whose rules take it: a
// variant's own rule may be narrow (blocks that tile the shape, power-of-two blocks), and drawing
// the variant first would discard most of its shapes (RapidCheck gives up under a sanitizer's
// few cases). A shape no clean variant takes (an empty grid for families that refuse one) is
// discarded.
KL_PROPERTY(DerivedProperty, EveryCleanVariantMatchesTheOracle, ()) {
  std::vector<std::string> kinds;
  for (const kl::VariantInfo* v : clean_variants()) {
    const std::string& kind = kl::find_family(v->family).derived.shape_kind;
    if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) kinds.push_back(kind);
  }
  RC_PRE(!kinds.empty());
  const std::string kind = *rc::gen::elementOf(kinds).as("shape kind");
  const std::vector<std::string> shape = *shape_flags(kind).as("shape");
  std::vector<std::string> takers;
  for (const kl::VariantInfo* v : clean_variants()) {
    const kl::Family& f = kl::find_family(v->family);
    if (f.derived.shape_kind == kind && f.derived.rule(*v, f.derived.named(shape)).empty()) takers.push_back(v->id());
  }
  RC_PRE(!takers.empty());
  const kl::VariantInfo& v = kl::find_info(*rc::gen::elementOf(takers).as("variant"));
  const kl::Family& f = kl::find_family(v.family);
  const std::vector<std::string> flags = f.derived.named(shape);
  const auto seed = *rc::gen::arbitrary<std::uint64_t>().as("data seed");
  const kl::CaseResult r = f.derived.check(v, flags, seed);
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
        ++findings;
        const kl::CaseResult r = f->derived.check(*v, finding.run_args, unit_seed);
        const std::string where = v->id() + " " + joined(finding.run_args) + " (" +
                                  std::string(kl::to_string(finding.checker)) + ")";
        if (finding.checker == kl::Checker::canary)
          EXPECT_GT(r.guards.damaged_before + r.guards.damaged_after, 0u) << where << ": " << r.describe();
        else
          EXPECT_GT(r.mismatch_count, 0u) << where << ": " << r.describe();
        const kl::VariantInfo& fix = kl::find_info(finding.fixed_by);
        const kl::CaseResult fixed = kl::find_family(fix.family).derived.check(fix, finding.run_args, unit_seed);
        EXPECT_TRUE(fixed.ok()) << "the fix " << fix.id() << " of " << where << ": " << fixed.describe()
                                << "\n  replay: " << replay(fix, finding.run_args, unit_seed);
      }
  if (findings == 0) GTEST_SKIP() << "no planted variant declares a canary or oracle finding";
}
