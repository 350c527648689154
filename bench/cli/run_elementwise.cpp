// `kernel-lab run elementwise.<variant> --n N --block B`
#include "run_support.hpp"

#include "kl/device_facts.hpp"
#include "kl/elementwise.hpp"

#include <ostream>

namespace kl::cli {

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
  print_timing(out, t, (add ? 12.0 : 8.0) * static_cast<double>(shape.n));
  return 0;
}

}  // namespace kl::cli
