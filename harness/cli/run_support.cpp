#include "run_support.hpp"

#include "kl/device_buffer.hpp"

#include <iomanip>
#include <ostream>

namespace kl::cli {

void print_check(std::ostream& out, const CaseResult& r) {
  out << "check: " << (r.ok() ? "PASS" : "FAIL") << " (" << r.describe() << ")\n";
}

void print_timing(std::ostream& out, const TimingSummary& t, double bytes) {
  out << std::fixed << std::setprecision(4) << "time: median " << t.median_ms << " ms (min " << t.min_ms
      << ", max " << t.max_ms << ", " << t.repetitions << " reps)";
  if (bytes > 0 && t.median_ms > 0)
    out << std::setprecision(1) << ", " << bytes / (t.median_ms * 1e6) << " GB/s (bytes read + written)";
  out << "\n";
  if (t.unheld_runs > 0)
    out << "note: " << t.unheld_runs << " of " << t.repetitions
        << " runs were timed without holding the GPU (the host took longer than the hold's budget to queue one); "
           "their times include the host's\n";
  out.unsetf(std::ios::floatfield);
}

double d2d_copy_gbps(std::size_t bytes, int reps) {
  DeviceBuffer<std::byte> src(bytes), dst(bytes);
  KL_CUDA_CHECK(cudaMemset(src.data(), 1, bytes));
  const TimingSummary t = time_device_work(
      [&](cudaStream_t s) {
        KL_CUDA_CHECK(cudaMemcpyAsync(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice, s));
      },
      3, reps);
  return 2.0 * static_cast<double>(bytes) / (t.median_ms * 1e6);
}

FlagSpec seed_flag_spec() { return {"seed", "S", "seed of the input data (default 1)"}; }
FlagSpec reps_flag_spec() { return {"reps", "R", "timed repetitions (default 20)"}; }

int reps_flag(const ParsedArgs& a) { return static_cast<int>(a.integer("reps", 20, 1, 10000)); }
std::uint64_t seed_flag(const ParsedArgs& a) { return static_cast<std::uint64_t>(a.integer("seed", 1, 0, wide_range)); }

HostTime host_time_of(Role role) { return role == Role::reference ? HostTime::included : HostTime::excluded; }

void require_supported(const VariantInfo& info, const std::string& rule) {
  if (!rule.empty()) throw std::invalid_argument(info.id() + ": " + rule);
}

}  // namespace kl::cli
