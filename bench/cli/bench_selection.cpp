#include "bench_selection.hpp"

#include "args.hpp"

#include "kl/registry.hpp"

#include <algorithm>

namespace kl::cli {
namespace {

std::string benched_families() {
  std::string names;
  for (const BenchHook& h : bench_hooks())
    if (!h.excluded_because) names += (names.empty() ? "" : ", ") + std::string(h.family);
  return names;
}

// Families of the catalogue without a line in the hook table (a new family before its hook).
std::vector<std::string> families_without_hook() {
  std::vector<std::string> out;
  for (const VariantInfo* v : catalogue())
    if (!find_bench_hook(v->family) && (out.empty() || out.back() != v->family)) out.push_back(v->family);
  return out;
}

}  // namespace

BenchSelection select_bench_cases(const std::string& family_flag, const std::string& variant_flag) {
  std::string family = family_flag, variant = variant_flag;
  if (family.empty() && !variant.empty()) {
    const auto dot = variant.find('.');
    if (dot == std::string::npos)
      throw UsageError("--variant '" + variant + "' needs --family, or the form family.variant (e.g. matmul.naive)");
    family = variant.substr(0, dot);
    variant = variant.substr(dot + 1);
  }
  if (!family.empty()) {
    const BenchHook* hook = find_bench_hook(family);
    if (!hook) throw UsageError("unknown family '" + family + "' (benchmarked: " + benched_families() + ")");
    if (hook->excluded_because)
      throw UsageError("family '" + family + "' is not benchmarked: " + hook->excluded_because);
  }

  BenchSelection sel;
  for (const BenchHook& h : bench_hooks()) {
    if (h.excluded_because) {
      sel.excluded.push_back({h.family, h.excluded_because});
      continue;
    }
    if (!family.empty() && family != h.family) continue;
    bool found = variant.empty();
    std::vector<std::string> names;
    for (const BenchCase& c : h.cases()) {
      const bool wanted = variant.empty() || c.variant == variant;
      if (!c.skip_reason.empty()) {
        if (wanted) {
          if (!variant.empty())
            throw UsageError(h.family + std::string(".") + variant + " is not benchmarked: " + c.skip_reason);
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
    if (variant.empty()) sel.complete_families.insert(h.family);
  }
  for (const std::string& f : families_without_hook())
    sel.excluded.push_back({f, "no bench hook yet: add one in bench/cli/bench_hooks.cpp (see bench_hook.hpp)"});
  return sel;
}

}  // namespace kl::cli
