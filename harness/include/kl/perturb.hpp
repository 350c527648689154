// Schedule perturbation, host side: the settings a perturbation build's kernels read, where they
// come from, and the replay line a failure prints. The device side (the points a kernel marks,
// kl/perturb.cuh) compiles to nothing unless the translation unit is built with KL_PERTURB, which
// only the perturbation targets define (CMake option KL_PERTURBATION; README, "Bugs no sanitizer
// sees"). In a normal build no unit registers, and before_launch() returns at once.
//
// Why: compute-sanitizer's racecheck models shared memory only; no tool here models ordering
// between blocks through global memory. A delay at each point where a kernel publishes or
// consumes across blocks (and at block entry, which scrambles the order blocks start in) makes
// the interleavings the scheduler almost never produces happen on every run, and a relaxed store
// issued through kl::perturb::Publisher lands as late as the memory model lets it. A clean pass
// over many seeds is evidence, not proof.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

namespace kl::perturb {

// What every marked translation unit holds in constant memory (one copy per unit: without
// relocatable device code each .cu file is its own module).
struct Settings {
  std::uint64_t seed = 0;
  std::uint32_t launch = 0;        // numbered by before_launch(): each launch draws other delays
  std::uint32_t max_delay_ns = 0;  // a point that fires waits up to this long; 0: points do nothing
};

// The environment variables, documented in the README.
inline constexpr const char* seed_variable = "KL_PERTURB_SEED";            // default 1
inline constexpr const char* max_delay_variable = "KL_PERTURB_MAX_DELAY_US";  // default 20; 0 turns points off
inline constexpr std::uint64_t default_seed = 1;
inline constexpr std::uint32_t default_max_delay_us = 20;
inline constexpr std::uint32_t largest_max_delay_us = 1'000'000;

// Parses the two variables (nullptr: unset). Throws std::invalid_argument naming the variable and
// the rule when a value is not a decimal number in range.
Settings settings_from(const char* seed, const char* max_delay_us);
// settings_from(getenv(...)), read once per process (use_seed changes the seed after that).
const Settings& settings();
// The seed of the launches that follow, with the launch count back at 0: what a fresh process
// started with KL_PERTURB_SEED=seed draws, so `expect` can run its seeds in one process and a
// seed it names still replays alone.
void use_seed(std::uint64_t seed);

// A marked unit's upload of its copy of the settings.
using Upload = void (*)(const Settings& settings, cudaStream_t stream);
// Called by each marked unit's static initialiser (kl/perturb.cuh); returns true.
bool register_unit(Upload upload);
// The number of marked units linked into this program: 0 in a normal build.
int registered_units();
// True when this program's kernels carry perturbation points.
inline bool compiled_in() { return registered_units() > 0; }

// Before each launch (kl::Variant::launch calls it): the next launch number and the settings to
// every marked unit, on `stream`. Does nothing in a normal build.
void before_launch(cudaStream_t stream);

// "perturbation seed S, delays up to D us; replay: KL_PERTURB_SEED=S KL_PERTURB_MAX_DELAY_US=D"
// in a perturbation build, "" in a normal one: what every failure report appends.
std::string replay_hint();

}  // namespace kl::perturb
