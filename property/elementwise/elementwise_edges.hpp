// The elementwise family's edge classes (pairwise.hpp), per variant: block (from the variant's
// rule; none for the CPU references, which ignore it), n, the output's offset past a 16-byte
// boundary, and whether the inputs sit at the output's offset (the vectorised rungs' float4 path,
// with a head of 4 - offset elements) or one input does not (every element one by one).
#pragma once

#include "pairwise.hpp"

#include "kl/elementwise.hpp"

namespace kl::elementwise {

inline pairwise::Dimensions edges_for(const Variant& v) {
  using namespace kl::pairwise;
  if (v.info.has_findings()) return {};  // planted and flawed variants keep their own properties
  Dimensions dims;
  add_block_dimension(dims, [&](int block) { return v.unsupported({1, block}); });
  dims.push_back({"n", count_classes(v.supports({0, 32}) ? 0 : 1)});
  dims.push_back({"out offset", offset_classes()});
  dims.push_back({"input offsets", {named("at out's", 0, 0), named("a shifted 1..3", 1, 3)}});
  return dims;
}

inline Shape shape_of(const Variant& v, const pairwise::Values& x) {
  (void)v;
  return {x["n"], static_cast<int>(x.value_or("block", 256))};
}

// The buffers' offsets: a, b and out together, or a shifted by the row's 1..3 (mod 4).
inline Offsets offsets_of(const pairwise::Values& x) {
  const auto out = static_cast<int>(x["out offset"]);
  return {static_cast<int>((out + x["input offsets"]) % 4), out, out};
}

}  // namespace kl::elementwise
