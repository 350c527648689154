// The reduction family's edge classes (pairwise.hpp), per variant: block (from the variant's rule:
// any 1..1024 for naive_sum, the powers of two from 32 or 64 for the tree rungs, none for CUB,
// which picks its own), n, the data (int; float exact integers; float rounding: one dimension,
// so every pair with the float data kinds is drawn on float sums) and the input's offset past a
// 16-byte boundary (the vectorised rungs' unaligned head and tail).
#pragma once

#include "pairwise.hpp"

#include "kl/reduction.hpp"

namespace kl::reduction {

// The data classes, in their dimension's order.
enum class Data { int_values, float_exact_integers, float_rounding };

inline pairwise::Dimensions edges_for(const Variant& v) {
  using namespace kl::pairwise;
  if (v.info.has_findings()) return {};  // planted and flawed variants keep their own properties
  Dimensions dims;
  // A rung that does not apply on this GPU still declares its blocks: its rule checks the block
  // first (refuses_the_block tells that message from the GPU's).
  add_block_dimension(dims, [&](int block) { return v.unsupported({1, block, Dtype::i32}); });
  dims.push_back({"n", count_classes(0)});
  dims.push_back({"data",
                  {named("int", 0, 0), named("float exact", 1, 1), named("float rounding", 2, 2)}});
  dims.push_back({"input offset", offset_classes()});
  return dims;
}

// n = 1 with the smallest block the variant's rule takes: where a rule that refuses it says
// why for a reason that is not the shape's (rung 10: "does not apply" below compute capability 9.0).
inline Shape smallest_shape(const Variant& v) {
  int block = 1;
  while (block < max_threads_per_block && pairwise::refuses_the_block(v.unsupported({1, block, Dtype::i32}))) ++block;
  return {1, block, Dtype::i32};
}

inline Data data_of(const pairwise::Values& x) { return static_cast<Data>(x["data"]); }

inline Shape shape_of(const Variant& v, const pairwise::Values& x) {
  (void)v;
  return {x["n"], static_cast<int>(x.value_or("block", 256)), data_of(x) == Data::int_values ? Dtype::i32 : Dtype::f32};
}

inline FloatData float_data_of(const pairwise::Values& x) {
  return data_of(x) == Data::float_rounding ? FloatData::rounding : FloatData::exact_integers;
}

}  // namespace kl::reduction
