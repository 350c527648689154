// `kernel-lab run matmul.<variant> --m M --n N --k K [--bias 1]` and
// `kernel-lab run imatmul.<variant> --n N`: check against the oracle, then time; matmul also
// times cuBLAS SGEMM on the same shape in the same process and prints the ratio. Staged inputs
// (uncoalesced's B transposed, GemmEx's FP16 copies) are written once, before the timing.
#include "run_support.hpp"

#include "kl/device_facts.hpp"
#include "kl/matmul.hpp"

#include <iomanip>
#include <ostream>

namespace kl::cli {
namespace {

double tflops(const matmul::Shape& s, const TimingSummary& t) {
  return 2.0 * static_cast<double>(s.m) * static_cast<double>(s.n) * static_cast<double>(s.k) / (t.median_ms * 1e9);
}

TimingSummary time_matmul(const matmul::Variant& v, const matmul::Shape& shape, const matmul::Inputs& in, int reps) {
  DeviceBuffer<float> a{std::span<const float>(in.a)}, b{std::span<const float>(in.b)};
  DeviceBuffer<float> bias{std::span<const float>(in.bias)};
  DeviceBuffer<float> c(static_cast<std::size_t>(shape.m * shape.n));
  const matmul::Args args{a.data(), b.data(), bias.data(), c.data(), shape};
  v.stage_inputs(args);  // B transposed or A and B in FP16: setup, not the kernel's time
  return time_device_work([&](cudaStream_t s) { v.launch_kernel(args, s); }, 3, reps);
}

}  // namespace

int run_matmul(const VariantInfo& info, const ParsedArgs& a, std::ostream& out) {
  const matmul::Variant& v = matmul::variant(info.name);
  const matmul::Shape shape{a.integer("m", 4096, -wide_range, wide_range), a.integer("n", 4096, -wide_range, wide_range),
                            a.integer("k", 4096, -wide_range, wide_range), a.integer("bias", 0, 0, 1) == 1};
  require_supported(info, v.unsupported(shape));
  const std::uint64_t seed = seed_flag(a);
  const int reps = reps_flag(a);
  require_gpu();
  out << info.id() << ": m=" << shape.m << " n=" << shape.n << " k=" << shape.k << (shape.bias ? " bias" : "")
      << " seed=" << seed << "\n";
  const matmul::Inputs in = matmul::make_inputs(shape, matmul::Data::random, seed);
  const CaseResult r = matmul::run_case(v, shape, in);
  if (shape.m * shape.n * shape.k > matmul::full_check_limit)
    out << "check: sampled " << matmul::sampled_lines << " whole rows and " << matmul::sampled_lines
        << " whole columns of C against the double oracle (" << r.checked << " elements)\n";
  print_check(out, r);
  if (!r.ok()) return 1;

  const TimingSummary t = time_matmul(v, shape, in, reps);
  print_timing(out, t, 0);
  out << std::fixed << std::setprecision(2) << "throughput: " << tflops(shape, t) << " TFLOPS";
  const matmul::Variant& ref = matmul::variants().front();
  matmul::Shape ref_shape = shape;
  ref_shape.bias = false;  // the reference multiplies only; the bias is n extra adds
  if (ref.supports(ref_shape)) {
    const TimingSummary rt = time_matmul(ref, ref_shape, in, reps);
    out << ", " << ref.info.id() << " " << tflops(ref_shape, rt) << " TFLOPS in this process, ratio "
        << std::setprecision(3) << rt.median_ms / t.median_ms;
  }
  out << "\n";
  out.unsetf(std::ios::floatfield);
  return 0;
}

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
                                           3, reps);
  print_timing(out, t, 0);
  const double n = static_cast<double>(shape.n);
  out << std::fixed << std::setprecision(2) << "throughput: " << 2.0 * n * n * n / (t.median_ms * 1e9)
      << " TOPS (int32)\n";
  out.unsetf(std::ios::floatfield);
  return 0;
}

}  // namespace kl::cli
