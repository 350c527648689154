// Elementwise family: what a launcher takes (the rest of the family is in kl/elementwise.hpp).
// Only cheap headers here: every kernel's .cu file includes it, and nvcc parses each header twice
// per file.
#pragma once

#include <cstdint>

namespace kl::elementwise {

enum class Op { add, exp };

struct Shape {
  std::int64_t n = 0;
  int block = 128;
};

struct Args {
  const float* a = nullptr;  // first input (exp reads only this one)
  const float* b = nullptr;  // second input of add
  float* out = nullptr;
  Shape shape;
};

}  // namespace kl::elementwise
