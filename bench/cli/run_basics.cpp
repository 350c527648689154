// `kernel-lab run basics.<variant>`: hello and atomic_counter take --blocks B --threads T
// (threads per block);
// matr and sum_matr --rows R --cols C --block BXxBY; the 1-D kernels --n N --block B, and the
// two access kernels also --threads T (threads in all, a multiple of the block).
#include "run_support.hpp"

#include "kl/basics.hpp"
#include "kl/device_facts.hpp"

#include <iostream>
#include <ostream>

namespace kl::cli {
namespace {

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
  print_timing(out, t, 4.0 * static_cast<double>(n));
  return 0;
}

}  // namespace kl::cli
