// The basics family as the harness sees it (seed 004's first kernels; family.hpp).
// run: hello and atomic_counter take --blocks B --threads T (threads per block); matr and
// sum_matr --rows R --cols C --block BXxBY; the 1-D kernels --n N --block B, and the two access
// kernels also --threads T (threads in all, a multiple of the block).
// bench: GB/s of bytes read plus written over 2^26 elements (256 MiB of output), against the
// device-to-device copy. hello prints and the atomic counter serialises on one address: neither
// is a bandwidth, neither is benched. The two access kernels write the same 2^26 values;
// non_coalesced spreads them over twice the memory, and its GB/s counts the values it writes,
// so the pair reads as the seed's lesson: what a stride of 2 costs.
// fill_vectorized (beyond the seeds) is read against cudaMemset of the same bytes instead: the
// write it competes with. `bench --sweep` times every benched kernel at n = 2^12 .. 2^30, each
// against its ceiling at that n (cudaMemset for the write-only ones, else a copy of the bytes).
#include "family.hpp"
#include "bench_context.hpp"
#include "run_support.hpp"

#include "kl/basics.hpp"
#include "kl/device_facts.hpp"

#include <cmath>
#include <tuple>
#include <iostream>
#include <ostream>

namespace kl::cli {
namespace {

struct KernelCost {
  double bytes_per_element;  // compulsory traffic per value the kernel produces
  double ops_per_element;
};

KernelCost cost_of(basics::Kernel k) {
  using basics::Kernel;
  switch (k) {
    case Kernel::sum_matr: return {12, 1};   // X and Y read, X written; one add
    case Kernel::sh_mem_ex: return {8, 1};   // in read, out written; one multiply
    case Kernel::dot3: return {28, 5};       // two float3 read, a float written; 3 mul + 2 add
    case Kernel::matr: return {4, 0};        // index fill: a write, no arithmetic on data
    default: return {4, 1};                  // fill_arr, coalesced, non_coalesced: idx * 2 written
  }
}

// The work model: the values a run produces (one per thread for the two access kernels, whose
// output spreads over `cols`; one per output element otherwise) times the cost of each.
Work work_of(basics::Kernel k, const basics::Shape& s) {
  const bool access = k == basics::Kernel::coalesced || k == basics::Kernel::non_coalesced;
  const double values = access ? static_cast<double>(s.threads) : static_cast<double>(basics::output_size(k, s));
  const KernelCost cost = cost_of(k);
  return {cost.bytes_per_element * values, cost.ops_per_element * values};
}

basics::Shape basics_shape(basics::Kernel k, const ParsedArgs& a) {
  using basics::Kernel;
  basics::Shape s;
  if (k == Kernel::hello || k == Kernel::counter) {
    // hello: the seed's BLOCKS = 2, THREADS = 4; the counter: a million contending adds.
    const bool hello = k == Kernel::hello;
    s.cols = static_cast<int>(a.integer("blocks", hello ? 2 : 1024, -wide_range, wide_range));
    s.block = {static_cast<int>(a.integer("threads", hello ? 4 : 1024, -wide_range, wide_range)), 1};
    return s;
  }
  if (k == Kernel::matr || k == Kernel::sum_matr) {
    s.rows = static_cast<int>(a.integer("rows", 1024, -wide_range, wide_range));
    s.cols = static_cast<int>(a.integer("cols", 1024, -wide_range, wide_range));
    s.block = a.dim2("block", {16, 16});
    return s;
  }
  s.cols = static_cast<int>(a.integer("n", 1 << 20, -wide_range, wide_range));
  s.block = {static_cast<int>(a.integer("block", 256, -wide_range, wide_range)), 1};
  const std::int64_t block = std::max(s.block.x, 1);
  const std::int64_t fit = k == Kernel::non_coalesced ? (s.cols + 1) / 2 : s.cols;
  s.threads = a.integer("threads", fit / block * block, -wide_range, wide_range);
  return s;
}

}  // namespace

int run_basics(const VariantInfo& info, const ParsedArgs& a, std::ostream& out) {
  const basics::Variant& v = basics::variant(info.name);
  const basics::Shape shape = basics_shape(v.kernel, a);
  require_supported(info, v.unsupported(shape));
  const std::uint64_t seed = seed_flag(a);
  const int reps = reps_flag(a);
  require_gpu();
  out << info.id() << ": " << basics::describe(v.kernel, shape) << " seed=" << seed << std::endl;
  const basics::Inputs in = basics::make_inputs(v.kernel, shape, seed);
  const CaseResult r = basics::run_case(v, shape, in);
  // Device printf goes to the C stdout: flush it before our own lines follow.
  std::fflush(stdout);
  print_check(out, r);
  if (!r.ok()) return 1;
  if (v.kernel == basics::Kernel::hello) return 0;  // printf: nothing worth timing

  const std::size_t n = basics::output_size(v.kernel, shape);
  DeviceBuffer<int> x{std::span<const int>(v.kernel == basics::Kernel::sum_matr ? in.y : in.x)};
  DeviceBuffer<float> a3{std::span<const float>(in.a3)}, b3{std::span<const float>(in.b3)};
  DeviceBuffer<float> z(n + 1);  // 4-byte elements serve int and float outputs alike
  const void* first = v.kernel == basics::Kernel::dot3 ? static_cast<const void*>(a3.data()) : x.data();
  const TimingSummary t =
      time_device_work([&](cudaStream_t s) { v.launch({first, b3.data(), z.data(), shape}, s); }, 3, reps);
  if (v.kernel == basics::Kernel::counter) {
    print_timing(out, t, 0);
    out << "throughput: " << static_cast<double>(shape.cols) * shape.block.x / (t.median_ms * 1e6)
        << " G atomicAdd/s on one address\n";
    return 0;
  }
  print_timing(out, t, work_of(v.kernel, shape).bytes);
  return 0;
}

}  // namespace kl::cli

namespace kl::cli {
namespace {

constexpr std::int64_t bench_n = std::int64_t{1} << 26;  // 8192 x 8192 for the 2-D kernels
constexpr std::uint64_t bench_seed = 1;
constexpr int swept_reps = 5;

// The shape of n values: a sqrt(n) x sqrt(n) matrix for the 2-D kernels (n is a power of 4), else
// n elements (the stride-2 writer spreads its n values over 2n).
basics::Shape shape_of(basics::Kernel k, std::int64_t n) {
  using basics::Kernel;
  basics::Shape s;
  if (k == Kernel::matr || k == Kernel::sum_matr) {
    s.rows = s.cols = static_cast<int>(std::llround(std::sqrt(static_cast<double>(n))));
    s.block = {16, 16};
    return s;
  }
  s.cols = static_cast<int>(k == Kernel::non_coalesced ? 2 * n : n);
  s.block = {256, 1};
  s.threads = n;  // the access kernels: one value per thread
  return s;
}

// Kernels that only write: read against cudaMemset of the same bytes at a swept n.
bool write_only(basics::Kernel k) {
  using basics::Kernel;
  return k == Kernel::fill_arr || k == Kernel::matr || k == Kernel::coalesced || k == Kernel::non_coalesced;
}

std::string shape_text(const basics::Shape& s) {
  if (s.rows > 1) return std::to_string(s.rows) + "x" + std::to_string(s.cols) + " block=16x16";
  return "n=" + std::to_string(s.cols) + " block=" + std::to_string(s.block.x);
}

// One kernel's inputs and buffers, built on first use. The oracle is computed element by element
// as a check compares (basics::compare_words), never stored: 2^26 doubles per kernel.
struct KernelInput {
  bool ready = false;
  basics::Shape shape;
  basics::Inputs host;
  DeviceBuffer<int> x;          // sum_matr's Y, sh_mem_ex's input
  DeviceBuffer<int> x_initial;  // sum_matr's X as uploaded: restored before every run
  DeviceBuffer<float> a3, b3;   // dot3
  DeviceBuffer<std::uint32_t> out;

  void build(basics::Kernel k, std::int64_t n) {
    if (ready) return;
    shape = shape_of(k, n);
    host = basics::make_inputs(k, shape, bench_seed);
    const bool sum = k == basics::Kernel::sum_matr;
    if (sum || k == basics::Kernel::sh_mem_ex) x = DeviceBuffer<int>(std::span<const int>(sum ? host.y : host.x));
    if (sum) x_initial = DeviceBuffer<int>(std::span<const int>(host.x));
    if (k == basics::Kernel::dot3) {
      a3 = DeviceBuffer<float>(std::span<const float>(host.a3));
      b3 = DeviceBuffer<float>(std::span<const float>(host.b3));
    }
    out = DeviceBuffer<std::uint32_t>(basics::output_size(k, shape));
    ready = true;
  }

  // `staging` is the bench's one host copy of an output, reused by every case (its pages are
  // touched once, not per case).
  CaseResult check(basics::Kernel k, std::vector<std::uint32_t>& staging) const {
    staging.resize(out.size());
    if (!staging.empty())
      KL_CUDA_CHECK(cudaMemcpy(staging.data(), out.data(), out.bytes(), cudaMemcpyDeviceToHost));
    return basics::compare_words(k, shape, host, staging);
  }
};

// Inputs by variant and n (one swept size at a time), and the host copy every check downloads to.
struct BasicsInputs {
  InputsBySize<std::string, KernelInput> by_variant{bench_n};
  std::vector<std::uint32_t> staging;

  KernelInput& get(const std::string& variant, basics::Kernel k, std::int64_t n) {
    KernelInput& in = by_variant.at(variant, n);
    in.build(k, n);
    return in;
  }
};

}  // namespace

std::vector<BenchCase> basics_bench_cases() {
  std::vector<BenchCase> cases = cases_of<basics::Variant>("basics", basics::variants());
  for (BenchCase& c : cases) {
    if (!c.skip_reason.empty()) continue;
    const basics::Kernel k = basics::variant(c.variant).kernel;
    if (k == basics::Kernel::hello) c.skip_reason = "prints one line per thread with printf: nothing to time";
    if (k == basics::Kernel::counter)
      c.skip_reason = "adds to one address: its time measures atomic serialisation, not bandwidth (`kernel-lab run "
                      "basics.atomic_counter` prints atomicAdd/s)";
  }
  return cases;
}

bench::Result basics_bench_measure(const BenchCase& c, Bench& ctx) {
  const basics::Variant& v = basics::variant(c.variant);
  BasicsInputs& inputs = ctx.state<BasicsInputs>("basics");
  KernelInput& in = inputs.get(c.variant, v.kernel, case_size(c, bench_n));
  const bool sum = v.kernel == basics::Kernel::sum_matr;
  const void* first = v.kernel == basics::Kernel::dot3 ? static_cast<const void*>(in.a3.data()) : in.x.data();
  const basics::Args args{first, in.b3.data(), in.out.data(), in.shape};
  const std::size_t n = in.out.size();
  const TimingSummary t = ctx.validated_timing(
      c,
      [&](cudaStream_t s) {
        poison_words(in.out.data(), n, s);
        // sum_matr adds Y into X in place: every run starts from the same X.
        if (sum) KL_CUDA_CHECK(cudaMemcpyAsync(in.out.data(), in.x_initial.data(), n * 4, cudaMemcpyDeviceToDevice, s));
      },
      [&](cudaStream_t s) { v.launch(args, s); }, [&] { return in.check(v.kernel, inputs.staging); }, output_bytes(in.out));
  const Work w = work_of(v.kernel, in.shape);
  bench::Result r = throughput_result(c, shape_text(in.shape), t, w.bytes, "GB/s", bench::Roof::dram_bandwidth,
                                      w.intensity());
  // The seeds' kernels keep the device-to-device copy at the bench size, the vectorised fill is
  // read against the write it competes with (cudaMemset); a swept n has its own ceiling.
  if (c.sweep.empty() && v.info.name != "fill_vectorized") {
    r.ceiling = "d2d_copy";
    r.ceiling_value = ctx.d2d_copy_gbps();
  } else {
    const auto bytes = static_cast<std::size_t>(w.bytes);
    std::tie(r.ceiling, r.ceiling_value) = write_only(v.kernel) ? ctx.memset_ceiling(bytes) : ctx.copy_ceiling(bytes);
  }
  return r;
}

std::vector<BenchCase> basics_sweep_cases() {
  std::vector<BenchCase> cases = at_swept_sizes(basics_bench_cases(), swept_reps);
  for (BenchCase& c : cases) {
    if (!c.skip_reason.empty()) continue;
    const basics::Kernel k = basics::variant(c.variant).kernel;
    const std::int64_t n = case_size(c, bench_n);
    if (k == basics::Kernel::non_coalesced && 2 * n > (std::int64_t{1} << 30))
      c.skip_reason = "spreads n values over 2n ints, and its index 2n must stay within 2^30";
    if (k == basics::Kernel::dot3 && n > bench_n)
      c.skip_reason = "drawing 2^28 or more float3 pairs on the host takes minutes; swept up to 2^26";
  }
  return cases;
}

}  // namespace kl::cli

namespace kl {

const Family& family_basics() {
  static const Family family = [] {
    Family f;
    f.name = "basics";
    f.variants = variants_of(basics::variants());
    f.run_flags = {{"rows", "R", "rows of the 2-D kernels (matr, sum_matr; default 1024)"},
                   {"cols", "C", "columns of the 2-D kernels (default 1024)"},
                   {"n", "N", "elements of the 1-D kernels (default 2^20)"},
                   {"block", "B|BXxBY", "threads per block; BXxBY for the 2-D kernels (default 256, 16x16)"},
                   {"blocks", "N", "blocks in the grid of hello and atomic_counter (default 2, 1024)"},
                   {"threads", "T", "per block for hello and atomic_counter, else threads in all"},
                   cli::seed_flag_spec(),
                   cli::reps_flag_spec()};
    f.run = cli::run_basics;
    f.bench_cases = cli::basics_bench_cases;
    f.bench_measure = cli::basics_bench_measure;
    f.sweep_cases = cli::basics_sweep_cases;
    return f;
  }();
  return family;
}

}  // namespace kl
