// The Riemann family's table: the CPU left sum first, then seed 004's ladder of section 10.3 in
// the order of its Figure 25, from one atomicAdd per interval to one per block.
#include "launchers.hpp"

#include "kl/riemann.hpp"

#include <bit>

namespace kl::riemann {
namespace {

constexpr const char* seed004 = "004_f92a7ab1d28b5b9a.txt";

std::string n_rule(const Shape& s) {
  if (s.n < 1 || s.n > max_n)
    return "n (intervals) must be in 1..2^31-1 (the seed's int N), got " + std::to_string(s.n);
  return "";
}

// One launch rule for the whole ladder, so every rung runs, and is timed, at the same shapes:
// whole warps (the shuffle rungs reduce full warps) in the power-of-two sizes of the seed's
// reduction ladder.
std::string gpu_rule(const Shape& s) {
  if (std::string rule = n_rule(s); !rule.empty()) return rule;
  if (s.block < 32 || s.block > 1024 || !std::has_single_bit(static_cast<unsigned>(s.block)))
    return "block size must be a power of two in 32..1024, got " + std::to_string(s.block);
  return "";
}

const std::vector<Variant> variant_table = {
    {{{"riemann", "cpu_left_sum", "-", "CPU reference",
       "Variant 0: the left sum on the host, terms in double as the kernels write them, accumulated "
       "in long double; every rung must match it within the derived rounding bounds.",
       Role::reference, {}},
      n_rule, launch_cpu_left_sum}},
    {{{"riemann", "naive_atomic", seed004, "naiveRiemannSum",
       "One thread per interval, each adding its rectangle to the one double result with atomicAdd: "
       "N atomics on one address, serialised (the seed's slowest bar).",
       Role::teaching, {}},
      gpu_rule, launch_naive_atomic}},
    {{{"riemann", "grid_stride", seed004, "naiveRiemannSum (Grid-Stride Optimization)",
       "The same kernel with just enough blocks to fill the GPU once: each thread sums many "
       "rectangles in a register and issues one atomicAdd.",
       Role::teaching, {}},
      gpu_rule, launch_grid_stride}},
    {{{"riemann", "unrolled", seed004, "Riemann sum (Loop Unrolling)",
       "Four intervals per trip of the grid-stride loop: less loop overhead, four independent "
       "evaluations in flight.",
       Role::teaching, {}},
      gpu_rule, launch_unrolled}},
    {{{"riemann", "warp_optimised", seed004, "Riemann sum (Warp Optimized)",
       "__shfl_down_sync adds a warp's 32 partial sums in registers; one atomicAdd per warp.",
       Role::teaching, {}},
      gpu_rule, launch_warp_optimised}},
    {{{"riemann", "shared_memory", seed004, "Riemann sum (Shared Memory)",
       "Warp sums meet in __shared__ memory after one barrier; one atomicAdd per block (the seed's "
       "fastest bar).",
       Role::teaching, {}},
      gpu_rule, launch_shared_memory}},
};

}  // namespace

std::span<const Variant> variants() { return variant_table; }

}  // namespace kl::riemann
