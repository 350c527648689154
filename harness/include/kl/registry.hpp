// The variant registry: one table per kernel family replaces `switch (kernel_num)`.
//
// Every test, property, sanitizer run, CLI listing and benchmark iterates these tables, so no
// list of variants is written twice. Each entry says where it comes from (seed file and
// kernel name), what it teaches, which shapes it supports, how to launch it, and what each
// checker is expected to say about it: nothing for a clean variant, the planted finding for a
// deliberately broken one.
#pragma once

#include "kl/check.hpp"
#include "kl/perturb.hpp"

#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace kl {

// The checkers a planted bug can be aimed at.
enum class Checker {
  memcheck,   // compute-sanitizer --tool memcheck
  racecheck,  // compute-sanitizer --tool racecheck
  synccheck,  // compute-sanitizer --tool synccheck
  initcheck,  // compute-sanitizer --tool initcheck
  canary,     // the poisoned-output / canary check, no tool
  oracle,     // comparison against the reference (a property must fail)
  watchdog,   // the device watchdog trips instead of hanging
  perturbation,  // the perturbation build (kl/perturb.hpp) makes the run fail; without it every
                 // test and tool passes: an ordering bug between blocks
};
std::string_view to_string(Checker checker);
bool is_sanitizer_tool(Checker checker);

enum class Role {
  reference,  // variant 0 of its family: cuBLAS, CUB or an exact CPU oracle
  teaching,   // a rung of the seed's ladder: must be correct and sanitizer-clean
  flawed,     // a seed rung kept as written: correct results on the lab's GPU, yet a checker
              // reports it (e.g. warp-synchronous code without __syncwarp); benchmarked, and
              // its findings are asserted like a planted bug's
  planted,    // a deliberate bug: must be caught by each checker in `findings`
};

struct ExpectedFinding {
  Checker checker;
  // For sanitizer checkers: an ECMAScript regex the tool's report must match.
  std::string report_pattern;
  // For sanitizer checkers: the name of the ctest entry kl.expect.<repro> and target repro-<repro>.
  std::string repro;
  // `kernel-lab run <variant>` arguments that trigger the finding.
  std::vector<std::string> run_args;
  // Variant (family.name) that fixes the bug: the same check must stay silent on it.
  std::string fixed_by;
};

struct VariantInfo {
  std::string family;
  std::string name;
  std::string seed_file;    // e.g. 003_2eb1131b3d611900.txt
  std::string seed_kernel;  // the kernel's name in that document
  std::string lesson;       // what it teaches; printed by `kernel-lab list`
  Role role = Role::teaching;
  std::vector<ExpectedFinding> findings;  // empty: clean under every checker

  std::string id() const { return family + "." + name; }
  bool planted() const { return role == Role::planted; }
  // Planted or flawed: its findings are asserted (kl.expect.*); its suites are left out of the
  // sanitizer runs of the tools that report them, and only those.
  bool has_findings() const { return role == Role::planted || role == Role::flawed; }
};

// "" when a shape is supported, else the rule it breaks (named so a user can fix the input).
template <class Shape>
using SupportFn = std::string (*)(const Shape&);

// Whether a rule a variant gave says it cannot run on this GPU at all, whatever the shape (reduction
// rung 10 and matmul.wgmma_tma below compute capability 9.0, or under KL_DEVICE_CC): tests skip such
// a variant by asking it, never by its name.
inline bool does_not_apply(std::string_view rule) { return rule.find("does not apply") != std::string_view::npos; }

// A family's table entry. Args must expose `.shape`.
template <class Shape, class Args>
struct Variant {
  VariantInfo info;
  SupportFn<Shape> unsupported;  // the variant's preconditions
  void (*raw_launch)(const Args&, cudaStream_t);

  bool supports(const Shape& shape) const { return unsupported(shape).empty(); }

  // Validates the shape and launch configuration, launches, checks the launch status. In a
  // perturbation build each launch first hands the marked kernels its number (new delays).
  void launch(const Args& args, cudaStream_t stream = nullptr) const {
    if (const std::string rule = unsupported(args.shape); !rule.empty())
      throw std::invalid_argument(info.id() + ": " + rule);
    perturb::before_launch(stream);
    raw_launch(args, stream);
    KL_CUDA_CHECK(cudaGetLastError());
  }
};

// Finds a variant by name in a family table; throws std::invalid_argument naming the options.
template <class V>
const V& find_variant(std::span<const V> table, std::string_view name) {
  std::string names;
  for (const V& v : table) {
    if (v.info.name == name) return v;
    names += (names.empty() ? "" : ", ") + v.info.name;
  }
  throw std::invalid_argument("unknown variant '" + std::string(name) + "' (known: " + names + ")");
}

// Every variant of every family of the program (kl::families(), family.hpp), in family order:
// what `kernel-lab list` prints and what the catalogue test compares with docs/KERNELS.md.
std::vector<const VariantInfo*> catalogue();
// Looks up "family.name"; throws std::invalid_argument for an unknown id.
const VariantInfo& find_info(std::string_view id);
// A variant id of this program for messages to quote ("elementwise.add" in kernel-lab): its first
// teaching variant, so an example in an error names something the user can run.
std::string example_variant_id();
// Every expected finding of every planted variant, with the variant that carries it.
struct PlantedFinding {
  const VariantInfo* variant;
  const ExpectedFinding* finding;
};
std::vector<PlantedFinding> planted_findings();
// Looks up a sanitizer finding by its repro name; throws std::invalid_argument if unknown.
PlantedFinding find_planted(std::string_view repro);

}  // namespace kl
