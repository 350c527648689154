// Bench hook of the elementwise family: GB/s of bytes read plus written over 2^26 floats
// (256 MiB per array, five times the H100's L2), against the device-to-device copy.
#include "bench_hook.hpp"

#include "kl/elementwise.hpp"

namespace kl::cli {
namespace {

constexpr std::int64_t bench_n = std::int64_t{1} << 26;
constexpr int bench_block = 256;
constexpr std::uint64_t bench_seed = 1;

struct OpInput {
  bool ready = false;
  std::vector<double> want;
  DeviceBuffer<float> a, b, out;
};

struct ElementwiseInputs {
  std::map<elementwise::Op, OpInput> by_op;

  OpInput& get(elementwise::Op op) {
    OpInput& in = by_op[op];
    if (in.ready) return in;
    const elementwise::Inputs host = elementwise::make_inputs(op, {bench_n, bench_block}, bench_seed);
    in.want = elementwise::oracle(op, host);
    in.a = DeviceBuffer<float>(std::span<const float>(host.a));
    if (op == elementwise::Op::add) in.b = DeviceBuffer<float>(std::span<const float>(host.b));
    in.out = DeviceBuffer<float>(static_cast<std::size_t>(bench_n));
    in.ready = true;
    return in;
  }
};

}  // namespace

std::vector<BenchCase> elementwise_bench_cases() {
  return cases_of<elementwise::Variant>("elementwise", elementwise::variants());
}

bench::Result elementwise_bench_measure(const BenchCase& c, Bench& ctx) {
  const elementwise::Variant& v = elementwise::variant(c.variant);
  OpInput& in = ctx.state<ElementwiseInputs>("elementwise").get(v.op);
  const bool add = v.op == elementwise::Op::add;
  const elementwise::Args args{in.a.data(), add ? in.b.data() : in.a.data(), in.out.data(), {bench_n, bench_block}};
  const TimingSummary t = ctx.validated_timing(
      c, [&](cudaStream_t s) { poison_words(in.out.data(), in.out.size(), s); },
      [&](cudaStream_t s) { v.launch(args, s); },
      [&] { return elementwise::compare_output(v.op, in.out.download(), in.want); }, output_bytes(in.out));
  const double bytes_per_element = add ? 12.0 : 8.0;  // add: a, b read, c written; exp: in read, out written
  bench::Result r = throughput_result(c, "n=2^26 block=" + std::to_string(bench_block), t,
                                      bytes_per_element * static_cast<double>(bench_n), "GB/s",
                                      bench::Roof::dram_bandwidth, 1.0 / bytes_per_element);
  r.ceiling = "d2d_copy";
  r.ceiling_value = ctx.d2d_copy_gbps();
  return r;
}

}  // namespace kl::cli
