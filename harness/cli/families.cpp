// The catalogue and the planted findings, derived from the program's families (family.hpp).
#include "family.hpp"

#include "cli.hpp"

#include <stdexcept>

namespace kl {

const Family& find_family(std::string_view name) {
  std::string known;
  for (const Family* f : families()) {
    if (f->name == name) return *f;
    known += (known.empty() ? "" : ", ") + f->name;
  }
  throw std::invalid_argument("unknown family '" + std::string(name) + "' (known: " + known + ")");
}

std::vector<const VariantInfo*> catalogue() {
  std::vector<const VariantInfo*> all;
  for (const Family* f : families()) all.insert(all.end(), f->variants.begin(), f->variants.end());
  return all;
}

const VariantInfo& find_info(std::string_view id) {
  for (const VariantInfo* info : catalogue())
    if (info->id() == id) return *info;
  throw std::invalid_argument("unknown variant '" + std::string(id) + "' (run `" + cli::program_name() +
                              " list` for the known family.variant names)");
}

std::string example_variant_id() {
  for (const VariantInfo* info : catalogue())
    if (info->role == Role::teaching) return info->id();
  return "family.variant";
}

std::vector<PlantedFinding> planted_findings() {
  std::vector<PlantedFinding> all;
  for (const VariantInfo* info : catalogue())
    for (const ExpectedFinding& f : info->findings) all.push_back({info, &f});
  return all;
}

PlantedFinding find_planted(std::string_view repro) {
  std::string known;
  for (const PlantedFinding& p : planted_findings()) {
    if (p.finding->repro.empty()) continue;
    if (p.finding->repro == repro) return p;
    known += (known.empty() ? "" : ", ") + p.finding->repro;
  }
  throw std::invalid_argument("unknown planted finding '" + std::string(repro) + "' (known: " + known + ")");
}

}  // namespace kl
