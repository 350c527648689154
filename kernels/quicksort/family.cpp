// The quicksort family as the harness sees it (family.hpp).
// run: --n N [--seed S]. Not benchmarked (the reason is in the family object).
#include "family.hpp"
#include "run_support.hpp"

#include "kl/device_facts.hpp"
#include "kl/quicksort.hpp"

#include <ostream>

namespace kl::cli {

int run_quicksort(const VariantInfo& info, const ParsedArgs& a, std::ostream& out) {
  const quicksort::Variant& v = quicksort::variant(info.name);
  const quicksort::Shape shape{a.integer("n", 4096, -wide_range, wide_range)};
  require_supported(info, v.unsupported(shape));
  const std::uint64_t seed = seed_flag(a);
  const int reps = reps_flag(a);
  require_gpu();
  out << info.id() << ": n=" << shape.n << " seed=" << seed << "\n";
  // The seed's own example for --n 3, so its lost element is easy to see.
  const std::vector<int> in = shape.n == 3 ? std::vector<int>{5, 8, 3} : quicksort::make_input(shape.n, seed);
  const CaseResult r = quicksort::run_case(v, in);
  print_check(out, r);
  if (!r.ok()) return 1;
  // Each repetition sorts a fresh copy of the input (sorted input is quicksort's worst case).
  DeviceBuffer<int> source{std::span<const int>(in)}, data(in.size());
  const TimingSummary t = time_device_work(
      [&](cudaStream_t s) {
        if (!in.empty())
          KL_CUDA_CHECK(cudaMemcpyAsync(data.data(), source.data(), source.bytes(), cudaMemcpyDeviceToDevice, s));
        v.launch({data.data(), shape}, s);
      },
      3, reps, nullptr, {}, host_time_of(info.role));
  print_timing(out, t, 0.0);
  return 0;
}

}  // namespace kl::cli

namespace kl {

const Family& family_quicksort() {
  static const Family family = [] {
    Family f;
    f.name = "quicksort";
    f.variants = variants_of(quicksort::variants());
    f.run_flags = {{"n", "N", "elements to sort (default 4096; 3 sorts the seed's example)"},
                   cli::seed_flag_spec(),
                   cli::reps_flag_spec()};
    f.run = cli::run_quicksort;
    f.not_benchmarked = "dynamic parallelism with n capped at 2^16 (bounded recursion): the time is launch "
                        "latency of nested grids, far from any roofline, and no size fills the GPU";
    return f;
  }();
  return family;
}

}  // namespace kl
