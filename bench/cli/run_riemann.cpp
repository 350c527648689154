// `kernel-lab run riemann.<variant> --n N [--block B]`: checks the sum against the closed-form
// integral and the CPU left sum, then prints the time, intervals per second, and the ratio to the
// fastest GPU rung of the family timed in this process at the same shape. No GFLOP/s: exp and sin
// are library routines whose operation count depends on the argument (sin's range reduction), so
// any per-evaluation flop count would be invented.
#include "run_support.hpp"

#include "kl/device_buffer.hpp"
#include "kl/device_facts.hpp"
#include "kl/riemann.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <ostream>

namespace kl::cli {
namespace {

void print_sum(std::ostream& out, const riemann::CheckedSum& r, const riemann::Oracle& want) {
  out << std::setprecision(17) << "sum: " << r.sum << " (CPU left sum " << want.left_sum << ", integral "
      << want.integral << ")\n"
      << std::setprecision(3) << "      |sum - integral| " << std::abs(r.sum - want.integral) << " <= "
      << riemann::integral_bound(want) << " (discretisation " << riemann::discretisation_bound(want.n)
      << "); |sum - CPU left sum| " << std::abs(r.sum - want.left_sum) << " <= " << riemann::left_sum_bound(want)
      << "\n";
  out << std::setprecision(6);
}

}  // namespace

int run_riemann(const VariantInfo& info, const ParsedArgs& a, std::ostream& out) {
  const riemann::Variant& v = riemann::variant(info.name);
  const riemann::Shape shape{a.integer("n", std::int64_t{1} << 26, -wide_range, wide_range),
                             static_cast<int>(a.integer("block", 256, -wide_range, wide_range))};
  require_supported(info, v.unsupported(shape));
  const int reps = reps_flag(a);
  require_gpu();
  out << info.id() << ": n=" << shape.n << " block=" << shape.block << " on [" << riemann::a << ", " << riemann::b
      << "], f(x) = e^x sin(x)\n";
  const riemann::Oracle want = riemann::oracle(shape.n);
  const riemann::CheckedSum r = riemann::run_case(v, shape, want);
  print_check(out, r.check);
  print_sum(out, r, want);
  if (!r.check.ok()) return 1;

  DeviceBuffer<double> sum(1);
  const auto time_variant = [&](const riemann::Variant& w) {
    // The CPU reference recomputes n host terms per run: no warm-up and at most 3 runs.
    const bool host = w.info.role == Role::reference;
    return time_device_work([&](cudaStream_t s) { w.launch({sum.data(), shape}, s); }, host ? 0 : 3,
                            host ? std::min(reps, 3) : reps);
  };
  const TimingSummary t = time_variant(v);
  // The timed runs are checked too: the last one's sum must still be within the bound.
  const double timed_sum = sum.download()[0];
  if (!riemann::compare_sum(timed_sum, want).ok()) {
    out << std::setprecision(17) << "check: FAIL (a timed run returned " << timed_sum << ")\n";
    return 1;
  }
  print_timing(out, t, 0);
  const double n = static_cast<double>(shape.n);
  out << std::setprecision(3) << "throughput: " << n / (t.median_ms * 1e6) << " G intervals/s\n";

  double best_ms = std::numeric_limits<double>::infinity();
  std::string best;
  for (const riemann::Variant& w : riemann::variants()) {
    if (w.info.role != Role::teaching) continue;
    const double ms = &w == &v ? t.median_ms : time_variant(w).median_ms;
    if (ms < best_ms) best_ms = ms, best = w.info.name;
  }
  out << std::fixed << std::setprecision(3) << "ratio: " << best_ms / t.median_ms
      << " of the fastest GPU rung timed here (" << best << ", " << std::setprecision(4) << best_ms << " ms, "
      << std::setprecision(3) << n / (best_ms * 1e6) << " G intervals/s)\n";
  out.unsetf(std::ios::floatfield);
  return 0;
}

}  // namespace kl::cli
