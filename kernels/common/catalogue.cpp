// The one place that lists the families; each family lists its own variants.
#include "kl/basics.hpp"
#include "kl/dispatch.hpp"
#include "kl/elementwise.hpp"
#include "kl/reduction.hpp"
#include "kl/matmul.hpp"
#include "kl/quicksort.hpp"
#include "kl/registry.hpp"
#include "kl/riemann.hpp"
#include "kl/sync.hpp"

namespace kl {

std::string_view to_string(Checker checker) {
  switch (checker) {
    case Checker::memcheck: return "memcheck";
    case Checker::racecheck: return "racecheck";
    case Checker::synccheck: return "synccheck";
    case Checker::initcheck: return "initcheck";
    case Checker::canary: return "canary";
    case Checker::oracle: return "oracle";
    case Checker::watchdog: return "watchdog";
  }
  return "?";
}

bool is_sanitizer_tool(Checker checker) {
  return checker == Checker::memcheck || checker == Checker::racecheck ||
         checker == Checker::synccheck || checker == Checker::initcheck;
}

namespace {
template <class Table>
void append(std::vector<const VariantInfo*>& all, const Table& table) {
  for (const auto& v : table) all.push_back(&v.info);
}
}  // namespace

std::vector<const VariantInfo*> catalogue() {
  std::vector<const VariantInfo*> all;
  append(all, elementwise::variants());
  append(all, dispatch::variants());
  append(all, sync::variants());
  append(all, reduction::variants());
  append(all, riemann::variants());
  append(all, matmul::variants());
  append(all, imatmul::variants());
  append(all, basics::variants());
  append(all, quicksort::variants());
  return all;
}

const VariantInfo& find_info(std::string_view id) {
  for (const VariantInfo* info : catalogue())
    if (info->id() == id) return *info;
  throw std::invalid_argument("unknown variant '" + std::string(id) +
                              "' (run `kernel-lab list` for the known family.variant names)");
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
