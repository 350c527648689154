// The basics family's edge classes (pairwise.hpp), per 1-D variant: block, n, output offset, and
// for the two access kernels the whole blocks of threads they launch. The 2-D kernels (matr,
// sum_matr) and the launch-only ones (hello, atomic_counter) have no element count: no declaration.
// Classes stay inside each variant's rule (the blocks are read from it: sh_mem_ex stops at 256).
// The pair that needs two edges at once: fill_vectorized with block 1 and n = 3, or with an output
// offset that leaves a head of 2..3 elements and a grid of fewer threads.
#pragma once

#include "pairwise.hpp"

#include "kl/basics.hpp"

namespace kl::basics {

// Variants whose shape is an element count and a 1-D block.
inline bool has_one_d_count(const Variant& v) {
  switch (v.kernel) {
    case Kernel::fill_arr:
    case Kernel::sh_mem_ex:
    case Kernel::coalesced:
    case Kernel::non_coalesced:
    case Kernel::dot3:
      return true;
    case Kernel::hello:
    case Kernel::matr:
    case Kernel::sum_matr:
    case Kernel::counter:
      break;
  }
  return false;
}

// The access kernels write arr[idx] (coalesced: threads <= n) or arr[2*idx] (2*threads - 1 <= n):
// the most threads a buffer of n holds.
inline std::int64_t most_access_threads(Kernel k, std::int64_t n) { return k == Kernel::coalesced ? n : (n + 1) / 2; }

inline pairwise::Dimensions edges_for(const Variant& v) {
  using namespace kl::pairwise;
  if (v.info.has_findings()) return {};  // planted and flawed variants keep their own properties
  if (!has_one_d_count(v)) return {};
  const auto one_d = [](std::int64_t n, int block) { return Shape{1, static_cast<int>(n), {block, 1}, 0}; };
  Dimensions dims = {
      {"block", block_classes([&](int block) { return !refuses_the_block(v.unsupported(one_d(1, block))); })},
      {"n", count_classes(v.supports(one_d(0, 1)) ? 0 : 1)},
      {"output offset", offset_classes()},
  };
  if (v.kernel == Kernel::coalesced || v.kernel == Kernel::non_coalesced) {
    // Whole blocks (the kernels have no guard): none, the most the buffer holds (0 when n is below
    // one block), or any count between.
    const Kernel k = v.kernel;
    const auto most = [k](const Values& x) { return most_access_threads(k, x["n"]) / x["block"]; };
    dims.push_back({"blocks of threads",
                    {computed("none", [](const Values&) { return Range{0, 0}; }),
                     computed("most that fit", [most](const Values& x) { return Range{most(x), most(x)}; }),
                     computed("any that fit", [most](const Values& x) { return Range{0, most(x)}; })}});
  }
  return dims;
}

// The shape of one row's values (threads = blocks of threads x block for the access kernels).
inline Shape shape_of(const Variant& v, const pairwise::Values& x) {
  (void)v;
  const auto block = static_cast<int>(x["block"]);
  return {1, static_cast<int>(x["n"]), {block, 1}, x.value_or("blocks of threads", 0) * block};
}

}  // namespace kl::basics
