// The basics family's table: the CPU reference first, then seed 004's first kernels, the
// planted launch-arithmetic bug flagged.
#include "launchers.hpp"

#include "kl/basics.hpp"

#include <climits>

namespace kl::basics {
namespace {

constexpr const char* seed004 = "004_f92a7ab1d28b5b9a.txt";

// 1-D kernels index with int and compute idx * 2 (fill_arr) in int: n <= 2^30.
std::string n_1d(const Shape& s) {
  if (s.rows != 1) return "rows must be 1 for a 1-D kernel, got " + std::to_string(s.rows);
  if (s.cols < 0) return "n must be >= 0, got " + std::to_string(s.cols);
  if (s.cols > (1 << 30)) return "n must be at most 2^30 (idx * 2 must fit an int), got " + std::to_string(s.cols);
  return "";
}

std::string any_1d(const Shape& s) {
  if (std::string rule = n_1d(s); !rule.empty()) return rule;
  if (s.block.y != 1) return "block must be 1-D (block.y == 1), got block.y " + std::to_string(s.block.y);
  return block_1d_violation(s.block.x);
}

std::string host_oracle(const Shape& s) { return n_1d(s); }

std::string hello_rule(const Shape& s) {
  if (s.rows != 1) return "rows must be 1, got " + std::to_string(s.rows);
  // Device printf's FIFO (1 MiB by default) holds about 30 bytes a line: keep well below.
  if (s.cols < 1 || static_cast<std::int64_t>(s.cols) * s.block.x > 4096)
    return "blocks must be >= 1 and blocks * threads <= 4096 (device printf buffer), got " +
           std::to_string(s.cols) + " x " + std::to_string(s.block.x);
  if (s.block.y != 1) return "block must be 1-D";
  return block_1d_violation(s.block.x);
}

std::string matrix_shape(const Shape& s) {
  if (s.rows < 0 || s.cols < 0) return "rows and cols must be >= 0";
  if (s.elements() > INT_MAX - 1024) return "rows * cols must be at most 2^31-1025 (int index), got " + std::to_string(s.elements());
  return "";
}

std::string any_2d(const Shape& s) {
  if (std::string rule = matrix_shape(s); !rule.empty()) return rule;
  if (std::string rule = block_2d_violation(s.block); !rule.empty()) return rule;
  if (ceil_div(s.rows, s.block.y) > max_grid_yz) return "rows / block.y must need at most 65535 blocks in y";
  return "";
}

// The planted launch ignores the block: it always uses 1-D blocks of 1024 threads.
std::string seed_launch(const Shape& s) { return matrix_shape(s); }

// Unguarded writers launch exactly `threads` threads in whole blocks.
std::string whole_blocks(const Shape& s) {
  if (std::string rule = any_1d(s); !rule.empty()) return rule;
  if (s.threads < 0 || s.threads % s.block.x != 0)
    return "threads must be a multiple of the block (no bounds guard), got " + std::to_string(s.threads) +
           " with block " + std::to_string(s.block.x);
  return "";
}

std::string coalesced_rule(const Shape& s) {
  if (std::string rule = whole_blocks(s); !rule.empty()) return rule;
  if (s.threads > s.cols) return "threads must be <= n (thread idx writes arr[idx]), got " + std::to_string(s.threads) +
                                 " threads for n " + std::to_string(s.cols);
  return "";
}

std::string strided_rule(const Shape& s) {
  if (std::string rule = whole_blocks(s); !rule.empty()) return rule;
  // 2 * threads - 1 > n, without forming 2 * threads (threads comes from the user: it may overflow).
  if (s.threads > 0 && s.threads > (static_cast<std::int64_t>(s.cols) + 1) / 2)
    return "n must be >= 2 * threads - 1 (the last thread writes arr[2*(threads-1)]), got n " + std::to_string(s.cols) +
           " for " + std::to_string(s.threads) + " threads";
  return "";
}

// sum<<<blocks, threads>>>: every thread adds 1 to one int, so blocks * threads must fit an int.
std::string counter_rule(const Shape& s) {
  if (s.rows != 1) return "rows must be 1, got " + std::to_string(s.rows);
  if (s.cols < 1) return "blocks must be >= 1, got " + std::to_string(s.cols);
  if (s.block.y != 1) return "block must be 1-D (block.y == 1), got block.y " + std::to_string(s.block.y);
  if (std::string rule = block_1d_violation(s.block.x); !rule.empty()) return rule;
  if (static_cast<std::int64_t>(s.cols) * s.block.x > INT_MAX)
    return "blocks * threads must be at most 2^31-1 (the int counter), got " + std::to_string(s.cols) + " x " +
           std::to_string(s.block.x);
  return "";
}

std::string shared_256(const Shape& s) {
  if (std::string rule = any_1d(s); !rule.empty()) return rule;
  if (s.block.x > 256) return "block size must be <= 256 (subArray[256] holds one block), got " + std::to_string(s.block.x);
  return "";
}

const std::vector<Variant>& table() {
  static const std::vector<Variant> variants = {
      {{{"basics", "cpu_oracle", "-", "CPU reference",
         "Variant 0: fill_arr's pattern arr[i] = 2i written by the host; every kernel's output is "
         "compared with such a host oracle.",
         Role::reference, {}},
        host_oracle, launch_cpu_oracle},
       Kernel::fill_arr},
      {{{"basics", "hello", seed004, "hello",
         "Each thread has its own (blockIdx, threadIdx): BLOCKS x THREADS lines, each pair once. One "
         "printf per line, since a warp's printf calls interleave.",
         Role::teaching, {}},
        hello_rule, launch_hello},
       Kernel::hello},
      {{{"basics", "fill_arr", seed004, "fill_arr",
         "Threads write global memory at their own index: arr[idx] = idx * 2, any n through a guarded grid.",
         Role::teaching, {}},
        any_1d, launch_fill_arr},
       Kernel::fill_arr},
      {{{"basics", "matr_seed_launch", seed004, "matr",
         "Operator precedence: `blockCount /= 1024 + 1` divides by 1025, so the unguarded kernel "
         "over-launches below ~1M elements and leaves elements unwritten above it (e.g. 1024x1025).",
         Role::planted,
         // The canary finding's shape over-launches (60000 elements: 59 blocks of 1024, 416 writes
         // past the end); above ~1M elements the bug shows as unwritten elements instead.
         {{Checker::canary, "", "", {"--rows", "300", "--cols", "200"}, "basics.matr"}}},
        seed_launch, launch_matr_seed_launch},
       Kernel::matr},
      {{{"basics", "matr", seed004, "matr",
         "2-D index fill a[row*N+col] = row*N+col with a 2-D grid of ceil-divided blocks and the "
         "bounds guard the seed omits.",
         Role::teaching, {}},
        any_2d, launch_matr},
       Kernel::matr},
      {{{"basics", "sum_matr", seed004, "sum_matr",
         "2-D block indexing of a flat matrix (id = x + y*width), X += Y, any size through a grid.",
         Role::teaching, {}},
        any_2d, launch_sum_matr},
       Kernel::sum_matr},
      {{{"basics", "coalesced", seed004, "coalesced",
         "A warp writing consecutive addresses: one memory transaction per 128 bytes.",
         Role::teaching, {}},
        coalesced_rule, launch_coalesced},
       Kernel::coalesced},
      {{{"basics", "non_coalesced", seed004, "nonCoalesced",
         "Stride-2 writes touch twice the segments; with T threads the buffer needs 2T-1 elements.",
         Role::teaching, {}},
        strided_rule, launch_non_coalesced},
       Kernel::non_coalesced},
      {{{"basics", "sh_mem_ex", seed004, "shMemEx",
         "Stage a block's slice in __shared__ memory, barrier, double, write back; block <= 256.",
         Role::teaching, {}},
        shared_256, launch_sh_mem_ex},
       Kernel::sh_mem_ex},
      {{{"basics", "vector_dot_product", seed004, "vectorDotProduct",
         "float3 vector types: a 3-term dot product per index, within gamma(3) * sum|a_i b_i| of exact.",
         Role::teaching, {}},
        any_1d, launch_vector_dot_product},
       Kernel::dot3},
      {{{"basics", "atomic_counter", seed004, "sum",
         "atomicAdd(counter, 1) from every thread: the count is exactly blocks x threads, but every "
         "add to the one address is serialised, which is why atomics belong to final results only.",
         Role::teaching, {}},
        counter_rule, launch_atomic_counter},
       Kernel::counter},
      {{{"basics", "fill_vectorized", seed004, "fill_arr (int4, beyond the seed)",
         "Beyond the seed: fill_arr's values stored as 16-byte int4 vectors in a grid-stride loop "
         "(unaligned head and tail one by one): write-only at the write-bandwidth limit, read "
         "against cudaMemset of the same bytes.",
         Role::teaching, {}},
        any_1d, launch_fill_vectorized},
       Kernel::fill_arr},
  };
  return variants;
}

}  // namespace

std::span<const Variant> variants() { return table(); }

}  // namespace kl::basics
