// Riemann family: what a launcher takes (the rest of the family is in kl/riemann.hpp). Only cheap
// headers here: every kernel's .cu file includes it, and nvcc parses each header twice per file.
#pragma once

#include <cstdint>

namespace kl::riemann {

// The seed's problem (section 10.3): f(x) = e^x sin(x) on [a, b] = [0, 10].
inline constexpr double a = 0.0;
inline constexpr double b = 10.0;

struct Shape {
  std::int64_t n = 0;  // intervals
  int block = 256;     // threads per block (the CPU reference ignores it)
};

// out: one double that receives the sum.
struct Args {
  double* out = nullptr;
  Shape shape;
};

// dx = (b - a) / n in double: the one step the launchers and the CPU sum all use.
double step(std::int64_t n);

}  // namespace kl::riemann
