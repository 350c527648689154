// `kernel-lab expect` for a planted cross-block bug (Checker::perturbation): the perturbation
// build must catch it, must pass its fix, and the normal build with every compute-sanitizer tool
// must miss it (kl/perturb.hpp says why such bugs need their own checker).
#pragma once

#include "sanitizer.hpp"

#include "kl/registry.hpp"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace kl::cli {

// Runs of the planted case (or its fix) a check makes by default: perturbed, one per seed.
inline constexpr int default_perturbed_runs = 12;

// One run of `kernel-lab run <target> <args>` and the perturbation seed it ran under (0: none).
struct SeedRun {
  std::uint64_t seed = 0;
  Captured run;
};

// The planted case under the perturbation build (against_fix: its fix). Planted: passes (0) at
// the first run whose check failed, naming its seed; fails (1) when every run passed; a run that
// ended in a CUDA error instead is no verdict (2). Fix: passes only if every run passed. A run
// refused before its kernel (exit 2) or one that stated no status: no verdict (2).
Judgement judge_perturbed_runs(const std::string& finding, const std::string& target, bool against_fix,
                               const std::vector<SeedRun>& runs);

// The planted case without perturbation: passes (0) only if every plain run passed and every
// tool ran, reported nothing and saw the run pass; `tool_runs` holds one run per tool, in
// tools' order.
Judgement judge_unseen(const std::string& finding, const std::string& target, const std::vector<SeedRun>& plain_runs,
                       const std::vector<std::string>& tools, const std::vector<Captured>& tool_runs);

// `expect <finding> [--against-fix] [--runs N]` in a perturbation build (the runs in this
// process, each seed drawing the delays a fresh process started with it would), and `expect <finding>
// --unperturbed [--runs N]` in a normal one; each refuses (std::invalid_argument) in the other.
int check_perturbation_finding(const PlantedFinding& planted, bool against_fix, int runs, std::ostream& out);
int check_unseen_without_perturbation(const PlantedFinding& planted, int runs, std::ostream& out);

}  // namespace kl::cli
