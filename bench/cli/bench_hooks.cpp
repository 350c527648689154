// The one table of `kernel-lab bench` hooks: a line per family. A family with nothing a
// throughput can say about it gets a line with the reason instead, printed in every report.
// The host test kl.bench.consistency fails if a family of the catalogue has no line here, or if
// bench/CMakeLists.txt's perf tests and this table disagree.
#include "bench_hook.hpp"

namespace kl::cli {

std::vector<BenchCase> matmul_bench_cases();
bench::Result matmul_bench_measure(const BenchCase&, Bench&);
std::vector<BenchCase> imatmul_bench_cases();
bench::Result imatmul_bench_measure(const BenchCase&, Bench&);
std::vector<BenchCase> reduction_bench_cases();
bench::Result reduction_bench_measure(const BenchCase&, Bench&);
std::vector<BenchCase> elementwise_bench_cases();
bench::Result elementwise_bench_measure(const BenchCase&, Bench&);
std::vector<BenchCase> basics_bench_cases();
bench::Result basics_bench_measure(const BenchCase&, Bench&);
std::vector<BenchCase> dispatch_bench_cases();
bench::Result dispatch_bench_measure(const BenchCase&, Bench&);
std::vector<BenchCase> riemann_bench_cases();
bench::Result riemann_bench_measure(const BenchCase&, Bench&);

const std::vector<BenchHook>& bench_hooks() {
  static const std::vector<BenchHook> hooks = {
      {"matmul", nullptr, matmul_bench_cases, matmul_bench_measure},
      {"imatmul", nullptr, imatmul_bench_cases, imatmul_bench_measure},
      {"reduction", nullptr, reduction_bench_cases, reduction_bench_measure},
      {"elementwise", nullptr, elementwise_bench_cases, elementwise_bench_measure},
      {"basics", nullptr, basics_bench_cases, basics_bench_measure},
      {"dispatch", nullptr, dispatch_bench_cases, dispatch_bench_measure},
      {"sync", "the deadlock lab: its kernels spin, deadlock under a watchdog or wait at barriers by design; "
               "their time measures waiting, not throughput", nullptr, nullptr},
      {"riemann", nullptr, riemann_bench_cases, riemann_bench_measure},
      {"quicksort", "dynamic parallelism with n capped at 2^16 (bounded recursion): the time is launch "
                    "latency of nested grids, far from any roofline, and no size fills the GPU", nullptr, nullptr},
  };
  return hooks;
}

const BenchHook* find_bench_hook(const std::string& family) {
  for (const BenchHook& h : bench_hooks())
    if (family == h.family) return &h;
  return nullptr;
}

}  // namespace kl::cli
