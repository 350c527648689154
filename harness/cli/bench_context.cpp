// Bench: the measuring context every family's bench functions share (see bench_context.hpp).
#include "bench_context.hpp"

#include "core/size_sweep.hpp"
#include "run_support.hpp"

#include "core/format.hpp"
#include "core/reference_readings.hpp"

#include "kl/device_compare.hpp"
#include "kl/device_facts.hpp"
#include "kl/guarded_buffer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <thread>
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

// Between timed runs the GPU idles while the harness poisons the output and compares it on the
// device; a short kernel timed right after an idle gap pays for the clocks ramping back up (on an
// H100, when each check downloaded the output, GemmEx FP16 timed 0.22 ms instead of 0.19). So each
// timed run is preceded by untimed runs of the same work adding up to about this much GPU time.
// 2 ms, not the 10 ms of the download era: measured on the H100 over five perf tiers each, every
// CUDA-core and memory-bound ratio moved less than 1%, and the tier took 15 s less; the
// tensor-core library reads about 10% faster at 2 ms (10 ms of tensor-core re-warming before
// every timed run held its clocks lower), so the tensor-core gates rest on 2 ms measurements.
constexpr double rewarm_ms = 2.0;
constexpr int max_rewarm_runs = 2000;  // kernels of microseconds: launch cost dominates past this

// Untimed runs of `run_ms` each that make up rewarm_ms; none for a run that long by itself.
int rewarm_runs(double run_ms) {
  if (run_ms >= rewarm_ms) return 0;
  if (run_ms <= rewarm_ms / max_rewarm_runs) return max_rewarm_runs;
  return static_cast<int>(std::ceil(rewarm_ms / run_ms));
}

// The last passing output, kept as a device copy of `output` and compared on the GPU, so a
// timed run's output is never downloaded unless it differs (then the family's check reads it);
// none without an output.
OutputMemory device_output_memory(OutputBytes output) {
  if (output.data == nullptr || output.bytes == 0) return {};
  auto accepted = std::make_shared<DeviceBuffer<std::byte>>(output.bytes);
  auto count = std::make_shared<DeviceBuffer<unsigned long long>>(1);  // no allocation per comparison
  return {[output, accepted, count] {
            return count_differing_bytes(output.data, accepted->data(), output.bytes, count->data()) == 0;
          },
          [output, accepted] {
            KL_CUDA_CHECK(cudaMemcpy(accepted->data(), output.data, output.bytes, cudaMemcpyDeviceToDevice));
          }};
}

// "validated matmul.naive: 9 outputs, 1 checked in full, the others byte-identical to one that
// passed": `outputs` counts the one before timing, the pilot's and the timed runs'.
std::string validation_summary(const BenchCase& c, std::size_t outputs, std::size_t full_checks) {
  std::string line = "validated " + c.key() + ": " + std::to_string(outputs) + " outputs, " +
                     std::to_string(full_checks) + " checked in full";
  return full_checks < outputs ? line + ", the others byte-identical to one that passed" : line;
}

void require_ok(const BenchCheck& r, const BenchCase& c, const std::string& which) {
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

void Bench::cool_down() {
  KL_CUDA_CHECK(cudaDeviceSynchronize());
  const std::chrono::duration<double, std::milli> worked = std::chrono::steady_clock::now() - cooled_at_;
  std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(bench::cool_down_ms(worked.count())));
  cooled_at_ = std::chrono::steady_clock::now();
}

void Bench::flush_l2(cudaStream_t stream) {
  KL_CUDA_CHECK(cudaMemsetAsync(l2_flush_.data(), static_cast<int>(++flush_round_ & 0xff), l2_flush_.size(), stream));
}

TimingSummary Bench::validated_timing(const BenchCase& c, const std::function<void(cudaStream_t)>& prepare,
                                      const std::function<void(cudaStream_t)>& work,
                                      const std::function<BenchCheck()>& check, OutputBytes output) {
  RunValidator validate(check, device_output_memory(output));

  cudaStream_t stream = nullptr;
  prepare(stream);
  work(stream);  // also the first warm-up: module loading, library heuristics
  KL_CUDA_CHECK(cudaStreamSynchronize(stream));
  require_ok(validate(), c, "before timing");

  EventPair events;
  auto timed_run = [&] {
    prepare(stream);
    flush_l2(stream);
    events.start(stream);
    work(stream);
    events.stop(stream);
    return static_cast<double>(events.elapsed_ms());
  };
  const double pilot_ms = timed_run();  // elapsed_ms waited for the stop event: the output is final
  require_ok(validate(), c, "of the pilot run");
  bench::RepetitionPolicy policy = policy_;  // a case's own cap narrows the bench's; --reps still wins
  if (c.max_reps > 0) policy.max_reps = std::min(policy.max_reps, c.max_reps);
  const int reps = bench::repetitions_for(pilot_ms, policy);
  const int warm_runs = rewarm_runs(pilot_ms);
  auto rewarmed_timed_run = [&] {
    for (int i = 0; i < warm_runs; ++i) {
      prepare(stream);  // what work expects to find, as before any run
      work(stream);
    }
    return timed_run();
  };
  // By reference: the validator keeps the accepted bytes and counts its full checks.
  const auto validate_run = [&] { return validate(); };
  const TimingSummary t = summarize_timings(checked_repetitions(c, reps, rewarmed_timed_run, validate_run));
  log_ << validation_summary(c, static_cast<std::size_t>(reps) + 2, validate.full_checks()) << "\n";
  return t;
}

std::vector<double> checked_repetitions(const BenchCase& c, int reps, const std::function<double()>& timed_run,
                                        const std::function<BenchCheck()>& check) {
  std::vector<double> ms;
  for (int i = 1; i <= reps; ++i) {
    ms.push_back(timed_run());
    require_ok(check(), c, "of timed run " + std::to_string(i) + " of " + std::to_string(reps));
  }
  return ms;
}

RunValidator::RunValidator(std::function<BenchCheck()> check, OutputMemory memory)
    : check_(std::move(check)), memory_(std::move(memory)) {}

BenchCheck RunValidator::operator()() {
  if (memory_ && has_accepted_ && memory_.equals_accepted()) return CaseResult{};  // the bytes that passed
  ++full_checks_;
  BenchCheck result = check_();
  if (result.ok() && memory_) {
    memory_.accept();
    has_accepted_ = true;
  }
  return result;
}

double Bench::ceiling(const std::string& name, const std::string& metric, const std::string& how,
                      const std::function<double()>& measure, const std::string& reference) {
  for (const bench::Ceiling& c : ceilings_)
    if (c.name == name) return c.value;
  const double value = measure();
  offer_ceiling(name, metric, how, value, reference);
  return value;
}

bool Bench::read_against_reference(bench::Result& r, const BenchCase& reference, const std::string& name,
                                   const std::string& how, const MeasureCase& measure) {
  references_.emplace(name, ReferenceCase{reference, measure});
  if (r.key() == reference.key()) {
    offer_ceiling(name, r.metric, how, r.value, r.key());
    return true;
  }
  r.ceiling = name;
  r.ceiling_value = ceiling(
      name, r.metric, how,
      [&] {
        const bench::Result ref = measure(reference, *this);
        bench::check_against_roofline(ref, roofline_);
        return ref.value;
      },
      reference.key());
  return false;
}

namespace {

// The log's "now KEY: N% of CEILING (printed above: M%)" for every result a reference's new reading
// moved, so that no percentage the log printed stands uncorrected.
void log_rereads(std::ostream& log, const std::vector<bench::Reread>& moved) {
  for (const bench::Reread& m : moved)
    if (const std::string text = bench::reread_text(m); !text.empty()) log << "  now " << text << "\n";
}

}  // namespace

void Bench::confirm_references(std::vector<bench::Result>& results) {
  // By index: a reference's measurement may record a ceiling of its own (a copy), which would
  // move the others.
  for (std::size_t i = 0; i < ceilings_.size(); ++i) {
    const std::string name = ceilings_[i].name;
    const auto ref = references_.find(name);
    if (ref == references_.end() || !bench::needs_reading(ceilings_[i])) continue;
    // The fastest reading as a result: the reference's own, if the run measured it as a case.
    bench::Result fastest;
    for (const bench::Result& r : results)
      if (r.key() == ceilings_[i].reference) fastest = r;
    try {
      while (bench::needs_reading(ceilings_[i])) {
        const bench::Result again = ref->second.measure(ref->second.c, *this);
        bench::check_against_roofline(again, roofline_);
        bench::add_reading(ceilings_[i], again.value);
        if (again.value > fastest.value) fastest = again;
      }
    } catch (const CudaError& e) {
      const std::optional<std::string> why = recover_from_running_out_of_memory(e);
      if (!why) throw;
      log_ << "reference " << name << " not read again (the readings so far stand): " << *why << "\n";
    }
    const std::vector<bench::Reread> moved = bench::reread_against(ceilings_[i], results, fastest);
    if (ceilings_[i].readings.size() > 1)
      log_ << "reference " << name << " read again: " << bench::readings_text(ceilings_[i]) << "\n";
    log_rereads(log_, moved);
  }
}

bool Bench::add_reference_reading(const bench::Result& again, std::vector<bench::Result>& results) {
  for (bench::Ceiling& c : ceilings_) {
    if (c.reference != again.key()) continue;
    bench::add_reading(c, again.value);
    const std::vector<bench::Reread> moved = bench::reread_against(c, results, again);
    log_ << "reference " << c.name << " re-measured: " << bench::readings_text(c) << "\n";
    log_rereads(log_, moved);
    return true;
  }
  return false;
}

std::optional<std::string> Bench::recover_from_running_out_of_memory(const CudaError& e) {
  if (e.status() != cudaErrorMemoryAllocation) return std::nullopt;
  drop_states();
  (void)cudaGetLastError();
  std::size_t free = 0, total = 0;
  KL_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  constexpr double gib = 1024.0 * 1024.0 * 1024.0;
  return "does not fit in this GPU's memory (" + bench::sig3(static_cast<double>(free) / gib) + " of " +
         bench::sig3(static_cast<double>(total) / gib) + " GiB free with the bench's inputs dropped): " + e.what();
}

void Bench::offer_ceiling(const std::string& name, const std::string& metric, const std::string& how, double value,
                          const std::string& reference) {
  for (const bench::Ceiling& c : ceilings_)
    if (c.name == name) return;
  ceilings_.push_back({name, metric, value, how, reference, reference.empty() ? std::vector<double>{} : std::vector<double>{value}});
  log_ << "ceiling " << name << ": " << bench::sig3(value) << " " << metric << " (" << how << ")\n";
}

namespace {

// "1.5 MiB" style, as a ceiling's name suffix allows: 48KiB, 12MiB, 3GiB, 100B.
std::string bytes_tag(std::size_t bytes) {
  static constexpr const char* units[] = {"B", "KiB", "MiB", "GiB"};
  int unit = 0;
  while (unit < 3 && bytes % 1024 == 0 && bytes >= 1024) {
    bytes /= 1024;
    ++unit;
  }
  return std::to_string(bytes) + units[unit];
}

}  // namespace

double Bench::timed_like_a_case(const std::string& name, const std::function<void(cudaStream_t)>& work) {
  return validated_timing({"ceiling", name, "", "", "", 0}, [](cudaStream_t) {}, work,
                          [] { return BenchCheck(CaseResult{}); })
      .median_ms;
}

std::pair<std::string, double> Bench::copy_ceiling_of(const BenchCase& c, std::size_t bytes) {
  if (c.sweep.empty()) return {"d2d_copy", d2d_copy_gbps()};
  return copy_ceiling(bytes);
}

double Bench::timed_copy_ceiling(const std::string& name, std::size_t copied) {
  const std::string how =
      "cudaMemcpy device to device of " + bytes_tag(copied) + ", bytes read plus written, timed as a case (L2 flushed, median)";
  return ceiling(name, "GB/s", how, [&] {
    DeviceBuffer<std::byte> src(copied), dst(copied);
    KL_CUDA_CHECK(cudaMemset(src.data(), 1, copied));
    const double ms = timed_like_a_case(name, [&](cudaStream_t s) {
      KL_CUDA_CHECK(cudaMemcpyAsync(dst.data(), src.data(), copied, cudaMemcpyDeviceToDevice, s));
    });
    return 2.0 * static_cast<double>(copied) / (ms * 1e6);
  });
}

std::pair<std::string, double> Bench::copy_ceiling(std::size_t bytes) {
  const std::size_t half = std::max<std::size_t>(bytes / 2, 4);
  const std::string name = "d2d_copy_" + bytes_tag(2 * half);
  return {name, timed_copy_ceiling(name, half)};
}

double Bench::d2d_copy_gbps() { return timed_copy_ceiling("d2d_copy", std::size_t{1} << 30); }

std::pair<std::string, double> Bench::memset_ceiling(std::size_t bytes) {
  const std::string name = "memset_" + bytes_tag(bytes);
  const std::string how = "cudaMemset of " + bytes_tag(bytes) + ", bytes written, timed as a case (L2 flushed, median)";
  const double value = ceiling(name, "GB/s", how, [&] {
    DeviceBuffer<std::byte> dst(bytes);
    const double ms =
        timed_like_a_case(name, [&](cudaStream_t s) { KL_CUDA_CHECK(cudaMemsetAsync(dst.data(), 0x5a, bytes, s)); });
    return static_cast<double>(bytes) / (ms * 1e6);
  });
  return {name, value};
}

std::vector<BenchCase> at_swept_sizes(const std::vector<BenchCase>& cases, int max_reps) {
  std::vector<BenchCase> out;
  for (const std::int64_t n : bench::sweep_sizes())
    for (BenchCase c : cases) {
      c.sweep = bench::size_tag(n);
      c.max_reps = max_reps;
      out.push_back(std::move(c));
    }
  return out;
}

std::int64_t case_size(const BenchCase& c, std::int64_t bench_n) {
  if (c.sweep.empty()) return bench_n;
  if (const std::optional<std::int64_t> n = bench::size_of_tag(c.sweep)) return *n;
  throw std::logic_error(c.key() + ": '" + c.sweep + "' is not a size tag");
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
  r.sweep = c.sweep;
  r.shape = shape;
  r.metric = metric;
  const double scale = metric == "GB/s" ? 1e9 : 1e12;
  r.value = t.median_ms > 0 ? work / (t.median_ms * 1e-3) / scale : 0;
  r.median_ms = t.median_ms;
  r.min_ms = t.min_ms;
  r.max_ms = t.max_ms;
  r.reps = t.repetitions;
  r.runs_ms = t.runs_ms;
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
