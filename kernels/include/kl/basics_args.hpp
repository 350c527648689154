// Basics family: what a launcher takes (the rest of the family is in kl/basics.hpp). Only cheap
// headers here: every kernel's .cu file includes it, and nvcc parses each header twice per file.
#pragma once

#include "kl/grid.hpp"

#include <cstdint>

namespace kl::basics {

enum class Kernel { hello, fill_arr, matr, sum_matr, sh_mem_ex, coalesced, non_coalesced, dot3, counter };

// One shape for the whole family. 1-D kernels use rows = 1 and cols = n; the 2-D ones
// (matr, sum_matr) a rows x cols matrix; hello and the atomic counter launch cols blocks of
// block.x threads (the counter's output is one int).
// The two access kernels write an output of cols elements with `threads` threads in all.
struct Shape {
  int rows = 1;
  int cols = 0;
  Dim2 block{256, 1};
  std::int64_t threads = 0;  // coalesced / non_coalesced only
  std::int64_t elements() const { return static_cast<std::int64_t>(rows) * cols; }
};

struct Args {
  const void* a = nullptr;  // sum_matr: Y; sh_mem_ex: in; dot3: float3 a
  const void* b = nullptr;  // dot3: float3 b
  void* out = nullptr;      // int* or float* (float for coalesced and dot3); sum_matr: X (in/out)
  Shape shape;
};

}  // namespace kl::basics
