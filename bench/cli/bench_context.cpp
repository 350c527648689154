// Bench: the measuring context every family hook shares (see bench_hook.hpp).
#include "bench_hook.hpp"
#include "run_support.hpp"

#include "core/format.hpp"

#include "kl/device_facts.hpp"
#include "kl/guarded_buffer.hpp"

#include <algorithm>
#include <ostream>
#include <stdexcept>
#include <utility>

namespace kl::cli {
namespace {

bench::DeviceAttributes device_attributes() {
  const DeviceFacts facts = device_facts();
  auto attribute = [&](cudaDeviceAttr what) {
    int value = 0;
    KL_CUDA_CHECK(cudaDeviceGetAttribute(&value, what, facts.device));
    return value;
  };
  bench::DeviceAttributes d;
  d.name = facts.name;
  d.cc_major = facts.cc_major;
  d.cc_minor = facts.cc_minor;
  d.sm_count = facts.sm_count;
  d.sm_clock_khz = attribute(cudaDevAttrClockRate);
  d.mem_clock_khz = attribute(cudaDevAttrMemoryClockRate);
  d.bus_width_bits = attribute(cudaDevAttrGlobalMemoryBusWidth);
  d.l2_bytes = attribute(cudaDevAttrL2CacheSize);
  return d;
}

void require_ok(const CaseResult& r, const BenchCase& c, const char* which) {
  if (!r.ok())
    throw std::runtime_error("bench " + c.key() + ": the output " + which + " failed its check: " + r.describe());
}

}  // namespace

Bench::Bench(bench::RepetitionPolicy policy, std::ostream& log) : policy_(policy), log_(log) {
  const bench::DeviceAttributes d = device_attributes();
  gpu_ = d.name;
  arch_ = bench::arch_name(d.cc_major, d.cc_minor);
  roofline_ = bench::roofline_of(d);
  // Twice the L2, so writing it evicts everything a previous run left there.
  l2_flush_ = DeviceBuffer<unsigned char>(std::max<std::size_t>(2 * static_cast<std::size_t>(d.l2_bytes), 1 << 20));
}

Bench::~Bench() = default;

void Bench::flush_l2(cudaStream_t stream) {
  KL_CUDA_CHECK(cudaMemsetAsync(l2_flush_.data(), static_cast<int>(++flush_round_ & 0xff), l2_flush_.size(), stream));
}

TimingSummary Bench::validated_timing(const BenchCase& c, const std::function<void(cudaStream_t)>& prepare,
                                      const std::function<void(cudaStream_t)>& work,
                                      const std::function<CaseResult()>& check) {
  cudaStream_t stream = nullptr;
  prepare(stream);
  work(stream);  // also the first warm-up: module loading, library heuristics
  KL_CUDA_CHECK(cudaStreamSynchronize(stream));
  require_ok(check(), c, "before timing");

  EventPair events;
  auto timed_run = [&] {
    prepare(stream);
    flush_l2(stream);
    events.start(stream);
    work(stream);
    events.stop(stream);
    return static_cast<double>(events.elapsed_ms());
  };
  const double pilot_ms = timed_run();
  const int reps = bench::repetitions_for(pilot_ms, policy_);
  std::vector<double> ms;
  for (int i = 0; i < reps; ++i) ms.push_back(timed_run());
  KL_CUDA_CHECK(cudaStreamSynchronize(stream));
  require_ok(check(), c, "of the timed runs");

  return summarize_timings(std::move(ms));
}

double Bench::ceiling(const std::string& name, const std::string& metric, const std::string& how,
                      const std::function<double()>& measure) {
  for (const bench::Ceiling& c : ceilings_)
    if (c.name == name) return c.value;
  const double value = measure();
  offer_ceiling(name, metric, how, value);
  return value;
}

void Bench::offer_ceiling(const std::string& name, const std::string& metric, const std::string& how, double value) {
  for (const bench::Ceiling& c : ceilings_)
    if (c.name == name) return;
  ceilings_.push_back({name, metric, value, how});
  log_ << "ceiling " << name << ": " << bench::sig3(value) << " " << metric << " (" << how << ")\n";
}

double Bench::d2d_copy_gbps() {
  constexpr std::size_t bytes = std::size_t{1} << 30;
  return ceiling("d2d_copy", "GB/s", "cudaMemcpy device to device of 1 GiB, bytes read plus written, median of 20",
                 [] { return kl::cli::d2d_copy_gbps(bytes, 20); });
}

void poison_words(void* data, std::size_t words, cudaStream_t stream) {
  detail::fill_words(data, words, 4, GuardPatterns<4>::poison, stream);
}

bench::Result throughput_result(const BenchCase& c, const std::string& shape, const TimingSummary& t, double work,
                                const std::string& metric, bench::Roof roof, double intensity) {
  bench::Result r;
  r.family = c.family;
  r.variant = c.variant;
  r.dtype = c.dtype;
  r.shape = shape;
  r.metric = metric;
  const double scale = metric == "GB/s" ? 1e9 : 1e12;
  r.value = t.median_ms > 0 ? work / (t.median_ms * 1e-3) / scale : 0;
  r.median_ms = t.median_ms;
  r.min_ms = t.min_ms;
  r.max_ms = t.max_ms;
  r.reps = t.repetitions;
  r.roof = roof;
  r.intensity = intensity;
  return r;
}

void use_roof_as_ceiling(bench::Result& r, const bench::Roofline& roofline) {
  r.ceiling = bench::roof_name(r.roof);
  r.ceiling_value = bench::roof_value(roofline, r.roof);
}

std::string skip_reason_of(const VariantInfo& info) {
  if (info.planted()) return "planted bug: the proof that a checker bites, not a kernel to time";
  if (info.name.rfind("cpu_", 0) == 0) return "host reference: runs on the CPU";
  return "";
}

}  // namespace kl::cli
