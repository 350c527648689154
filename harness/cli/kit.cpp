// The kit (kit.hpp): what exists once in a program, beside the instantiations (kit_<type>.cpp):
// the registry of the families it built, the shapes' generic `run` flags, and joined families.
#include "kit_family.hpp"

#include <algorithm>
#include <memory>

namespace kl::kit {

namespace detail {
std::map<std::string, Entry, std::less<>>& built() {
  static std::map<std::string, Entry, std::less<>> families;
  return families;
}

namespace {

// Each of `parts`' run flags once, in order of first appearance; where parts differ in what a
// flag takes or says, the forms are joined ("B|BXxBY"; "elements (default 2^20); ...").
std::vector<cli::FlagSpec> union_of(const std::vector<const Family*>& parts) {
  std::vector<cli::FlagSpec> flags;
  std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> forms;  // values, helps
  const auto add = [](std::vector<std::string>& into, const std::string& form) {
    if (std::find(into.begin(), into.end(), form) == into.end()) into.push_back(form);
  };
  for (const Family* part : parts)
    for (const cli::FlagSpec& flag : part->run_flags) {
      auto it = std::find_if(flags.begin(), flags.end(), [&](const cli::FlagSpec& f) { return f.name == flag.name; });
      if (it == flags.end()) {
        flags.push_back(flag);
        forms.emplace_back();
        it = flags.end() - 1;
      }
      auto& [values, helps] = forms[static_cast<std::size_t>(it - flags.begin())];
      add(values, flag.value);
      add(helps, flag.help);
    }
  for (std::size_t i = 0; i < flags.size(); ++i) {
    flags[i].value = flags[i].help = "";
    for (const std::string& v : forms[i].first) flags[i].value += (flags[i].value.empty() ? "" : "|") + v;
    for (const std::string& h : forms[i].second) flags[i].help += (flags[i].help.empty() ? "" : "; ") + h;
  }
  return flags;
}

}  // namespace
}  // namespace detail

const Family& make_family(Joined joined) {
  const std::string where = "joined family '" + joined.name + "': ";
  if (joined.parts.empty()) throw std::invalid_argument(where + "no parts");
  if (detail::built().count(joined.name)) throw std::invalid_argument("kit family '" + joined.name + "' made twice");
  // The part of each variant; the family, like a kit family, lives as long as the program.
  auto owner = std::make_shared<std::map<std::string, const Family*, std::less<>>>();
  auto family = std::make_unique<Family>();
  Family* f = family.get();
  f->name = joined.name;
  for (const Family* part : joined.parts) {
    if (part->name != joined.name)
      throw std::invalid_argument(where + "a part is named '" + part->name + "': each part's spec takes the family's name");
    for (const VariantInfo* v : part->variants) {
      if (!owner->emplace(v->name, part).second) throw std::invalid_argument(where + "variant '" + v->name + "' in two parts");
      f->variants.push_back(v);
    }
    for (const DerivedChecks& d : part->derived) f->derived.push_back(d);
    f->commands.insert(f->commands.end(), part->commands.begin(), part->commands.end());
  }
  // Catalogue order: the order given, which names every variant once.
  if (!joined.order.empty()) {
    if (joined.order.size() != f->variants.size())
      throw std::invalid_argument(where + "order names " + std::to_string(joined.order.size()) + " variants, the parts hold " +
                                  std::to_string(f->variants.size()));
    std::vector<const VariantInfo*> ordered;
    for (const std::string& name : joined.order) {
      const auto it = std::find_if(f->variants.begin(), f->variants.end(), [&](const VariantInfo* v) { return v->name == name; });
      if (it == f->variants.end()) throw std::invalid_argument(where + "order names '" + name + "', no part's variant");
      ordered.push_back(*it);
    }
    f->variants = ordered;
  }
  const auto part_of = [owner](std::string_view variant) { return owner->at(std::string(variant)); };
  // Cases of the parts, in catalogue order (a variant's swept sizes stay in their order).
  const auto in_order = [variants = f->variants](std::vector<cli::BenchCase> cases) {
    const auto rank = [&](const cli::BenchCase& c) {
      return std::find_if(variants.begin(), variants.end(), [&](const VariantInfo* v) { return v->name == c.variant; }) -
             variants.begin();
    };
    std::stable_sort(cases.begin(), cases.end(), [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
    return cases;
  };
  const std::vector<const Family*> parts = joined.parts;
  f->run_flags = detail::union_of(parts);
  f->variant_run_flags = [part_of](std::string_view v) { return part_of(v)->run_flags; };
  f->run = [part_of](const VariantInfo& info, const cli::ParsedArgs& a, std::ostream& out) {
    return part_of(info.name)->run(info, a, out);
  };
  f->bench_cases = [parts, in_order] {
    std::vector<cli::BenchCase> cases;
    for (const Family* part : parts) {
      const std::vector<cli::BenchCase> more = part->bench_cases();
      cases.insert(cases.end(), more.begin(), more.end());
    }
    return in_order(cases);
  };
  f->bench_measure = [part_of](const cli::BenchCase& c, cli::Bench& ctx) { return part_of(c.variant)->bench_measure(c, ctx); };
  if (std::any_of(parts.begin(), parts.end(), [](const Family* p) { return p->sweep_cases != nullptr; }))
    f->sweep_cases = [parts, in_order] {
      std::vector<cli::BenchCase> cases;
      for (const Family* part : parts)
        if (part->sweep_cases) {
          const std::vector<cli::BenchCase> more = part->sweep_cases();
          cases.insert(cases.end(), more.begin(), more.end());
        }
      return in_order(cases);
    };
  detail::built()[joined.name] = {"joined family", family.get()};
  return *family.release();
}

std::vector<std::string> flags_of(const Vector& s) {
  return detail::Kind<Vector>::flags_of(s, detail::Kind<Vector>::flags());
}
std::vector<std::string> flags_of(const Matrix& s) {
  return detail::Kind<Matrix>::flags_of(s, detail::Kind<Matrix>::flags());
}

}  // namespace kl::kit
