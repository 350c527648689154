// The elementwise family as the harness sees it (family.hpp).
// run: --n N --block B. bench: GB/s of bytes read plus written over 2^26 floats (256 MiB per
// array, five times the H100's L2), against the device-to-device copy; `bench --sweep` at
// n = 2^12 .. 2^30, each against a copy of the same bytes at that n.
#include "family.hpp"
#include "bench_context.hpp"
#include "run_support.hpp"

#include "kl/device_facts.hpp"
#include "kl/elementwise.hpp"

#include "core/size_sweep.hpp"

#include <ostream>
#include <tuple>

namespace kl::cli {
namespace {

// The work model: add reads a and b and writes c, exp reads in and writes out; one operation an
// element.
Work work_of(elementwise::Op op, std::int64_t n) {
  const double elements = static_cast<double>(n);
  return {(op == elementwise::Op::add ? 12.0 : 8.0) * elements, elements};
}

}  // namespace

int run_elementwise(const VariantInfo& info, const ParsedArgs& a, std::ostream& out) {
  const elementwise::Variant& v = elementwise::variant(info.name);
  const elementwise::Shape shape{a.integer("n", 1 << 20, -wide_range, wide_range),
                                 static_cast<int>(a.integer("block", 256, -wide_range, wide_range))};
  require_supported(info, v.unsupported(shape));
  const std::uint64_t seed = seed_flag(a);
  const int reps = reps_flag(a);
  require_gpu();
  out << info.id() << ": n=" << shape.n << " block=" << shape.block << " seed=" << seed << "\n";
  const elementwise::Inputs in = elementwise::make_inputs(v.op, shape, seed);
  const CaseResult r = elementwise::run_case(v, shape, in);
  print_check(out, r);
  if (!r.ok()) return 1;

  const bool add = v.op == elementwise::Op::add;
  DeviceBuffer<float> x{std::span<const float>(in.a)}, y{std::span<const float>(add ? in.b : in.a)};
  DeviceBuffer<float> z(static_cast<std::size_t>(shape.n));
  const TimingSummary t =
      time_device_work([&](cudaStream_t s) { v.launch({x.data(), y.data(), z.data(), shape}, s); }, 3, reps);
  print_timing(out, t, work_of(v.op, shape.n).bytes);
  return 0;
}

}  // namespace kl::cli

namespace kl::cli {
namespace {

constexpr std::int64_t bench_n = std::int64_t{1} << 26;
constexpr int bench_block = 256;
constexpr std::uint64_t bench_seed = 1;
constexpr int swept_reps = 5;

// One op's inputs (kept on the host: the oracle is computed from them element by element as a
// check compares, never stored) and buffers.
struct OpInput {
  bool ready = false;
  elementwise::Inputs host;
  DeviceBuffer<float> a, b, out;
};

// Inputs by op and n (2^30 adds need 12 GiB: one swept size at a time), and the one host copy
// every check downloads to (its pages touched once, not per case).
struct ElementwiseInputs {
  InputsBySize<elementwise::Op, OpInput> by_op{bench_n};
  std::vector<float> staging;

  OpInput& get(elementwise::Op op, std::int64_t n) {
    OpInput& in = by_op.at(op, n);
    if (in.ready) return in;
    in.host = elementwise::make_inputs(op, {n, bench_block}, bench_seed);
    in.a = DeviceBuffer<float>(std::span<const float>(in.host.a));
    if (op == elementwise::Op::add) in.b = DeviceBuffer<float>(std::span<const float>(in.host.b));
    in.out = DeviceBuffer<float>(static_cast<std::size_t>(n));
    in.ready = true;
    return in;
  }

  CaseResult check(elementwise::Op op, const OpInput& in) {
    staging.resize(in.out.size());
    if (!staging.empty())
      KL_CUDA_CHECK(cudaMemcpy(staging.data(), in.out.data(), in.out.bytes(), cudaMemcpyDeviceToHost));
    return elementwise::compare_with_inputs(op, staging, in.host);
  }
};

}  // namespace

std::vector<BenchCase> elementwise_bench_cases() {
  return cases_of<elementwise::Variant>("elementwise", elementwise::variants());
}

std::vector<BenchCase> elementwise_sweep_cases() { return at_swept_sizes(elementwise_bench_cases(), swept_reps); }

bench::Result elementwise_bench_measure(const BenchCase& c, Bench& ctx) {
  const elementwise::Variant& v = elementwise::variant(c.variant);
  const std::int64_t n = case_size(c, bench_n);
  ElementwiseInputs& inputs = ctx.state<ElementwiseInputs>("elementwise");
  OpInput& in = inputs.get(v.op, n);
  const bool add = v.op == elementwise::Op::add;
  const elementwise::Args args{in.a.data(), add ? in.b.data() : in.a.data(), in.out.data(), {n, bench_block}};
  const TimingSummary t = ctx.validated_timing(
      c, [&](cudaStream_t s) { poison_words(in.out.data(), in.out.size(), s); },
      [&](cudaStream_t s) { v.launch(args, s); },
      [&] { return inputs.check(v.op, in); }, output_bytes(in.out));
  const Work w = work_of(v.op, n);
  bench::Result r = throughput_result(c, "n=" + bench::size_text(n) + " block=" + std::to_string(bench_block), t,
                                      w.bytes, "GB/s", bench::Roof::dram_bandwidth, w.intensity());
  if (c.sweep.empty()) {
    r.ceiling = "d2d_copy";
    r.ceiling_value = ctx.d2d_copy_gbps();
  } else {
    std::tie(r.ceiling, r.ceiling_value) = ctx.copy_ceiling(static_cast<std::size_t>(w.bytes));
  }
  return r;
}

}  // namespace kl::cli

namespace kl {

const Family& family_elementwise() {
  static const Family family = [] {
    Family f;
    f.name = "elementwise";
    f.variants = variants_of(elementwise::variants());
    f.run_flags = {{"n", "N", "elements (default 2^20)"},
                   {"block", "B", "threads per block (default 256)"},
                   cli::seed_flag_spec(),
                   cli::reps_flag_spec()};
    f.run = cli::run_elementwise;
    f.bench_cases = cli::elementwise_bench_cases;
    f.bench_measure = cli::elementwise_bench_measure;
    f.sweep_cases = cli::elementwise_sweep_cases;
    return f;
  }();
  return family;
}

}  // namespace kl
