// `kernel-lab run reduction.<variant> --n N [--block B] [--dtype int|float]`: checks the sum,
// then prints GB/s with its ratio to CUB and to device-to-device copy, both measured here.
#include "run_support.hpp"

#include "kl/device_buffer.hpp"
#include "kl/device_facts.hpp"
#include "kl/reduction.hpp"

#include <iomanip>
#include <ostream>

namespace kl::cli {

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
  const double bytes = 4.0 * static_cast<double>(shape.n);
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
