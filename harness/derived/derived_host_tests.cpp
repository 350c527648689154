// The host tests every family with derived checks gets without writing them (family.hpp,
// DerivedChecks): its rules, its program and its CMake registrations, no GPU needed.
//   DerivedRules.EveryUnitShapeAndEveryCleanVariantMeet
//   DerivedRules.ShapesOutsideTheRulesAreRefusedNamingTheRule   (by the rule and by `run`, exit 2)
//   DerivedProgram.ListsEveryVariantAndRefusesUnknownOnes
//   DerivedRegistration.PlantedFindingsAndBenchedFamiliesMatchCMake
#include "derived.hpp"

#include "bench_context.hpp"
#include "cli.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace {

using kl::derived::families;
using kl::derived::joined;

int run_cli(const std::vector<std::string>& argv, std::string& out, std::string& err) {
  std::ostringstream o, e;
  const int code = kl::cli::main(argv, o, e);
  out = o.str();
  err = e.str();
  return code;
}

// The non-empty lines of the file an environment variable names (set by kl_add_lab).
std::set<std::string> lines_of(const char* variable) {
  const char* path = std::getenv(variable);
  if (path == nullptr) throw std::runtime_error(std::string(variable) + " is not set (run through ctest)");
  std::ifstream file(path);
  if (!file) throw std::runtime_error(std::string("cannot read ") + path);
  std::set<std::string> lines;
  for (std::string line; std::getline(file, line);)
    if (!line.empty()) lines.insert(line);
  return lines;
}

}  // namespace

// What DerivedShapes runs: every clean variant on every unit shape its rules take. Each unit shape
// is one some clean variant takes (none is wasted), and each clean variant takes one at least
// (a variant may narrow the kind's rules, e.g. blocks that tile the shape for a kernel without a
// bounds guard, but never out of the unit cases).
TEST(DerivedRules, EveryUnitShapeAndEveryCleanVariantMeet) {
  ASSERT_FALSE(families().empty()) << "no family of this program gives derived checks";
  for (const kl::Family* f : families())
    for (const kl::DerivedChecks& d : f->derived) {
      std::vector<int> takers(d.unit_shapes.size());
      for (const kl::VariantInfo* v : f->variants) {
        if (v->has_findings() || !d.covers(v->name)) continue;
        int taken = 0;
        for (std::size_t i = 0; i < takers.size(); ++i)
          if (d.rule(*v, d.unit_shapes[i]).empty()) ++taken, ++takers[i];
        EXPECT_GT(taken, 0) << v->id() << " takes none of the unit shapes";
      }
      for (std::size_t i = 0; i < takers.size(); ++i)
        EXPECT_GT(takers[i], 0) << f->name << " " << joined(d.unit_shapes[i]) << " is taken by no clean variant";
    }
}

TEST(DerivedRules, ShapesOutsideTheRulesAreRefusedNamingTheRule) {
  ASSERT_FALSE(families().empty()) << "no family of this program gives derived checks";
  for (const kl::Family* f : families())
    for (const kl::DerivedChecks& d : f->derived) {
      ASSERT_FALSE(d.refused_shapes.empty()) << f->name;
      for (const kl::VariantInfo* v : f->variants) {
        if (!d.covers(v->name)) continue;
        for (const auto& [flags, words] : d.refused_shapes) {
          EXPECT_NE(d.rule(*v, flags).find(words), std::string::npos)
              << v->id() << " " << joined(flags) << " must be refused with '" << words << "'";
          // The program refuses it before touching a GPU: exit 2, the variant and the rule named.
          std::vector<std::string> argv{"run", v->id()};
          argv.insert(argv.end(), flags.begin(), flags.end());
          std::string out, err;
          EXPECT_EQ(run_cli(argv, out, err), 2) << joined(argv) << "\n" << out << err;
          EXPECT_NE(err.find(v->id() + ": "), std::string::npos) << err;
          EXPECT_NE(err.find(words), std::string::npos) << err;
        }
      }
    }
}

TEST(DerivedProgram, ListsEveryVariantAndRefusesUnknownOnes) {
  ASSERT_FALSE(families().empty()) << "no family of this program gives derived checks";
  std::string list, out, err;
  ASSERT_EQ(run_cli({"list"}, list, err), 0) << err;
  for (const kl::Family* f : families()) {
    for (const kl::VariantInfo* v : f->variants) EXPECT_NE(list.find(v->name), std::string::npos) << v->id();
    EXPECT_EQ(run_cli({"run", f->name + ".no_such_variant"}, out, err), 2);
    EXPECT_NE(err.find("unknown variant '" + f->name + ".no_such_variant'"), std::string::npos) << err;
    EXPECT_EQ(run_cli({"run", f->variants.front()->id(), "--no-such-flag", "1"}, out, err), 2);
    EXPECT_NE(err.find("--no-such-flag"), std::string::npos) << err;
  }
}

// The expected-finding tests CMake registered (kl_add_planted_finding) are exactly the registry's
// sanitizer findings, and the perf tests (kl_add_family_perf_tests) exactly the benched families.
TEST(DerivedRegistration, PlantedFindingsAndBenchedFamiliesMatchCMake) {
  std::set<std::string> findings;
  for (const kl::PlantedFinding& p : kl::planted_findings())
    if (kl::is_sanitizer_tool(p.finding->checker))
      findings.insert(p.finding->repro + ":" + std::string(kl::to_string(p.finding->checker)));
  EXPECT_EQ(lines_of("KL_PLANTED_FINDINGS_FILE"), findings);
  std::set<std::string> benched;
  for (const kl::Family* f : kl::families())
    if (f->benchmarked()) benched.insert(f->name);
  EXPECT_EQ(lines_of("KL_BENCH_FAMILIES_FILE"), benched);
}
