// Quicksort family: seed 004's recursive quicksort with dynamic parallelism (qs_gpu), built
// with relocatable device code in its own library (kernels/quicksort/CMakeLists.txt).
#pragma once

#include "kl/case_result.hpp"
#include "kl/quicksort_args.hpp"
#include "kl/registry.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace kl::quicksort {

struct Variant : kl::Variant<Shape, Args> {};

std::span<const Variant> variants();
inline const Variant& variant(std::string_view name) { return find_variant(variants(), name); }

// Random ints in [-n, n] (duplicates likely), never all zero.
std::vector<int> make_input(std::int64_t n, std::uint64_t seed);

// Copies the input into a guarded buffer, sorts it in place with `v`, checks the guards and
// that the result equals std::sort of the input (a sorted permutation).
CaseResult run_case(const Variant& v, std::span<const int> input);

}  // namespace kl::quicksort
