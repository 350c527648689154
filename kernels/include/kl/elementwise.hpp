// Elementwise family: 1-D kernels, one thread per element (seeds 000, 002, 003).
#pragma once

#include "kl/case_result.hpp"
#include "kl/elementwise_args.hpp"
#include "kl/registry.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace kl::elementwise {

struct Variant : kl::Variant<Shape, Args> {
  Op op;
};

std::span<const Variant> variants();
inline const Variant& variant(std::string_view name) { return find_variant(variants(), name); }

struct Inputs {
  std::vector<float> a;
  std::vector<float> b;
};

// Random inputs of shape.n elements, never all zero. add: uniform in [-1000, 1000];
// exp: uniform in [-87, 88] so results stay finite and normal.
Inputs make_inputs(Op op, const Shape& shape, std::uint64_t seed);
// The CPU oracle. add: binary32 addition (exact, as on the GPU); exp: exp in double.
std::vector<double> oracle(Op op, const Inputs& inputs);
// The oracle of one element from its inputs (b unused by exp): the one definition the checks here
// and the kit's declaration (family.cpp) share.
double expected_value(Op op, float a, float b);
// Element i of the oracle.
double expected_at(Op op, const Inputs& inputs, std::size_t i);

// Compares an output with the oracle: add bit-exact, exp within kl::bounds::expf_max_ulp
// (the poison, a NaN, never matches).
CaseResult compare_output(Op op, const std::vector<float>& got, const std::vector<double>& want);
// The same comparison with the oracle computed element by element from the inputs as it goes:
// what the bench checks a 2^26-element output with, without a 512 MiB vector of expected values.
CaseResult compare_with_inputs(Op op, const std::vector<float>& got, const Inputs& inputs);

// Where each buffer starts, in floats past a 16-byte boundary (0..3): the vectorised rungs read
// 16 bytes at a time and must be right at every combination (the elements before each start
// are allocated but never written, so initcheck reports a read of them).
struct Offsets {
  int a = 0, b = 0, out = 0;
};

// Uploads exact-size inputs, poisons a guarded output, launches `v`, checks guards and
// compares with the oracle (compare_output). Buffers start 16-byte aligned unless `offsets` say.
CaseResult run_case(const Variant& v, const Shape& shape, const Inputs& inputs, Offsets offsets = {});

}  // namespace kl::elementwise
