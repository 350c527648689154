// The reduction family as the harness sees it (family.hpp).
// run: --n N [--block B] [--dtype int|float]: checks the sum, then prints GB/s with its ratio to
// CUB and to the device-to-device copy, both measured here.
// bench: GB/s over 2^28 elements (1 GiB, twenty times the H100's L2), on float and int. Every
// rung is read against CUB's sum of the same dtype, measured here; CUB itself against the
// device-to-device copy. Float is the gated dtype (bench/gates.conf): its sums match the seeds'
// ladder in cost, and int adds the same 4-byte traffic.
// The ladder's top (CUB, the two-level grid_stride and warp_shuffle, the single-launch rung) is
// also timed at n = 2^16 (key suffix .n64k), where launches, not bandwidth, decide. `bench --sweep` times every
// rung at n = 2^12 .. 2^30, each against CUB at the same n.
#include "family.hpp"
#include "bench_context.hpp"
#include "run_support.hpp"

#include "kl/device_buffer.hpp"
#include "kl/device_facts.hpp"
#include "kl/reduction.hpp"

#include "core/size_sweep.hpp"

#include <bit>
#include <iomanip>
#include <ostream>
#include <tuple>

namespace kl::cli {
namespace {

// The work model: every 4-byte element read once, one add each (the sum's write is negligible).
Work work_of(std::int64_t n) { return {4.0 * static_cast<double>(n), static_cast<double>(n)}; }

}  // namespace


int run_reduction(const VariantInfo& info, const ParsedArgs& a, std::ostream& out) {
  const reduction::Variant& v = reduction::variant(info.name);
  const reduction::Shape shape{a.integer("n", 1 << 24, -wide_range, wide_range),
                               static_cast<int>(a.integer("block", 256, -wide_range, wide_range)),
                               reduction::parse_dtype(a.text("dtype", "int"))};
  require_supported(info, v.unsupported(shape));
  const std::uint64_t seed = seed_flag(a);
  const int reps = reps_flag(a);
  require_gpu();
  out << info.id() << ": n=" << shape.n << " block=" << shape.block << " dtype=" << to_string(shape.dtype)
      << " seed=" << seed << "\n";
  const reduction::Inputs in = reduction::make_inputs(shape, seed);
  const CaseResult r = reduction::run_case(v, shape, in);
  print_check(out, r);
  if (!r.ok()) return 1;
  if (shape.n == 0) return 0;

  DeviceBuffer<float> x(static_cast<std::size_t>(shape.n)), sum(1);
  if (shape.dtype == reduction::Dtype::i32)
    KL_CUDA_CHECK(cudaMemcpy(x.data(), in.i.data(), x.bytes(), cudaMemcpyHostToDevice));
  else
    x.upload(in.f);
  const auto time_variant = [&](const reduction::Variant& w) {
    return time_device_work([&](cudaStream_t s) { w.launch({x.data(), sum.data(), shape}, s); }, 3, reps);
  };
  const double bytes = work_of(shape.n).bytes;
  const TimingSummary t = time_variant(v);
  print_timing(out, t, bytes);
  const TimingSummary cub = time_variant(reduction::variant("cub_sum"));
  const double copy_gbps = d2d_copy_gbps(x.bytes(), reps);
  const double gbps = bytes / (t.median_ms * 1e6);
  out << std::fixed << std::setprecision(3) << "ratio: " << cub.median_ms / t.median_ms << " of CUB ("
      << std::setprecision(1) << bytes / (cub.median_ms * 1e6) << " GB/s), " << std::setprecision(3)
      << gbps / copy_gbps << " of device-to-device copy (" << std::setprecision(1) << copy_gbps
      << " GB/s read + written)\n";
  out.unsetf(std::ios::floatfield);
  return 0;
}

}  // namespace kl::cli

namespace kl::cli {
namespace {

constexpr std::int64_t bench_n = std::int64_t{1} << 28;  // also the largest exact int n
constexpr int bench_block = 256;
constexpr std::uint64_t bench_seed = 1;
// The small size the bench also times the ladder's top at: a launch or two, not bandwidth.
constexpr std::int64_t small_n = std::int64_t{1} << 16;
// Swept cases time 5 runs: a sum repeats within a percent, and the sweep has ~190 cases.
constexpr int swept_reps = 5;

struct ReductionInput {
  bool ready = false;
  reduction::Shape shape;
  reduction::Oracle want;
  DeviceBuffer<std::uint32_t> x;  // 4-byte elements of either dtype
  DeviceBuffer<std::uint32_t> sum{1};
};

// Inputs by dtype and n (2^30 floats are 4 GiB: one swept size at a time).
struct ReductionInputs {
  InputsBySize<std::string, ReductionInput> by_dtype{bench_n};

  ReductionInput& get(const std::string& dtype, std::int64_t n) {
    ReductionInput& in = by_dtype.at(dtype, n);
    if (in.ready) return in;
    in.shape = {n, bench_block, reduction::parse_dtype(dtype)};
    const reduction::Inputs host = reduction::make_inputs(in.shape, bench_seed);
    in.want = reduction::oracle(in.shape.dtype, host);
    in.x = DeviceBuffer<std::uint32_t>(static_cast<std::size_t>(n));
    const void* src = in.shape.dtype == reduction::Dtype::i32 ? static_cast<const void*>(host.i.data()) : host.f.data();
    KL_CUDA_CHECK(cudaMemcpy(in.x.data(), src, in.x.bytes(), cudaMemcpyHostToDevice));
    in.ready = true;
    return in;
  }
};

// Float inputs are the exact-integer kind (reduction::FloatData): every timed sum must equal the
// exact one, so a zero, half or one-element-short sum fails the bench at 2^28 as in the tests.
CaseResult check_sum(const reduction::Variant& v, const ReductionInput& in) {
  const std::uint32_t bits = in.sum.download()[0];
  if (in.shape.dtype == reduction::Dtype::i32) return reduction::compare_sum(v, in.shape, std::bit_cast<int>(bits), in.want);
  return reduction::compare_sum(v, in.shape, std::bit_cast<float>(bits), in.want);
}

// The variants also timed at small_n: CUB, the seed ladder's two-level rungs (a memset, then a
// kernel of atomics) and the single-launch rungs, which must beat them there (bench/gates.conf).
bool timed_small(const std::string& variant) {
  return variant == "cub_sum" || variant == "grid_stride" || variant == "warp_shuffle" ||
         variant == "vectorized_single_launch" || variant == "bulk_copy_ring";
}

}  // namespace

std::vector<BenchCase> reduction_bench_cases() {
  std::vector<BenchCase> cases = cases_of<reduction::Variant>("reduction", reduction::variants(), {"float", "int"});
  std::vector<BenchCase> small;
  for (BenchCase c : cases)
    if (c.skip_reason.empty() && timed_small(c.variant)) {
      c.sweep = bench::size_tag(small_n);
      small.push_back(c);
    }
  cases.insert(cases.end(), small.begin(), small.end());
  return cases;
}

std::vector<BenchCase> reduction_sweep_cases() {
  std::vector<BenchCase> cases =
      at_swept_sizes(cases_of<reduction::Variant>("reduction", reduction::variants(), {"float", "int"}), swept_reps);
  for (BenchCase& c : cases)
    if (c.skip_reason.empty() && c.dtype == "int" && case_size(c, bench_n) > reduction::max_exact_int_n)
      c.skip_reason = "int inputs stop at 2^28: a sum of 2^30 values in [-7, 7] could overflow int32";
  return cases;
}

bench::Result reduction_bench_measure(const BenchCase& c, Bench& ctx) {
  const reduction::Variant& v = reduction::variant(c.variant);
  const std::int64_t n = case_size(c, bench_n);
  ReductionInput& in = ctx.state<ReductionInputs>("reduction").get(c.dtype, n);
  const reduction::Args args{in.x.data(), in.sum.data(), in.shape};
  const TimingSummary t = ctx.validated_timing(
      c, [&](cudaStream_t s) { poison_words(in.sum.data(), 1, s); }, [&](cudaStream_t s) { v.launch(args, s); },
      [&] { return check_sum(v, in); });
  const Work w = work_of(n);
  bench::Result r = throughput_result(c, "n=" + bench::size_text(n) + " block=" + std::to_string(bench_block) + " " + c.dtype,
                                      t, w.bytes, "GB/s", bench::Roof::dram_bandwidth, w.intensity());
  // One CUB ceiling per dtype and n: "cub_sum.float", "cub_sum.float_n64k".
  const std::string cub = "cub_sum." + c.dtype + (c.sweep.empty() ? "" : "_" + c.sweep);
  const std::string how = "cub::DeviceReduce::Sum over " + bench::size_text(n) + " " + c.dtype + "s, GB/s of bytes read";
  // The reference case is measured with the bench's full repetitions even for a swept case (one
  // noisy CUB median of 5 runs would misread every rung at that n); a swept CUB row of 5 runs,
  // measured as a case first, is one of its readings too, and the fastest reading is kept. CUB's
  // own row is read against a device-to-device copy of the same bytes.
  if (ctx.read_against_reference(r, {"reduction", reduction::variants().front().info.name, c.dtype, "", c.sweep, 0},
                                 cub, how, reduction_bench_measure))
    std::tie(r.ceiling, r.ceiling_value) = ctx.copy_ceiling_of(c, static_cast<std::size_t>(w.bytes));
  return r;
}

}  // namespace kl::cli

namespace kl {

const Family& family_reduction() {
  static const Family family = [] {
    Family f;
    f.name = "reduction";
    f.variants = variants_of(reduction::variants());
    f.run_flags = {{"n", "N", "elements (default 2^24)"},
                   {"block", "B", "threads per block (default 256)"},
                   {"dtype", "int|float", "element type (default int)"},
                   cli::seed_flag_spec(),
                   cli::reps_flag_spec()};
    f.run = cli::run_reduction;
    f.bench_cases = cli::reduction_bench_cases;
    f.bench_measure = cli::reduction_bench_measure;
    f.sweep_cases = cli::reduction_sweep_cases;
    return f;
  }();
  return family;
}

}  // namespace kl
