#include "bench_selection.hpp"

#include "args.hpp"
#include "family.hpp"

#include "kl/registry.hpp"

#include <algorithm>

namespace kl::cli {
namespace {

std::string benched_families() {
  std::string names;
  for (const Family* f : families())
    if (f->benchmarked()) names += (names.empty() ? "" : ", ") + f->name;
  return names;
}

// Why a family is not measured: its own reason, or that it has no bench cases yet.
std::string exclusion_of(const Family& f) {
  if (!f.not_benchmarked.empty()) return f.not_benchmarked;
  return "no bench cases yet: give its Family bench_cases and bench_measure, or a not_benchmarked reason "
         "(harness/cli/family.hpp)";
}

std::string swept_families() {
  std::string names;
  for (const Family* f : families())
    if (f->sweep_cases) names += (names.empty() ? "" : ", ") + f->name;
  return names;
}

}  // namespace

BenchSelection select_bench_cases(const std::string& family_flag, const std::string& variant_flag, bool sweep) {
  std::string family = family_flag, variant = variant_flag;
  if (family.empty() && !variant.empty()) {
    const auto dot = variant.find('.');
    if (dot == std::string::npos)
      throw UsageError("--variant '" + variant + "' needs --family, or the form family.variant (e.g. " +
                       example_variant_id() + ")");
    family = variant.substr(0, dot);
    variant = variant.substr(dot + 1);
    if (family.empty() || variant.empty())
      throw UsageError("--variant '" + variant_flag + "': the form is family.variant, both named (e.g. " +
                       example_variant_id() + ")");
  }
  if (!family.empty()) {
    const auto known = families();
    const auto it = std::find_if(known.begin(), known.end(), [&](const Family* f) { return f->name == family; });
    if (it == known.end()) throw UsageError("unknown family '" + family + "' (benchmarked: " + benched_families() + ")");
    if (!(*it)->benchmarked()) throw UsageError("family '" + family + "' is not benchmarked: " + exclusion_of(**it));
    if (sweep && !(*it)->sweep_cases)
      throw UsageError("--sweep: family '" + family + "' has no size sweep (swept: " + swept_families() + ")");
  }

  BenchSelection sel;
  for (const Family* h : families()) {
    if (!h->benchmarked()) {
      sel.excluded.push_back({h->name, exclusion_of(*h)});
      continue;
    }
    if (!family.empty() && family != h->name) continue;
    bool found = variant.empty();
    std::vector<std::string> names;
    std::vector<BenchCase> cases = h->bench_cases();
    if (sweep && h->sweep_cases)
      for (const BenchCase& c : h->sweep_cases())  // a swept n the bench already measures is kept once
        if (std::none_of(cases.begin(), cases.end(), [&](const BenchCase& b) { return b.key() == c.key(); }))
          cases.push_back(c);
    for (const BenchCase& c : cases) {
      const bool wanted = variant.empty() || c.variant == variant;
      if (!c.skip_reason.empty()) {
        if (wanted) {
          if (!variant.empty() && c.sweep.empty())  // a swept size it skips is listed, the variant still runs
            throw UsageError(h->name + "." + variant + " is not benchmarked: " + c.skip_reason);
          sel.excluded.push_back({c.key(), c.skip_reason});
        }
        continue;
      }
      if (std::find(names.begin(), names.end(), c.variant) == names.end()) names.push_back(c.variant);
      if (wanted) {
        found = true;
        sel.cases.push_back(c);
      }
    }
    if (!found) {
      std::string known;
      for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
      throw UsageError("unknown variant '" + variant + "' in family '" + family + "' (benchmarked: " + known + ")");
    }
    if (variant.empty()) sel.complete_families.insert(h->name);
  }
  return sel;
}

}  // namespace kl::cli
