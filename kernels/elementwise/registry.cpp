// The elementwise family's table: reference first, then the seed kernels, planted bugs flagged.
#include "launchers.hpp"

#include "kl/elementwise.hpp"
#include "kl/geometry.hpp"

#include <climits>

namespace kl::elementwise {
namespace {

constexpr const char* seed000 = "000_4eb26088713d3cd0.txt";
constexpr const char* seed002 = "002_546f08ca611913b2.txt";
constexpr const char* seed003 = "003_2eb1131b3d611900.txt";

// The seeds index with `int gid`, so n and the launched threads must fit in an int.
std::string n_violation(const Shape& s) {
  if (s.n < 0) return "n must be >= 0, got " + std::to_string(s.n);
  if (s.n > INT_MAX - kl::max_threads_per_block)
    return "n must be at most 2^31-1025 (the kernel indexes with int), got " + std::to_string(s.n);
  return "";
}

std::string any_block(const Shape& s) {
  if (std::string rule = n_violation(s); !rule.empty()) return rule;
  return block_1d_violation(s.block);
}

// The unguarded seed kernel is launched as the seed advises: whole warps only.
std::string warp_multiple_block(const Shape& s) {
  if (std::string rule = any_block(s); !rule.empty()) return rule;
  if (s.block % 32 != 0) return "block size must be a multiple of 32 (whole warps), got " + std::to_string(s.block);
  return "";
}

std::string host_oracle(const Shape& s) { return n_violation(s); }

const std::vector<Variant>& table() {
  static const std::vector<Variant> variants = {
      {{{"elementwise", "cpu_oracle_add", "-", "CPU reference",
         "Variant 0: binary32 addition on the host; the GPU's IEEE add must match it bit for bit.",
         Role::reference, {}},
        host_oracle, launch_cpu_oracle_add},
       Op::add},
      {{{"elementwise", "cpu_oracle_exp", "-", "CPU reference",
         "Reference for exp: exp in double on the host; expf must be within 2 ulp of it.",
         Role::reference, {}},
        host_oracle, launch_cpu_oracle_exp},
       Op::exp},
      {{{"elementwise", "add_unguarded", seed000, "add",
         "Over-launch without a guard: 1000 elements with 8 blocks of 128 threads run 1024 threads, "
         "and threads 1000..1023 read a[] and b[] and write c[] past their ends.",
         Role::planted,
         {{Checker::memcheck, R"(Invalid __global__ read of size 4)", "memcheck-add-unguarded",
           {"--n", "1000", "--block", "128"}, "elementwise.add"},
          {Checker::canary, "", "", {"--n", "1000", "--block", "128"}, "elementwise.add"}}},
        warp_multiple_block, launch_add_unguarded},
       Op::add},
      {{{"elementwise", "add", seed003, "add",
         "The bounds guard `if (gid >= n) return;` lets a grid of whole blocks cover any n.",
         Role::teaching, {}},
        any_block, launch_add},
       Op::add},
      {{{"elementwise", "exp", seed002, "exp_kernel",
         "One thread per element with a guard: the kernel a framework's torch.exp becomes.",
         Role::teaching, {}},
        any_block, launch_exp},
       Op::exp},
      {{{"elementwise", "add_vectorized", seed003, "add (float4, beyond the seed)",
         "Beyond the seed: float4 loads and stores, one vector per thread over a full grid (a grid-stride "
         "loop past it), the unaligned head and tail one by one.",
         Role::teaching, {}},
        any_block, launch_add_vectorized},
       Op::add},
      {{{"elementwise", "exp_vectorized", seed002, "exp_kernel (float4, beyond the seed)",
         "Beyond the seed: exp with float4 loads and stores, one vector per thread; the same expf, "
         "so the same ulp bound.",
         Role::teaching, {}},
        any_block, launch_exp_vectorized},
       Op::exp},
  };
  return variants;
}

}  // namespace

std::span<const Variant> variants() { return table(); }

}  // namespace kl::elementwise
