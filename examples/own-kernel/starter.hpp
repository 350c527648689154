// The starter family: what its tests and properties use. Two kernels a newcomer knows, SAXPY
// (z = a*x + y) and a matrix transpose, on the same 2-D grid over a rows x cols matrix, plus one
// planted bug: SAXPY with an off-by-one bounds guard. Everything is defined in starter.cu.
#pragma once

#include "kl/case_result.hpp"
#include "kl/geometry.hpp"
#include "kl/registry.hpp"

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace starter {

enum class Op { saxpy, transpose };

struct Shape {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  kl::Dim2 block{16, 16};
};

struct Args {
  const float* x = nullptr;  // the rows x cols input (SAXPY's x, the matrix to transpose)
  const float* y = nullptr;  // SAXPY's y (unused by the transpose)
  float* out = nullptr;      // SAXPY: rows x cols; transpose: cols x rows
  float a = 0;               // SAXPY's scalar
  Shape shape;
};

struct Variant : kl::Variant<Shape, Args> {
  Op op;
};

std::span<const Variant> variants();
inline const Variant& variant(std::string_view name) { return kl::find_variant(variants(), name); }

struct Inputs {
  float a = 0;
  std::vector<float> x, y;
};

// Random inputs: x and y uniform in [-100, 100], a in [-4, 4] and never 0.
Inputs make_inputs(const Shape& shape, std::uint64_t seed);
// The CPU oracle: SAXPY as fmaf(a, x, y), which is what the GPU's FFMA computes (bit-exact);
// the transpose exactly.
std::vector<float> oracle(Op op, const Shape& shape, const Inputs& in);
// Uploads exact-size inputs, poisons a guarded output, launches `v`, and compares bit for bit.
kl::CaseResult run_case(const Variant& v, const Shape& shape, const Inputs& in);

}  // namespace starter
