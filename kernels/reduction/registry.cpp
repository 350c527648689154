// The reduction family's table: CUB first, then seed 004's ladder, the flawed and planted
// warp-synchronous rungs flagged with the racecheck findings they must produce.
#include "launchers.hpp"
#include "bulk_copy_ring.hpp"

#include "kl/geometry.hpp"
#include "kl/reduction.hpp"

#include <bit>

namespace kl::reduction {
namespace {

constexpr const char* seed004 = "004_f92a7ab1d28b5b9a.txt";

// The kernels index with int and step by up to 2 * 1024 * gridDim; 2^30 keeps every index in range.
std::string n_violation(const Shape& s) {
  if (s.n < 0) return "n must be >= 0, got " + std::to_string(s.n);
  if (s.n > (std::int64_t{1} << 30))
    return "n must be at most 2^30 (the kernels index with int), got " + std::to_string(s.n);
  return "";
}

std::string any_block(const Shape& s) {
  if (std::string rule = n_violation(s); !rule.empty()) return rule;
  return block_1d_violation(s.block);
}

// The tree halves the block each step, so it must be a power of two.
std::string power_of_two_block(const Shape& s, int lo) {
  if (std::string rule = n_violation(s); !rule.empty()) return rule;
  if (s.block < lo || s.block > max_threads_per_block || !std::has_single_bit(static_cast<unsigned>(s.block)))
    return "block size must be a power of two in " + std::to_string(lo) + "..1024, got " + std::to_string(s.block);
  return "";
}
std::string tree_block(const Shape& s) { return power_of_two_block(s, 32); }
// warpReduce reads s[tid + 32]: the block must hold at least 64 partial sums.
std::string last_warp_block(const Shape& s) { return power_of_two_block(s, 64); }
// Rung 10: a tree block on a GPU that runs cp.async.bulk (else it does not apply).
std::string bulk_ring_rule(const Shape& s) {
  if (std::string rule = tree_block(s); !rule.empty()) return rule;
  return bulk_copy_ring_unavailable();
}

// Each rung's summation depth, from the same plan its launcher takes its grid from.
std::int64_t naive_depth(const Shape& s) { return plan::one_atomic_per_element(s.n, s.block).depth(); }
std::int64_t one_per_thread_depth(const Shape& s) { return plan::shared_tree(s.n, s.block, 1).depth(); }
std::int64_t two_per_thread_depth(const Shape& s) { return plan::shared_tree(s.n, s.block, 2).depth(); }
std::int64_t grid_stride_depth(const Shape& s) { return plan::grid_stride_pairs(s.n, s.block).depth(); }
std::int64_t warp_shuffle_depth(const Shape& s) { return plan::grid_stride_shuffles(s.n, s.block).depth(); }
std::int64_t vectorized_depth(const Shape& s) { return plan::vectorized_single_launch(s.n, s.block).depth(); }
std::int64_t bulk_ring_depth(const Shape& s) {
  return bulk_copy_ring_plan(s).depth();
}

ExpectedFinding race(const char* repro) {
  return {Checker::racecheck, "Race reported between", repro,
          {"--n", "4096", "--block", "256"}, "reduction.last_warp_syncwarp"};
}

// A cross-block ordering bug: only the perturbation build makes its sum wrong. Int sums, so a
// wiped or stale block total cannot hide in rounding; 2^20 elements: a few hundred blocks.
ExpectedFinding perturbed(const char* repro, const char* fixed_by) {
  return {Checker::perturbation, "", repro, {"--n", "1048576", "--block", "256", "--dtype", "int", "--reps", "1"},
          fixed_by};
}

const std::vector<Variant> variant_table = {
    {{{"reduction", "cub_sum", "-", "cub::DeviceReduce::Sum",
       "Variant 0: CUB's tuned reduction; every rung's bandwidth is read as a share of it.",
       Role::reference, {}},
      n_violation, launch_cub_sum}, nullptr},
    {{{"reduction", "naive_sum", seed004, "naiveSum",
       "One atomicAdd per element: correct, but every add to the one result is serialised.",
       Role::teaching, {}},
      any_block, launch_naive_sum}, naive_depth},
    {{{"reduction", "block_reduction", seed004, "blockReduction",
       "A tree sum per block in shared memory (interleaved, `tid < stride`); one atomicAdd per block.",
       Role::teaching, {}},
      tree_block, launch_block_reduction}, one_per_thread_depth},
    {{{"reduction", "first_add_during_load", seed004, "blockReduction (two loads and addition)",
       "Each thread adds two elements while loading: no idle half in the first step, half the blocks.",
       Role::teaching, {}},
      tree_block, launch_first_add_during_load}, two_per_thread_depth},
    {{{"reduction", "unroll_last_warp", seed004, "warpReduce (volatile)",
       "The last warp unrolled as the seed writes it, on volatile shared memory with no __syncwarp. "
       "Since Volta the lanes of a warp are scheduled independently, so nothing orders one lane's "
       "store of s[tid] before another lane's load: right sums on the H100, but racecheck reports "
       "the hazards. Fixed by last_warp_syncwarp.",
       Role::flawed, {race("race-reduce-unroll-volatile")}},
      last_warp_block, launch_unroll_last_warp}, two_per_thread_depth},
    {{{"reduction", "unroll_last_warp_no_volatile", seed004, "warpReduce (volatile removed)",
       "PLANTED: rung 04 without volatile. The compiler keeps partial sums in registers and lanes "
       "read stale shared memory: wrong sums on the H100 (a property must find a counterexample) "
       "and racecheck hazards.",
       Role::planted,
       {race("race-reduce-unroll-no-volatile"),
        {Checker::oracle, "", "", {"--n", "4096", "--block", "256"}, "reduction.last_warp_syncwarp"}}},
      last_warp_block, launch_unroll_last_warp_no_volatile}, two_per_thread_depth},
    {{{"reduction", "last_warp_syncwarp", seed004, "warpReduce (with __syncwarp)",
       "The last warp done right since Volta: read, __syncwarp(), write, __syncwarp() per step.",
       Role::teaching, {}},
      last_warp_block, launch_last_warp_syncwarp}, two_per_thread_depth},
    {{{"reduction", "complete_unrolling", seed004, "blkReduct<blockSize>",
       "template <unsigned int blockSize>: the block-size tests fold at compile time, no stride loop.",
       Role::teaching, {}},
      last_warp_block, launch_complete_unrolling}, two_per_thread_depth},
    {{{"reduction", "grid_stride", seed004, "block_reduction<blockSize>",
       "Many elements per thread with a grid-stride loop (algorithm cascading): a fixed grid covers any n.",
       Role::teaching, {}},
      last_warp_block, launch_grid_stride}, grid_stride_depth},
    {{{"reduction", "warp_shuffle", seed004, "warpShuffleSum (beyond the seed)",
       "Beyond the seed: __shfl_down_sync sums each warp in registers; shared memory holds one value per warp.",
       Role::teaching, {}},
      tree_block, launch_warp_shuffle}, warp_shuffle_depth},
    {{{"reduction", "vectorized_single_launch", seed004, "vectorized_sum (beyond the seed)",
       "Beyond the seed: 16-byte loads (unaligned head and tail one by one), four vectors in flight "
       "per thread, shuffles, and a last-block-done finish: one launch, no memset, at any n.",
       Role::teaching, {}},
      tree_block, launch_vectorized_single_launch}, vectorized_depth},
    {{{"reduction", "bulk_copy_ring", seed004, "bulk_ring_sum (beyond the seed)",
       "Beyond the seed: 32 KiB bulk copies (cp.async.bulk) stream the input through a 3-stage "
       "shared-memory ring per block; one atomicAdd per block onto the output block 0 zeroes in "
       "the same launch (a launch-numbered flag orders the adds after the zero). One launch, no "
       "memset, no ticket; the float order varies. Does not apply below compute capability 9.0.",
       Role::teaching, {}},
      bulk_ring_rule, launch_bulk_copy_ring}, bulk_ring_depth},
    {{{"reduction", "relaxed_ticket", seed004, "vectorized_sum (beyond the seed)",
       "PLANTED: rung 09 with its last-block ticket taken relaxed and no fence: nothing orders a "
       "block's partial before its ticket, so the last block can add a stale partial. Every test and "
       "all four sanitizers pass it on the H100; the perturbation build holds the partial past the "
       "ticket, as the memory model allows, and the sum is wrong.",
       Role::planted, {perturbed("perturb-relaxed-ticket", "reduction.vectorized_single_launch")}},
      tree_block, launch_relaxed_ticket}, vectorized_depth},
    {{{"reduction", "add_before_zero", seed004, "bulk_ring_sum (beyond the seed)",
       "PLANTED: rung 10 whose blocks add without waiting for block 0's flag. Block 0 zeroes the "
       "output while the others still read, so every test and all four sanitizers pass it on the "
       "H100; when the perturbation build starts block 0 late, the zero wipes sums already added.",
       Role::planted, {perturbed("perturb-add-before-zero", "reduction.bulk_copy_ring")}},
      bulk_ring_rule, launch_add_before_zero}, bulk_ring_depth},
    {{{"reduction", "relaxed_zero_flag", seed004, "bulk_ring_sum (beyond the seed)",
       "PLANTED: rung 10 with the ready flag stored relaxed: nothing orders the zero it announces "
       "before it, so a block can see the flag, add, and lose its sum to the late zero. Every test "
       "and all four sanitizers pass it on the H100; the perturbation build lands the zero late.",
       Role::planted, {perturbed("perturb-relaxed-zero-flag", "reduction.bulk_copy_ring")}},
      bulk_ring_rule, launch_relaxed_zero_flag}, bulk_ring_depth},
};

}  // namespace

std::span<const Variant> variants() { return variant_table; }

}  // namespace kl::reduction
