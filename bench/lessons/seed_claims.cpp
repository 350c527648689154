// The seeds' quantitative claims, quoted, with the results that measure the same quantity.
// Reductions are read on float, the gated dtype. The seeds timed other GPUs (RTX 5070 Ti for
// 000/003) and other sizes (10^9 ints for 004's ladder); docs/LESSONS.md says so in its header.
#include "lessons.hpp"

#include <cmath>
#include <limits>

namespace kl::lessons {
namespace {

constexpr const char* s000 = "000_4eb26088713d3cd0.txt";
constexpr const char* s002 = "002_546f08ca611913b2.txt";
constexpr const char* s003 = "003_2eb1131b3d611900.txt";
constexpr const char* s004 = "004_f92a7ab1d28b5b9a.txt";

constexpr double no_figure = std::numeric_limits<double>::quiet_NaN();
constexpr double unbounded = std::numeric_limits<double>::infinity();
constexpr double faster = 1.05;  // a speedup claim holds when the first is clearly faster

SeedClaim speedup(const char* seed, const char* quote, const char* lesson, const char* a, const char* b,
                  double claimed) {
  return {seed, quote, lesson, ClaimQuantity::speedup, a, b, claimed, faster, unbounded};
}

SeedClaim share(const char* seed, const char* quote, const char* lesson, const char* a, double claimed) {
  return {seed, quote, lesson, ClaimQuantity::share_of_roof, a, "", claimed, claimed * 0.75, claimed * 1.25};
}

}  // namespace

const std::vector<SeedClaim>& seed_claims() {
  static const std::vector<SeedClaim> claims = {
      speedup(s003,
              "`matmul` ... hovers around 2.7 TFLOPS; `matmul_uncoalesced` ... hovers around ~0.6 TFLOPS; "
              "DRAM throughput is up ~4.5x",
              "coalesced reads of B beat uncoalesced ones", "matmul.naive", "matmul.uncoalesced", 2.7 / 0.6),
      speedup(s000, "This kernel is nearly 4x faster than our previous one [2700 vs 680 gflops]",
              "coalesced reads of B beat uncoalesced ones", "matmul.naive", "matmul.uncoalesced", 2700.0 / 680.0),
      speedup(s003, "This kernel hovers around 3.9 TFLOPS (11.4% of theoretical) with 16x16 tiles [naive: 2.7]",
              "shared-memory tiles beat the naive kernel", "matmul.tiled_16", "matmul.naive", 3.9 / 2.7),
      speedup(s003, "Performance drops to ~3.4 TFLOPS (vs. ~3.9 TFLOPS for TILE=16) ... occupancy tanks",
              "tile 16 beats tile 32 through occupancy", "matmul.tiled_16", "matmul.tiled_32", 3.9 / 3.4),
      share(s003, "The cuBLAS kernel hovers around 34 TFLOPS on my GPU (77% of theoretical)",
            "cuBLAS SGEMM reaches about 77% of the FP32 peak", "matmul.cublas_sgemm", 0.77),
      speedup(s002,
              "The standard fix for strided access patterns ... is to pad the shared memory array by one "
              "element per row: [TILE][TILE+1]",
              "padding the shared tiles speeds the tiled kernel up", "matmul.tiled_padded", "matmul.tiled_32",
              no_figure),
      speedup(s004, "If we look at results, we see that starting from 1 billion naive atomic version performs faster",
              "one atomicAdd per element beats the interleaved block tree", "reduction.naive_sum.float",
              "reduction.block_reduction.float", no_figure),
      speedup(s004, "For 1 billion elements it takes: atomic: 0.066568 seconds, new method: 0.056204 seconds",
              "adding during the load beats the naive atomic sum", "reduction.first_add_during_load.float",
              "reduction.naive_sum.float", 0.066568 / 0.056204),
      speedup(s004, "New computational time for 1 billion elements is 0.028024 seconds. Half of our previous compute time.",
              "unrolling the last warp halves the time", "reduction.unroll_last_warp.float",
              "reduction.first_add_during_load.float", 0.056204 / 0.028024),
      speedup(s004, "New computational time for 1 billion elements is 0.026024 seconds for block size of 128.",
              "complete unrolling (template blockSize) beats unrolling the last warp",
              "reduction.complete_unrolling.float", "reduction.unroll_last_warp.float", 0.028024 / 0.026024),
      speedup(s004,
              "Multiple Elements Per Thread (teal) best performance is achieved by replacing two element "
              "addition with a grid stride loop.",
              "the grid-stride loop beats complete unrolling", "reduction.grid_stride.float",
              "reduction.complete_unrolling.float", no_figure),
  };
  return claims;
}

}  // namespace kl::lessons
