// Reduction family: what a launcher takes (the rest of the family is in kl/reduction.hpp). Only
// cheap headers here: every kernel's .cu file includes it, and nvcc parses each header twice per
// file.
#pragma once

#include <cstdint>

namespace kl::reduction {

enum class Dtype { i32, f32 };

struct Shape {
  std::int64_t n = 0;
  int block = 256;
  Dtype dtype = Dtype::i32;
};

// in: n elements of the dtype; out: one element that receives the sum.
struct Args {
  const void* in = nullptr;
  void* out = nullptr;
  Shape shape;
};

}  // namespace kl::reduction
