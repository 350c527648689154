// The riemann family as the harness sees it: declared with the kit (kit.hpp) over the family's
// own table (registry.cpp). The shape is the kit's Vector: --n intervals, --block threads; no
// inputs; the output is one double. Instead of an oracle per element the family checks the sum
// (riemann::compare_sum): against the closed-form integral and against the CPU left sum, each
// within its derived bound; `run` prints both. The host oracle (n evaluations of exp and sin)
// is computed once per n and kept for the checks that follow (every timed bench run is checked).
// bench: G intervals/s of the left Riemann sum over 2^27 intervals, each rung read against the
// warp-optimised rung measured in the same process (the seed's fastest design: one atomicAdd per
// warp). No GFLOP/s and no physical roof: the work is FP64 exp and sin per interval, library
// routines whose operation count depends on the argument (sin's range reduction), so any
// per-evaluation flop count would be invented.
#include "kit.hpp"

#include "kl/riemann.hpp"

#include <cmath>
#include <iomanip>
#include <mutex>
#include <ostream>

namespace kl::riemann {
namespace {

using kit::Vector;

// The oracle for n, computed once for the latest n asked (bench asks for one n in every check).
Oracle oracle_for(std::int64_t n) {
  static std::mutex mutex;
  static Oracle last;
  const std::lock_guard<std::mutex> lock(mutex);
  if (last.n != n) last = oracle(n);
  return last;
}

CaseResult check_sum(const Vector& s, const kit::Data<double>&, std::span<const double> sum) {
  return compare_sum(sum[0], oracle_for(s.n));
}

void print_sum(std::ostream& out, const Vector& s, std::span<const double> got) {
  const Oracle want = oracle_for(s.n);
  const double sum = got[0];
  const std::ios::fmtflags flags = out.flags();
  const std::streamsize precision = out.precision();
  out << "on [" << a << ", " << b << "], f(x) = e^x sin(x)\n"
      << std::setprecision(17) << "sum: " << sum << " (CPU left sum " << want.left_sum << ", integral "
      << want.integral << ")\n"
      << std::setprecision(3) << "      |sum - integral| " << std::abs(sum - want.integral) << " <= "
      << integral_bound(want) << " (discretisation " << discretisation_bound(want.n) << "); |sum - CPU left sum| "
      << std::abs(sum - want.left_sum) << " <= " << left_sum_bound(want) << "\n";
  out.flags(flags);
  out.precision(precision);
}

kit::KernelVariant<Vector, double> declared(const Variant& v) {
  kit::KernelVariant<Vector, double> k;
  k.name = v.info.name;
  k.lesson = v.info.lesson;
  k.role = v.info.role;
  k.findings = v.info.findings;
  k.launch = [&v](const kit::Call<Vector, double>& c, cudaStream_t stream) {
    v.raw_launch({c.out, {c.shape.n, c.shape.block}}, stream);
  };
  k.rule = [&v](const Vector& s) { return v.unsupported({s.n, s.block}); };
  k.seed = v.info.seed_file;
  k.seed_kernel = v.info.seed_kernel;
  return k;
}

kit::FamilySpec<Vector, double> spec() {
  kit::FamilySpec<Vector, double> s{.name = "riemann", .inputs = 0, .bench_shape = {std::int64_t{1} << 27, 256}};
  for (const Variant& v : variants()) s.variants.push_back(declared(v));
  s.outputs = [](const Vector&) { return std::int64_t{1}; };
  s.check = check_sum;
  s.report = print_sum;
  s.shape_flags = {{"n", "N", "intervals"}, {"block", "B", "threads per block (the CPU reference ignores it)"}};
  s.run_shape = Vector{std::int64_t{1} << 26, 256};
  // One interval, warp edges, odd counts over many blocks, in the ladder's power-of-two blocks.
  s.unit_shapes = {{1, 256}, {31, 32}, {33, 32}, {1000, 1024}, {4099, 64}, {65537, 128}, {200003, 256}, {1 << 20, 512}};
  s.refused_shapes = {{{0, 256}, "n (intervals) must be in 1..2^31-1"},
                      {{-1, 256}, "n must be >= 0"},
                      {{max_n + 1, 256}, "n (intervals) must be in 1..2^31-1"},
                      {{100, 2048}, "block size must be in 1..1024"}};
  s.ceiling_variant = "warp_optimised";
  s.counted = "intervals";
  return s;
}

}  // namespace
}  // namespace kl::riemann

KL_KIT_FAMILY(riemann, riemann::spec())
