// Bench hook of the basics family (seed 004's first kernels): GB/s of bytes read plus written
// over 2^26 elements (256 MiB of output), against the device-to-device copy. hello prints and
// the atomic counter serialises on one address: neither is a bandwidth, neither is benched. The two access kernels write the same 2^26 values; non_coalesced spreads them
// over twice the memory, and its GB/s counts the values it writes, so the pair reads as the
// seed's lesson: what a stride of 2 costs.
#include "bench_hook.hpp"

#include "kl/basics.hpp"

#include <cstring>

namespace kl::cli {
namespace {

constexpr std::int64_t bench_n = std::int64_t{1} << 26;
constexpr int bench_side = 8192;  // 8192 x 8192 = 2^26 for the 2-D kernels
constexpr std::uint64_t bench_seed = 1;

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

basics::Shape shape_of(basics::Kernel k) {
  using basics::Kernel;
  basics::Shape s;
  if (k == Kernel::matr || k == Kernel::sum_matr) {
    s.rows = s.cols = bench_side;
    s.block = {16, 16};
    return s;
  }
  s.cols = static_cast<int>(k == Kernel::non_coalesced ? 2 * bench_n : bench_n);
  s.block = {256, 1};
  s.threads = bench_n;  // the access kernels: one value per thread
  return s;
}

std::string shape_text(const basics::Shape& s) {
  if (s.rows > 1) return std::to_string(s.rows) + "x" + std::to_string(s.cols) + " block=16x16";
  return "n=" + std::to_string(s.cols) + " block=" + std::to_string(s.block.x);
}

// One kernel's inputs, oracle and buffers, built on first use.
struct KernelInput {
  bool ready = false;
  basics::Shape shape;
  basics::Inputs host;
  std::vector<double> want;
  DeviceBuffer<int> x;          // sum_matr's Y, sh_mem_ex's input
  DeviceBuffer<int> x_initial;  // sum_matr's X as uploaded: restored before every run
  DeviceBuffer<float> a3, b3;   // dot3
  DeviceBuffer<std::uint32_t> out;

  void build(basics::Kernel k) {
    if (ready) return;
    shape = shape_of(k);
    host = basics::make_inputs(k, shape, bench_seed);
    want = basics::oracle(k, shape, host);
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

  CaseResult check(basics::Kernel k) const {
    const std::vector<std::uint32_t> bits = out.download();
    if (k == basics::Kernel::coalesced || k == basics::Kernel::dot3) {
      std::vector<float> got(bits.size());
      std::memcpy(got.data(), bits.data(), bits.size() * 4);
      return basics::compare_output(k, got, want, host);
    }
    std::vector<int> got(bits.size());
    std::memcpy(got.data(), bits.data(), bits.size() * 4);
    return basics::compare_output(k, got, want, host);
  }
};

struct BasicsInputs {
  std::map<std::string, KernelInput> by_variant;
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
  KernelInput& in = ctx.state<BasicsInputs>("basics").by_variant[c.variant];
  in.build(v.kernel);
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
      [&](cudaStream_t s) { v.launch(args, s); }, [&] { return in.check(v.kernel); }, output_bytes(in.out));
  const KernelCost cost = cost_of(v.kernel);
  bench::Result r = throughput_result(c, shape_text(in.shape), t, cost.bytes_per_element * static_cast<double>(bench_n),
                                      "GB/s", bench::Roof::dram_bandwidth, cost.ops_per_element / cost.bytes_per_element);
  r.ceiling = "d2d_copy";
  r.ceiling_value = ctx.d2d_copy_gbps();
  return r;
}

}  // namespace kl::cli
