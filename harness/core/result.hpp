// One benchmark result: a variant's achieved throughput, its timing, and its ratio to a ceiling
// measured in the same process. Host-only (no CUDA), so the host tier tests everything built on it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kl::bench {

// The physical limit a result is held against (see roofline.hpp).
enum class Roof {
  dram_bandwidth,  // GB/s of bytes read plus written
  fp32,            // TFLOPS on the FP32 lanes
  fp16_tensor,     // TFLOPS on the tensor cores, FP16 in, FP32 accumulate
  int32,           // TOPS on the 32-bit integer lanes
  none,            // no physical roof applies (e.g. library transcendentals with no fixed FLOP count)
};

// The characters of each word of a result key (family, variant, dtype, sweep tag): family names
// are held to them wherever one is declared.
inline constexpr std::string_view key_characters = "abcdefghijklmnopqrstuvwxyz0123456789_";
// Whether `word` is one word of a key: not empty, key_characters only.
inline bool is_key_word(std::string_view word) {
  return !word.empty() && word.find_first_not_of(key_characters) == std::string_view::npos;
}

struct Result {
  std::string family;
  std::string variant;  // the registry name
  std::string dtype;    // "" unless the family benches one variant on several dtypes
  std::string sweep;    // "" at the family's bench size, else the swept shape's tag: "m1024_n8192_k4096"
  std::string shape;    // what was run, for people: "m=4096 n=4096 k=4096"
  std::string metric;   // "TFLOPS", "TOPS" or "GB/s"
  double value = 0;     // achieved, in `metric`
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  int reps = 0;
  // Every timed run's ms, in the order they ran: whether a slow median was a stretch of slow runs
  // or a few, and whether it came early or late.
  std::vector<double> runs_ms;
  std::string ceiling;       // what `ratio` divides by: "cublas_sgemm", "d2d_copy", "fp32_peak", ...
  double ceiling_value = 0;  // in `metric`
  // Useful operations per byte of compulsory DRAM traffic (each input read once, each output
  // written once): where the result sits on the roofline's x axis.
  double intensity = 0;
  Roof roof = Roof::dram_bandwidth;

  // Unique in a run, and what gates, TSV lines and LESSONS name: family.variant[.dtype][.sweep].
  std::string key() const {
    return family + "." + variant + (dtype.empty() ? "" : "." + dtype) + (sweep.empty() ? "" : "." + sweep);
  }
  double ratio() const { return ceiling_value > 0 ? value / ceiling_value : 0; }
};

// What a result's times must be to be a measurement, for every reader of them (the bench's JSON
// report and its TSV) and their fuzz targets: each one present (not NaN: null, absent) is >= 0,
// and min <= median <= max where all three are. "" when they are, else the rule broken with the
// values (a hand-edited or corrupted file: the bench writes the median of runs it took the min and
// max of).
std::string times_problem(double median_ms, double min_ms, double max_ms);

}  // namespace kl::bench
