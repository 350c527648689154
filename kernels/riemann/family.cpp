// The riemann family as the harness sees it (family.hpp).
// run: --n N [--block B]: checks the sum against the closed-form integral and the CPU left sum,
// then prints the time, intervals per second, and the ratio to the fastest GPU rung of the
// family timed in this process at the same shape.
// bench: G intervals/s of the left Riemann sum over 2^27 intervals, each rung read against the
// warp-optimised rung measured in the same process (the seed's fastest design: one atomicAdd per
// warp). No GFLOP/s and no physical roof (Roof::none): the work is FP64 exp and sin per
// interval, library routines whose operation count depends on the argument (sin's range
// reduction), so any per-evaluation flop count would be invented.
#include "family.hpp"
#include "bench_context.hpp"
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

namespace kl::cli {
namespace {

constexpr std::int64_t bench_n = std::int64_t{1} << 27;
constexpr int bench_block = 256;
constexpr const char* ceiling_rung = "warp_optimised";

struct RiemannInput {
  bool ready = false;
  riemann::Oracle want;
  DeviceBuffer<double> sum{1};

  void build() {
    if (ready) return;
    want = riemann::oracle(bench_n);  // n host evaluations, once per process
    ready = true;
  }
};

}  // namespace

std::vector<BenchCase> riemann_bench_cases() { return cases_of<riemann::Variant>("riemann", riemann::variants()); }

bench::Result riemann_bench_measure(const BenchCase& c, Bench& ctx) {
  const riemann::Variant& v = riemann::variant(c.variant);
  RiemannInput& in = ctx.state<RiemannInput>("riemann");
  in.build();
  const riemann::Args args{in.sum.data(), {bench_n, bench_block}};
  const TimingSummary t = ctx.validated_timing(
      c, [&](cudaStream_t s) { poison_words(in.sum.data(), 2, s); }, [&](cudaStream_t s) { v.launch(args, s); },
      [&] { return riemann::compare_sum(in.sum.download()[0], in.want); });
  bench::Result r = throughput_result(c, "n=2^27 block=" + std::to_string(bench_block), t, 0, "Gintervals/s",
                                      bench::Roof::none, 0);
  r.value = t.median_ms > 0 ? static_cast<double>(bench_n) / (t.median_ms * 1e6) : 0;
  const std::string ceiling = std::string("riemann.") + ceiling_rung;
  const char* how = "the warp-optimised Riemann rung over 2^27 intervals";
  r.ceiling = ceiling;
  if (c.variant == ceiling_rung) {
    r.ceiling_value = r.value;
    ctx.offer_ceiling(ceiling, "Gintervals/s", how, r.value);
  } else {
    r.ceiling_value = ctx.ceiling(ceiling, "Gintervals/s", how,
                                  [&] { return riemann_bench_measure({"riemann", ceiling_rung, "", "", "", 0}, ctx).value; });
  }
  return r;
}

}  // namespace kl::cli

namespace kl {

const Family& family_riemann() {
  static const Family family = [] {
    Family f;
    f.name = "riemann";
    f.variants = variants_of(riemann::variants());
    f.run_flags = {{"n", "N", "intervals (default 2^26)"},
                   {"block", "B", "threads per block (default 256)"},
                   cli::reps_flag_spec()};
    f.run = cli::run_riemann;
    f.bench_cases = cli::riemann_bench_cases;
    f.bench_measure = cli::riemann_bench_measure;
    return f;
  }();
  return family;
}

}  // namespace kl
