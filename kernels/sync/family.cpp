// The sync family as the harness sees it (family.hpp): the deadlock lab, not benchmarked.
// run: [--blocks N] [--block B] [--budget-ms MS] runs the variant once under the device watchdog
// (its budget: budget_of below) and prints what happened: "completed in X ms" or "deadlock
// detected after X ms: ...". The exit status says whether that outcome is the one the lab predicts
// (from the variant and, for grid barriers, the co-resident capacity): 0 when it is (a predicted
// deadlock that the watchdog reported is a success), 1 when it is not or when the blocks' results
// are wrong. A cooperative launch above capacity is refused: exit 2.
#include "family.hpp"
#include "run_support.hpp"

#include "kl/device_facts.hpp"
#include "kl/perturb.hpp"
#include "kl/sync.hpp"

#include <cstdint>
#include <iomanip>
#include <ostream>
#include <string>

namespace kl::cli {
namespace {

void print_outcome(std::ostream& out, const sync::Variant& v, const sync::Shape& shape, int capacity,
                   const sync::SyncCase& c) {
  out << std::fixed << std::setprecision(1);
  const bool grid = v.kind == sync::Kind::grid_barrier;
  const char* relation = shape.blocks > capacity ? " > " : " <= ";
  if (c.tripped) {
    out << "deadlock detected after " << c.elapsed_ms << " ms: ";
    if (grid)
      out << shape.blocks << " blocks" << relation << "capacity " << capacity << "\n";
    else
      out << "the watchdog ended a wait in a block of " << shape.block << " threads\n";
  } else {
    out << "completed in " << c.elapsed_ms << " ms";
    if (grid) out << ": " << shape.blocks << " blocks" << relation << "capacity " << capacity;
    out << "\n";
  }
  out.unsetf(std::ios::floatfield);
}

// The watchdog's budget: --budget-ms, else by what the run is for. A run predicted to complete
// gets sync::completion_budget_ms: its watchdog only ends a hang, and runs under a tool on a busy
// GPU are slow and uneven (a correct barrier spent 300 ms so in the unit tests: kl/sync.hpp); the
// findings' unperturbed and fix runs are such runs. A run predicted to deadlock, and every run of
// the perturbation build, whose perturbed runs of a planted barrier deadlock as their verdict (a
// seed each), get sync::deadlock_budget_ms: there the budget is what each deadlock costs, the GPU
// held by a spinning grid for all of it.
double budget_of(const ParsedArgs& a, std::int64_t flag, bool predicted_trip) {
  if (a.has("budget-ms")) return static_cast<double>(flag);
  return predicted_trip || perturb::compiled_in() ? sync::deadlock_budget_ms : sync::completion_budget_ms;
}

}  // namespace

int run_sync(const VariantInfo& info, const ParsedArgs& a, std::ostream& out) {
  const sync::Variant& v = sync::variant(info.name);
  const int block = static_cast<int>(a.integer("block", 256, -wide_range, wide_range));
  const std::int64_t budget_flag = a.integer("budget-ms", 1, 1, 60000);  // checked now, used if given (budget_of)
  const bool grid = v.kind == sync::Kind::grid_barrier;
  // Flags are validated before the GPU is touched; a grid barrier's default grid is its capacity.
  const std::int64_t blocks_flag = a.integer("blocks", 0, -wide_range, INT32_MAX);
  if (a.has("blocks")) require_supported(info, v.unsupported({static_cast<int>(blocks_flag), block}));
  else require_supported(info, v.unsupported({1, block}));
  require_gpu();
  const int capacity = sync::co_resident_capacity(v, block);
  const sync::Shape shape{a.has("blocks") ? static_cast<int>(blocks_flag) : (grid ? capacity : 1), block};
  const bool predicted_trip = sync::predicts_trip(v, shape, capacity);
  const double budget_ms = budget_of(a, budget_flag, predicted_trip);
  out << info.id() << ": blocks=" << shape.blocks << " block=" << shape.block << " budget=" << budget_ms
      << " ms, co-resident capacity " << capacity << " blocks of " << block << " threads\n"
      << "predicted: " << (predicted_trip ? "deadlock (the watchdog trips)" : "completes") << "\n";

  const sync::SyncCase c = sync::run_case(v, shape, budget_ms);
  print_outcome(out, v, shape, capacity, c);
  // A grid that gave up leaves blocks that saw fewer arrivals: only the guards must hold then.
  const bool gave_up = c.tripped && grid;
  const bool results_ok = gave_up ? c.result.guards.ok() : c.result.ok();
  if (gave_up)
    out << "blocks that saw every arrival: " << shape.blocks - static_cast<std::int64_t>(c.result.mismatch_count)
        << " of " << shape.blocks << "; guards " << (c.result.guards.ok() ? "intact" : "DAMAGED") << "\n";
  else
    print_check(out, c.result);
  if (c.tripped != predicted_trip) {
    out << "UNEXPECTED: predicted " << (predicted_trip ? "a deadlock" : "completion") << ", observed "
        << (c.tripped ? "a deadlock" : "completion") << "\n";
    return 1;
  }
  return results_ok ? 0 : 1;
}

}  // namespace kl::cli

namespace kl {

const Family& family_sync() {
  static const Family family = [] {
    Family f;
    f.name = "sync";
    f.variants = variants_of(sync::variants());
    f.run_flags = {{"blocks", "N", "blocks in the grid (default: the co-resident capacity for grid barriers, else 1)"},
                   {"block", "B", "threads per block (default 256)"},
                   {"budget-ms", "MS",
                    "the watchdog's budget before it reports a deadlock (default " +
                        std::to_string(static_cast<int>(sync::deadlock_budget_ms)) +
                        " when a deadlock is predicted or in the perturbation build, else " +
                        std::to_string(static_cast<int>(sync::completion_budget_ms)) + ")"}};
    f.run = cli::run_sync;
    f.not_benchmarked = "the deadlock lab: its kernels spin, deadlock under a watchdog or wait at barriers by "
                        "design; their time measures waiting, not throughput";
    return f;
  }();
  return family;
}

}  // namespace kl
