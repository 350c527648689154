// Basics family: the first kernels of seed 004 (hello, fill_arr, matr, sum_matr, the coalesced
// and strided writers, shMemEx, vectorDotProduct, the atomicAdd counter `sum`), each checked
// against a host oracle.
#pragma once

#include "kl/case_result.hpp"
#include "kl/geometry.hpp"
#include "kl/registry.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

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

struct Variant : kl::Variant<Shape, Args> {
  Kernel kernel;
};

std::span<const Variant> variants();

// The shape as the kernel reads it, for `kernel-lab run`'s first line: "blocks=2 threads=4 (per
// block)" for hello and the counter, "rows=R cols=C block=BXxBY" for the matrices, "n=N block=B"
// for the 1-D kernels, plus "threads=T (in all)" for the two access kernels.
std::string describe(Kernel kernel, const Shape& shape);
inline const Variant& variant(std::string_view name) { return find_variant(variants(), name); }

// Inputs: sum_matr X and Y (ints, Y never 0 so an unwritten X element shows), sh_mem_ex `in`
// (ints), dot3 a and b (3 floats per element in [-100, 100]). Never all zero.
struct Inputs {
  std::vector<int> x, y;
  std::vector<float> a3, b3;  // 3 * n floats each
};
Inputs make_inputs(Kernel kernel, const Shape& shape, std::uint64_t seed);

// The expected output, element by element; NaN marks an element the kernel must NOT write
// (the gaps of the stride-2 writer, the tail past its threads). expected_at is element i of it.
std::vector<double> oracle(Kernel kernel, const Shape& shape, const Inputs& inputs);
double expected_at(Kernel kernel, const Shape& shape, const Inputs& inputs, std::size_t i);
// Elements of the output buffer (cols for the access kernels, 1 for the counter, rows*cols otherwise).
std::size_t output_size(Kernel kernel, const Shape& shape);

// Compares an output launched onto poisoned memory with the oracle: elements the oracle marks
// NaN must still hold the poison, the others must match (dot3 within dot3_bound); poison where
// a value was due counts as unwritten in the guard report.
CaseResult compare_output(Kernel kernel, const std::vector<int>& got, const std::vector<double>& want,
                          const Inputs& inputs);
CaseResult compare_output(Kernel kernel, const std::vector<float>& got, const std::vector<double>& want,
                          const Inputs& inputs);
// The same comparison over the output's raw 4-byte words (floats for coalesced and dot3, ints
// otherwise), the oracle computed element by element as it goes: what the bench checks a
// 2^26-element output with, without a 512 MiB vector of expected values.
CaseResult compare_words(Kernel kernel, const Shape& shape, const Inputs& inputs, const std::vector<std::uint32_t>& words);
// Whether the kernel writes floats (coalesced, dot3) rather than ints.
bool float_output(Kernel kernel);

// Uploads exact-size inputs, poisons a guarded output (sum_matr: X uploaded into it), launches,
// checks guards and compares: ints exactly; dot3 within gamma(3) * sum |a_i b_i| of a double
// reference. Elements the oracle marks NaN must still hold the poison.
// The output starts `output_offset` elements (0..3) past a 16-byte boundary (the front canaries
// grow by as many): the vectorised fill must be right at any start.
CaseResult run_case(const Variant& v, const Shape& shape, const Inputs& inputs, int output_offset = 0);

// dot3's derived bound: a 3-term dot product in binary32 (with or without FMA contraction)
// differs from the exact value by at most gamma(3) * sum |a_i b_i| (Higham 3.1); plus 2^-52 of
// the same sum for the rounding of the double reference.
double dot3_bound(const float* a, const float* b);

}  // namespace kl::basics
