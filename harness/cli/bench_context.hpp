// What a family's bench functions (Family::bench_cases, Family::bench_measure; family.hpp)
// work with: the case, the check, and the context they measure in.
//   bench_cases()    every case the family benches, read from its registry alone (no GPU): one per
//              variant (and per dtype where the family has several, per swept shape where it
//              sweeps shapes; Family::sweep_cases adds swept sizes). Planted variants and host
//              references come back with a skip_reason and are never measured.
//   bench_measure()  one case at the bench size: build (or reuse) the inputs, then
//              Bench::validated_timing (validate, time with L2 flushed, validate the output of
//              every timed run), and fill a bench::Result: the metric, the work, the ceiling it
//              is read against (a ceiling from Bench, measured once per process) and the
//              physical roof.
// A family that cannot be benchmarked meaningfully gives Family::not_benchmarked instead.
#pragma once

#include "core/report.hpp"
#include "core/repetitions.hpp"
#include "core/result.hpp"
#include "core/roofline.hpp"

#include "kl/case_result.hpp"
#include "kl/check.hpp"
#include "kl/device_buffer.hpp"
#include "kl/guarded_buffer.hpp"
#include "kl/registry.hpp"
#include "kl/timing.hpp"

#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace kl::cli {

struct BenchCase {
  std::string family;
  std::string variant;
  std::string dtype;        // "" unless the family benches several dtypes
  std::string skip_reason;  // non-empty: listed as not benchmarked, never measured
  std::string sweep;        // "" at the family's bench size, else a swept shape: "m1024_n8192_k4096"
  int max_reps = 0;         // > 0: at most this many timed runs, unless --reps says otherwise
  std::string key() const {
    return family + "." + variant + (dtype.empty() ? "" : "." + dtype) + (sweep.empty() ? "" : "." + sweep);
  }
};

class Bench;

// The device memory a case's work writes: its output, as bytes.
struct OutputBytes {
  const void* data = nullptr;
  std::size_t bytes = 0;
};
template <class T>
OutputBytes output_bytes(const DeviceBuffer<T>& buffer) {
  return {buffer.data(), buffer.bytes()};
}

// What a bench check found: the oracle comparison, plus what CaseResult has no field for (a
// family's own words about the failure). Converts from a CaseResult, so a hook whose check is an
// oracle comparison just returns that.
struct BenchCheck {
  CaseResult result;
  std::string detail;  // appended to the failure message; empty when there is nothing more

  BenchCheck(CaseResult r, std::string more = {})  // implicit on purpose: see above
      : result(std::move(r)), detail(std::move(more)) {}
  bool ok() const { return result.ok(); }
  std::string describe() const { return result.describe() + (detail.empty() ? "" : "\n  " + detail); }
};

// What a bench run keeps of a family between its cases (inputs, expected outputs; Bench::state),
// under keys of the family's own, while the run stays in that family: a family's cases come one
// after another (select_bench_cases), and a gate re-measured after the run builds its family's
// states again unless that family is still the current one (matmul's include its FP64 device
// references: seconds, not minutes). Why not for the whole run: each family's last states, its
// largest swept size, added up: elementwise's 2^30-float arrays (12 GiB) and matmul's inputs at
// all its shapes (11 GiB) stayed through the families after them, and the H100's 80 GB ran out
// in the last one (basics, 51 GB alone).
class FamilyStates {
 public:
  void begin_family(const std::string& family) {
    if (family == family_) return;
    states_.clear();
    family_ = family;
  }
  // The entry under `key`, default-constructed when new: the family builds it.
  template <class T>
  T& get(const std::string& key) {
    std::shared_ptr<void>& slot = states_[key];
    if (!slot) slot = std::make_shared<T>();
    return *static_cast<T*>(slot.get());
  }
  // Every state dropped: after a case that ran out of device memory, so the next starts afresh.
  void clear() {
    states_.clear();
    family_.clear();
  }
  std::size_t size() const { return states_.size(); }  // for the tests

 private:
  std::string family_;
  std::map<std::string, std::shared_ptr<void>> states_;
};

// What a hook measures with: device facts, the physical roofline, in-process ceilings, the
// repetition policy, L2 flushing and the family's cached inputs. One per `kernel-lab bench`.
class Bench {
 public:
  Bench(bench::RepetitionPolicy policy, std::ostream& log);
  ~Bench();
  Bench(const Bench&) = delete;
  Bench& operator=(const Bench&) = delete;

  const std::string& gpu() const { return gpu_; }
  const std::string& arch() const { return arch_; }
  const bench::Roofline& roofline() const { return roofline_; }
  const std::vector<bench::Ceiling>& ceilings() const { return ceilings_; }
  std::ostream& log() { return log_; }

  // The bench's method for one case. `prepare` runs before every launch, untimed (poison the
  // output, restore an in/out input); `work` is the timed launch; `check` reads the output
  // and compares it with the oracle. Order: prepare, work, check (validate first); a pilot
  // run that sizes the repetitions (about 200 ms of timed work, 3..20 runs, or --reps); the
  // timed runs, each after prepare, untimed runs that bring the GPU back to its clocks, and an
  // L2 flush. The pilot and every timed run are validated after their stop event, outside the
  // timing: a kernel that is right once and wrong on a later run (a race, a stale input) fails
  // the bench instead of being timed.
  // `output` (optional) makes validating a run cheap where `check` is not (hundreds of MiB
  // compared on the host, 20 runs a case): a run whose output is byte-identical to the last
  // one `check` passed gets the same verdict without `check`; any other output is checked in
  // full. Without it, `check` runs after every run.
  // Throws std::runtime_error naming the case and the run when a check fails.
  TimingSummary validated_timing(const BenchCase& c, const std::function<void(cudaStream_t)>& prepare,
                                 const std::function<void(cudaStream_t)>& work,
                                 const std::function<BenchCheck()>& check, OutputBytes output = {});

  // A ceiling measured once per process: the first call runs `measure`, later calls reuse it;
  // `reference` as offer_ceiling's.
  double ceiling(const std::string& name, const std::string& metric, const std::string& how,
                 const std::function<double()>& measure, const std::string& reference = "");
  // Records a ceiling a case has just measured (cuBLAS SGEMM, CUB), unless already known;
  // `reference` is the key of the case measured for it ("" for one the bench measured itself).
  void offer_ceiling(const std::string& name, const std::string& metric, const std::string& how, double value,
                     const std::string& reference = "");
  // How a family measures one of its cases (Family::bench_measure).
  using MeasureCase = std::function<bench::Result(const BenchCase&, Bench&)>;
  // Reads `r` against the family's reference case measured in this process (CUB, cuBLAS, the
  // family's fastest rung), the ceiling `name`: `reference` is that case, and `measure` measures
  // it. When r is the reference (the same key) it offers its own value and returns true: r's own
  // ceiling is then the caller's to give (the roof, a copy, itself); families ask this rather than
  // decide "this row is the reference" for themselves. Any other case gets the reference's value, measured once through
  // `measure` and checked against the roofline (a ceiling must be physical too), and false. The
  // reference is kept for confirm_references.
  [[nodiscard]] bool read_against_reference(bench::Result& r, const BenchCase& reference, const std::string& name,
                                            const std::string& how, const MeasureCase& measure);
  // Reads every reference recorded so far and not yet confirmed once more, and again while its
  // readings disagree (reference_readings.hpp); its ceiling becomes the fastest reading, and
  // `results` are read against that (a reference's own result becomes its fastest reading). The
  // bench calls it after each family's cases, while the family's inputs are still built, so the
  // gates and the report never rest on one slow reading of a library.
  void confirm_references(std::vector<bench::Result>& results);
  // A gate's re-measurement of a reference's own case: `again` becomes one more reading of its
  // ceiling and `results` are read against the fastest, as confirm_references does. False when
  // `again` is no reference's case (the caller replaces its row then).
  bool add_reference_reading(const bench::Result& again, std::vector<bench::Result>& results);
  // A case (or a reference's reading) whose buffers the GPU cannot hold, a sweep's largest sizes
  // on a GPU of less memory than the H100's 80 GB (basics needs 51 GiB at 2^30): every family's
  // inputs are dropped, so the next case starts from free memory, the failed allocation's error
  // is cleared (it is not sticky, but cudaGetLastError would still report it to the next check),
  // and the reason is returned: the rule, the memory the GPU had and CUDA's words. Any other
  // CUDA error: nullopt (the caller rethrows it).
  std::optional<std::string> recover_from_running_out_of_memory(const CudaError& e);
  // Waits until the GPU has drained, then idles it (bench::cool_down_ms: as long as it worked
  // since the last cool-down, up to 150 ms), so a power-hungry case starts on the same power
  // budget as its reference, whatever ran before it. On the H100 a tensor-core GEMM benched right
  // after another case reads up to 12% slower (the SW power cap: the budget the previous case
  // spent); 100 ms of idle restores it (50 ms: 704-715 TFLOPS, 100 ms: 718-721, 400 ms: 721-723,
  // none: 665-675, for rung 35 after mma_sync_pipeline at 4096^3).
  void cool_down();
  // Device-to-device cudaMemcpy of 1 GiB, GB/s of bytes read plus written, timed as a case is (as
  // every copy ceiling: timed_copy_ceiling): the memory-bound ceiling at a family's bench size.
  double d2d_copy_gbps();
  // The ceilings of a memory-bound case that moves `bytes` (read plus written), measured once per
  // size and timed as a case is (L2 flushed before every run, median): a device-to-device copy
  // of bytes / 2 (the same bytes moved), named "d2d_copy_<size>"; and, for a write-only case,
  // cudaMemset of `bytes`, named "memset_<size>". Each returns the ceiling's name and GB/s.
  std::pair<std::string, double> copy_ceiling(std::size_t bytes);
  std::pair<std::string, double> memset_ceiling(std::size_t bytes);
  // A memory-bound case's copy ceiling: "d2d_copy" (d2d_copy_gbps) at the family's bench size,
  // copy_ceiling(bytes) at a swept size.
  std::pair<std::string, double> copy_ceiling_of(const BenchCase& c, std::size_t bytes);

  // The run moves on to a case of `family` (cmd_bench, before every case it measures): the
  // states of any other family are dropped (FamilyStates).
  void begin_family(const std::string& family) { states_.begin_family(family); }
  // A case ran out of device memory: every family's states go (cmd_bench lists the case instead).
  void drop_states() { states_.clear(); }
  // The current family's inputs under `key`, built on first use and kept for its other cases.
  template <class T>
  T& state(const std::string& key) {
    return states_.get<T>(key);
  }

 private:
  void flush_l2(cudaStream_t stream);
  // The median ms of `work` (a driver call: a copy, a memset) timed as a case is, for a ceiling.
  double timed_like_a_case(const std::string& name, const std::function<void(cudaStream_t)>& work);
  // Ceiling `name`: GB/s (read plus written) of a device-to-device copy of `copied` bytes, timed
  // as a case is.
  double timed_copy_ceiling(const std::string& name, std::size_t copied);

  bench::RepetitionPolicy policy_;
  std::ostream& log_;
  std::string gpu_, arch_;
  bench::Roofline roofline_;
  std::vector<bench::Ceiling> ceilings_;
  struct ReferenceCase {
    BenchCase c;
    MeasureCase measure;
  };
  std::map<std::string, ReferenceCase> references_;  // by ceiling name
  DeviceBuffer<unsigned char> l2_flush_;
  unsigned flush_round_ = 0;
  std::chrono::steady_clock::time_point cooled_at_ = std::chrono::steady_clock::now();  // the last cool-down's end
  FamilyStates states_;
};

// Helpers every hook shares.

// What a family keeps of its inputs between cases, by a key of its own and the n they are for.
// The bench size's stay while the run is in the family (FamilyStates); asking for a new swept
// size drops the other swept sizes' first, so a sweep holds one size at a time (2^30 elements
// are gigabytes). `at` returns the entry, default-constructed when new: the family builds it.
template <class Key, class Inputs>
class InputsBySize {
 public:
  explicit InputsBySize(std::int64_t bench_n) : bench_n_(bench_n) {}
  Inputs& at(const Key& key, std::int64_t n) {
    if (!entries_.count({key, n}))
      std::erase_if(entries_, [&](const auto& e) { return e.first.second != bench_n_ && e.first.second != n; });
    return entries_[{key, n}];
  }

 private:
  std::int64_t bench_n_;
  std::map<std::pair<Key, std::int64_t>, Inputs> entries_;
};

// Fills `words` 4-byte words with the lab's poison (a NaN payload for floats, a sentinel no
// int output of the bench can equal), so an unwritten output fails its check.
void poison_words(void* data, std::size_t words, cudaStream_t stream);

// `reps` timed runs, each followed by its check (untimed); the times in order. Throws
// std::runtime_error naming the case and the first run whose output fails ("timed run 3 of 50").
std::vector<double> checked_repetitions(const BenchCase& c, int reps, const std::function<double()>& timed_run,
                                        const std::function<BenchCheck()>& check);

// What a validator keeps of the last output that passed: whether the current output's bytes
// equal it, and how the current output becomes it. The bench keeps it on the device
// (device_output_memory in bench_context.cpp: a copy compared on the GPU, nothing downloaded).
struct OutputMemory {
  std::function<bool()> equals_accepted;
  std::function<void()> accept;
  explicit operator bool() const { return equals_accepted && accept; }
};

// Validates one run's output after another: a full `check`, unless the output's bytes equal
// those of the last output that passed it, which then passes as it did. Without a memory, every
// validation is a full check.
class RunValidator {
 public:
  RunValidator(std::function<BenchCheck()> check, OutputMemory memory);
  BenchCheck operator()();
  std::size_t full_checks() const { return full_checks_; }

 private:
  std::function<BenchCheck()> check_;
  OutputMemory memory_;
  bool has_accepted_ = false;  // the memory holds an output that passed
  std::size_t full_checks_ = 0;
};

// A family's work model: what one run of a shape moves and computes. One function per family
// (work_of in its family.cpp) serves `run`'s printed bandwidth and the bench's throughput and
// arithmetic intensity alike.
struct Work {
  double bytes = 0;  // compulsory traffic: bytes read plus written
  double ops = 0;    // arithmetic operations (FLOPs, integer ops)
  double intensity() const { return bytes > 0 ? ops / bytes : 0; }
};

// A result with the throughput of `work` units per run at t.median_ms: TFLOPS/TOPS for
// operations (scale 1e12), GB/s for bytes (scale 1e9).
bench::Result throughput_result(const BenchCase& c, const std::string& shape, const TimingSummary& t, double work,
                                const std::string& metric, bench::Roof roof, double intensity);

// Sets r's ceiling to its physical roof (for references such as cuBLAS, and for variants with
// no library to compare with).
void use_roof_as_ceiling(bench::Result& r, const bench::Roofline& roofline);

// The cases of a registry table: one per variant, planted ones and host references skipped
// with the reason. `dtypes` empty: one case per variant.
template <class V>
std::vector<BenchCase> cases_of(const std::string& family, std::span<const V> table,
                                const std::vector<std::string>& dtypes = {});

std::string skip_reason_of(const VariantInfo& info);

// `cases` again at every swept n (harness/core/size_sweep.hpp), each tagged with the size and timed
// at most `max_reps` times; cases with a skip reason stay skipped.
std::vector<BenchCase> at_swept_sizes(const std::vector<BenchCase>& cases, int max_reps);
// The n a case times: `bench_n` at the family's bench size, else the n its size tag names.
std::int64_t case_size(const BenchCase& c, std::int64_t bench_n);

template <class V>
std::vector<BenchCase> cases_of(const std::string& family, std::span<const V> table,
                                const std::vector<std::string>& dtypes) {
  std::vector<BenchCase> out;
  for (const std::string& dtype : dtypes.empty() ? std::vector<std::string>{""} : dtypes)
    for (const V& v : table) out.push_back({family, v.info.name, dtype, skip_reason_of(v.info), "", 0});
  return out;
}

}  // namespace kl::cli
