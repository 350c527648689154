// Matmul families: what a launcher takes (the rest of the families is in kl/matmul.hpp). Only
// cheap headers here: every kernel's .cu file includes it, and nvcc parses each header twice per
// file.
#pragma once

#include <cstdint>

namespace kl::matmul {

struct Shape {
  std::int64_t m = 0;
  std::int64_t n = 0;
  std::int64_t k = 0;
  bool bias = false;  // C = bias[n] + A*B (seed 001); only tiled_bounds supports it
};

struct Args {
  const float* a = nullptr;
  const float* b = nullptr;
  const float* bias = nullptr;  // n elements when shape.bias
  float* c = nullptr;
  Shape shape;
};

// What the variant multiplies: the FP32 inputs, or the inputs rounded to FP16 (GemmEx).
enum class InputPrecision { fp32, fp16 };

}  // namespace kl::matmul

namespace kl::imatmul {

struct Shape {
  std::int64_t n = 0;  // square n x n, as seed 004 writes it
};

struct Args {
  const std::int32_t* a = nullptr;
  const std::int32_t* b = nullptr;
  std::int32_t* c = nullptr;
  Shape shape;
};

}  // namespace kl::imatmul
