// The imatmul family (int32 matrix product, seed 004) as the harness sees it (family.hpp).
// run: --n N: check against the exact oracle, then time, in int32 TOPS.
// bench: n = 4096 against the int32 issue bound (no int32 GEMM library to compare with); every
// element of C is checked on the GPU against the exact product (the FP64 device oracle, exact for
// these integers: kl/matmul_oracle.hpp).
#include "family.hpp"
#include "bench_context.hpp"
#include "run_support.hpp"

#include "kl/device_facts.hpp"
#include "kl/matmul.hpp"
#include "kl/matmul_oracle.hpp"

#include <iomanip>
#include <ostream>

namespace kl::cli {
namespace {

constexpr std::int64_t bench_n = 4096;  // the seeds' size; it fills every SM many times over
constexpr std::uint64_t bench_seed = 1;

// The work model: 2n^3 integer operations; A and B read once, C written once, 4 bytes each.
Work work_of(const imatmul::Shape& s) {
  const double n = static_cast<double>(s.n);
  return {3.0 * n * n * 4.0, 2.0 * n * n * n};
}

}  // namespace

int run_imatmul(const VariantInfo& info, const ParsedArgs& a, std::ostream& out) {
  const imatmul::Variant& v = imatmul::variant(info.name);
  const imatmul::Shape shape{a.integer("n", 1024, -wide_range, wide_range)};
  require_supported(info, v.unsupported(shape));
  const std::uint64_t seed = seed_flag(a);
  const int reps = reps_flag(a);
  require_gpu();
  out << info.id() << ": n=" << shape.n << " seed=" << seed << "\n";
  const imatmul::Inputs in = imatmul::make_inputs(shape, seed);
  const CaseResult r = imatmul::run_case(v, shape, in);
  print_check(out, r);
  if (!r.ok()) return 1;
  DeviceBuffer<std::int32_t> x{std::span<const std::int32_t>(in.a)}, y{std::span<const std::int32_t>(in.b)};
  DeviceBuffer<std::int32_t> z(in.a.size());
  const TimingSummary t = time_device_work([&](cudaStream_t s) { v.launch({x.data(), y.data(), z.data(), shape}, s); },
                                           3, reps, nullptr, {}, host_time_of(info.role));
  print_timing(out, t, 0);
  out << std::fixed << std::setprecision(2) << "throughput: " << work_of(shape).ops / (t.median_ms * 1e9)
      << " TOPS (int32)\n";
  out.unsetf(std::ios::floatfield);
  return 0;
}

namespace {

struct ImatmulInputs {
  bool ready = false;
  imatmul::Shape shape{bench_n};
  imatmul::Inputs host;
  DeviceBuffer<std::int32_t> a, b, c;
  matmul::DeviceReference reference;

  void build() {
    if (ready) return;
    host = imatmul::make_inputs(shape, bench_seed);
    a = DeviceBuffer<std::int32_t>(std::span<const std::int32_t>(host.a));
    b = DeviceBuffer<std::int32_t>(std::span<const std::int32_t>(host.b));
    c = DeviceBuffer<std::int32_t>(static_cast<std::size_t>(shape.n * shape.n));
    reference = matmul::device_reference(a.data(), b.data(), shape.n, imatmul::max_abs_input);
    ready = true;
  }
};

}  // namespace

std::vector<BenchCase> imatmul_bench_cases() { return cases_of<imatmul::Variant>("imatmul", imatmul::variants()); }

bench::Result imatmul_bench_measure(const BenchCase& c, Bench& ctx) {
  const imatmul::Variant& v = imatmul::variant(c.variant);
  ImatmulInputs& in = ctx.state<ImatmulInputs>("imatmul");
  in.build();
  const imatmul::Args args{in.a.data(), in.b.data(), in.c.data(), in.shape};
  const TimingSummary t = ctx.validated_timing(
      c, [&](cudaStream_t s) { poison_words(in.c.data(), in.c.size(), s); },
      [&](cudaStream_t s) { v.launch(args, s); }, [&] { return BenchCheck{matmul::compare_on_device(in.c.data(), in.reference)}; },
      output_bytes(in.c));
  const Work w = work_of(in.shape);
  bench::Result r = throughput_result(c, "n=" + std::to_string(bench_n) + " int32", t, w.ops, "TOPS", bench::Roof::int32,
                                      w.intensity());
  use_roof_as_ceiling(r, ctx.roofline());  // no int32 GEMM library to compare with
  return r;
}

}  // namespace kl::cli

namespace kl {

const Family& family_imatmul() {
  static const Family family = [] {
    Family f;
    f.name = "imatmul";
    f.variants = variants_of(imatmul::variants());
    f.run_flags = {{"n", "N", "side of the square int32 matrices (default 1024)"},
                   cli::seed_flag_spec(),
                   cli::reps_flag_spec()};
    f.run = cli::run_imatmul;
    f.bench_cases = cli::imatmul_bench_cases;
    f.bench_measure = cli::imatmul_bench_measure;
    return f;
  }();
  return family;
}

}  // namespace kl
