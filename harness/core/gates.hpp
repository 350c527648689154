// Performance gates: the reviewed file (bench/gates.conf), its per-architecture and per-GPU sections, and
// their evaluation with re-measurement. Host-only: the host tier tests parsing and evaluation
// with stubbed measurements.
//
// File format (also documented at the top of bench/gates.conf):
//   [default]                       gates for every GPU
//   [sm_90]                         gates for one architecture; a gate here replaces the
//                                   [default] gate of the same kind on the same result(s)
//   [gpu NVIDIA H100 80GB HBM3]     gates for one GPU model (the CUDA runtime's name for it),
//                                   layered over its architecture's section the same way
//   min_ratio KEY >= T              KEY's ratio to its ceiling must be at least T
//   order KEY_A >= K x KEY_B        KEY_A's value must be at least K times KEY_B's
//   T or K may be `off`: that gate is dropped for the section's GPUs.
//   `#` starts a comment; KEY is family.variant[.dtype][.sweep], as in the bench's results.
#pragma once

#include "result.hpp"

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace kl::bench {

// A malformed gates file: "<path>:<line>: <what is wrong>". Bad input, so the CLI exits 2.
class GatesFileError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

enum class GateKind { min_ratio, order };

struct Gate {
  GateKind kind = GateKind::min_ratio;
  std::string a;  // the result gated (min_ratio) or the left side (order)
  std::string b;  // order: the right side
  double threshold = 0;
  bool off = false;
  std::string section;  // "default", an architecture such as "sm_90", or "gpu NVIDIA H100 80GB HBM3"
  int line = 0;

  // Stable across threshold changes: "min_ratio(matmul.naive)", "order(matmul.naive / matmul.uncoalesced)".
  std::string name() const;
  // The rule in words: "ratio to ceiling >= 0.0713", "matmul.naive >= 4 x matmul.uncoalesced".
  std::string rule() const;
  // The results it reads.
  std::vector<std::string> keys() const;
};

struct GatesFile {
  std::string path;
  std::vector<Gate> gates;  // every section, in file order
};

GatesFile parse_gates(std::istream& in, const std::string& path);
// Throws GatesFileError when the file cannot be read, is not a regular file or is larger than
// max_gates_file_bytes (bench/gates.conf is a few KiB).
inline constexpr std::uintmax_t max_gates_file_bytes = 1 << 20;
GatesFile load_gates(const std::string& path);

// The gates for one GPU: [default], overridden (same name) and extended by [arch], then by
// [gpu <gpu>]; `off` gates removed. Sections for other architectures and GPUs are ignored.
std::vector<Gate> gates_for_device(const GatesFile& file, const std::string& arch, const std::string& gpu);

enum class GateStatus { pass, fail, remeasured_pass };
std::string to_string(GateStatus status);  // "pass", "fail", "remeasured-pass"

struct GateOutcome {
  Gate gate;
  GateStatus status = GateStatus::fail;
  double measured = 0;  // min_ratio: the ratio to the ceiling; order: value(a) / value(b)
  double first_measured = 0;  // the same before any re-measurement (its own or another gate's)
  int remeasures = 0;   // how many times its results were measured again
  std::string message;  // names the gate, the measured ratio and the threshold
};

struct GateEvaluation {
  std::vector<GateOutcome> outcomes;   // gates whose results were measured (or must have been)
  std::vector<std::string> not_applicable;  // gates on results outside this run's selection
  bool passed() const;
};

// How many times a failing gate's results are measured again before it fails.
inline constexpr int default_max_remeasures = 2;

// Measures `key` again and replaces its entry in the results (the callback's job).
using Remeasure = std::function<void(const std::string& key)>;

// Evaluates every gate whose results are present. A failing gate has its results re-measured
// up to `max_remeasures` times and passes (remeasured-pass) as soon as it holds. A gate naming a
// result of a family in `complete_families` (benched without a variant filter) that is absent
// fails: a typo in the gates file must not silently gate nothing. A gate naming a key in
// `unmeasured` (cases the run selected but could not measure on this GPU, each listed in the
// report's exclusions with its reason: a swept size larger than the GPU's memory) is not
// applicable instead. Every verdict is on the results as they stand at the end: a gate decided
// before another gate's re-measurement moved its reading is decided again.
GateEvaluation evaluate_gates(const std::vector<Gate>& gates, std::vector<Result>& results,
                              const std::set<std::string>& complete_families, const Remeasure& remeasure,
                              int max_remeasures = default_max_remeasures,
                              const std::set<std::string>& unmeasured = {});

// Results no evaluated gate reads: printed so a reviewer sees what is not yet gated.
std::vector<std::string> ungated_keys(const GateEvaluation& evaluation, const std::vector<Result>& results);

}  // namespace kl::bench
