// Basics family: the first kernels of seed 004 (hello, fill_arr, matr, sum_matr, the coalesced
// and strided writers, shMemEx, vectorDotProduct, the atomicAdd counter `sum`), each checked
// against a host oracle.
#pragma once

#include "kl/basics_args.hpp"
#include "kl/case_result.hpp"
#include "kl/geometry.hpp"
#include "kl/registry.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace kl::basics {

struct Variant : kl::Variant<Shape, Args> {
  Kernel kernel;
};

std::span<const Variant> variants();

inline const Variant& variant(std::string_view name) { return find_variant(variants(), name); }

// Inputs: sum_matr X and Y (ints, Y never 0 so an unwritten X element shows), sh_mem_ex `in`
// (ints), dot3 a and b (3 floats per element in [-100, 100]). Never all zero.
// What the oracle reads them through: views of Inputs' arrays, or of a kit family's data
// (family.cpp).
struct InputView {
  std::span<const int> x, y;
  std::span<const float> a3, b3;
};
struct Inputs {
  std::vector<int> x, y;
  std::vector<float> a3, b3;  // 3 * n floats each
  InputView view() const { return {x, y, a3, b3}; }
};
Inputs make_inputs(Kernel kernel, const Shape& shape, std::uint64_t seed);

// The expected output, element by element; NaN marks an element the kernel must NOT write
// (the gaps of the stride-2 writer, the tail past its threads). expected_at is element i of it.
std::vector<double> oracle(Kernel kernel, const Shape& shape, const Inputs& inputs);
double expected_at(Kernel kernel, const Shape& shape, const InputView& inputs, std::size_t i);
// Elements of the output buffer (cols for the access kernels, 1 for the counter, rows*cols otherwise).
std::size_t output_size(Kernel kernel, const Shape& shape);

// Compares an output launched onto poisoned memory with the oracle: elements the oracle marks
// NaN must still hold the poison, the others must match (dot3 within dot3_bound); poison where
// a value was due counts as unwritten in the guard report.
CaseResult compare_output(Kernel kernel, const std::vector<int>& got, const std::vector<double>& want,
                          const Inputs& inputs);
CaseResult compare_output(Kernel kernel, const std::vector<float>& got, const std::vector<double>& want,
                          const Inputs& inputs);
// The same comparison over a float output the oracle is computed for as it goes (dot3's check
// in the family's declaration: within dot3_bound of the exact dot product).
CaseResult compare_floats(Kernel kernel, const Shape& shape, const InputView& inputs, std::span<const float> got);

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
