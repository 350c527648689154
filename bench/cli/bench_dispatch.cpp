// Bench hook of the dispatch family: record_thread_coords writes (col, row) for every cell of an
// 8192 x 8192 grid, 512 MiB of ints; GB/s of bytes written against the device-to-device copy.
#include "bench_hook.hpp"

#include "kl/dispatch.hpp"

namespace kl::cli {
namespace {

constexpr int bench_side = 8192;
constexpr Dim2 bench_block{16, 16};  // the seeds' 2-D block shape, scaled up from 2x2

struct DispatchInputs {
  DeviceBuffer<int> coords{2 * static_cast<std::size_t>(bench_side) * bench_side};
};

}  // namespace

std::vector<BenchCase> dispatch_bench_cases() {
  return cases_of<dispatch::Variant>("dispatch", dispatch::variants());
}

bench::Result dispatch_bench_measure(const BenchCase& c, Bench& ctx) {
  const dispatch::Variant& v = dispatch::variant(c.variant);
  DispatchInputs& in = ctx.state<DispatchInputs>("dispatch");
  const dispatch::Shape shape{bench_side, bench_side, bench_block};
  const TimingSummary t = ctx.validated_timing(
      c, [&](cudaStream_t s) { poison_words(in.coords.data(), in.coords.size(), s); },
      [&](cudaStream_t s) { v.launch({in.coords.data(), shape}, s); },
      [&] { return dispatch::check_coords(in.coords.download(), shape); }, output_bytes(in.coords));
  bench::Result r = throughput_result(c, std::to_string(bench_side) + "x" + std::to_string(bench_side) + " block=16x16", t,
                                      static_cast<double>(in.coords.bytes()), "GB/s", bench::Roof::dram_bandwidth, 0);
  r.ceiling = "d2d_copy";
  r.ceiling_value = ctx.d2d_copy_gbps();
  return r;
}

}  // namespace kl::cli
