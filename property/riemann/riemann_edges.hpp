// The Riemann family's edge classes (pairwise.hpp), per variant: the power-of-two block its rule
// allows (none for the CPU left sum) and n, from 1 interval to past one grid of resident threads.
#pragma once

#include "pairwise.hpp"

#include "kl/riemann.hpp"

namespace kl::riemann {

inline pairwise::Dimensions edges_for(const Variant& v) {
  using namespace kl::pairwise;
  if (v.info.has_findings()) return {};  // planted and flawed variants keep their own properties
  Dimensions dims;
  add_block_dimension(dims, [&](int block) { return v.unsupported({1, block}); });
  dims.push_back({"n", count_classes(1)});
  return dims;
}

inline Shape shape_of(const Variant& v, const pairwise::Values& x) {
  (void)v;
  return {x["n"], static_cast<int>(x.value_or("block", 256))};
}

}  // namespace kl::riemann
