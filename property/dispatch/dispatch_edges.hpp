// The dispatch family's edge classes (pairwise.hpp), per variant. A 2-D block's y side depends on
// its x side (x*y <= 1024), so its classes are computed from the x drawn: one row, the most rows
// that fit (1x1024, 32x32, 1024x1), any between. The guarded kernel takes any width and height
// (sides 1, 2, 3, 4..31, 32, 33..limit-1 and limit, side_limit(): 2000, 64 under a sanitizer);
// the unguarded seed kernel only domains its blocks tile, so its sides are counted in blocks: one,
// as many as fit in the limit, any between (its blocks then stop at the limit too). The CPU
// reference ignores the block: width and height only.
#pragma once

#include "pairwise.hpp"

#include "kl/dispatch.hpp"

#include <algorithm>

namespace kl::dispatch {

// Whether the variant takes only domains its blocks tile: it refuses 3x3 cells in 2x2 blocks.
inline bool needs_tiling(const Variant& v) { return !v.supports({3, 3, {2, 2}}); }
// Whether the variant's rule takes any block, even 0x0 (the CPU reference: no launch).
inline bool ignores_the_block(const Variant& v) { return v.supports({1, 1, {0, 0}}); }

inline pairwise::Dimensions edges_for(const Variant& v) {
  using namespace kl::pairwise;
  if (v.info.has_findings()) return {};  // planted and flawed variants keep their own properties
  const int limit = kl::gen::side_limit();
  if (ignores_the_block(v)) return {{"width", ladder_classes(limit)}, {"height", ladder_classes(limit)}};
  const bool tiled = needs_tiling(v);
  const int widest = tiled ? std::min(max_threads_per_block, limit) : max_threads_per_block;
  const auto rows_left = [tiled, limit](const Values& x) {
    const std::int64_t most = max_threads_per_block / x["block x"];
    return tiled ? std::min<std::int64_t>(most, limit) : most;
  };
  Dimensions dims = {
      {"block x", any_block_classes(widest)},
      {"block y",
       {computed("1", [](const Values&) { return Range{1, 1}; }),
        computed("fills the block", [rows_left](const Values& x) { return Range{rows_left(x), rows_left(x)}; }),
        computed("any that fits", [rows_left](const Values& x) { return Range{1, rows_left(x)}; })}},
  };
  if (!tiled) {
    dims.push_back({"width", ladder_classes(limit)});
    dims.push_back({"height", ladder_classes(limit)});
    return dims;
  }
  for (const char* side : {"x", "y"}) {
    const std::string block = std::string("block ") + side;
    const auto most = [block, limit](const Values& x) { return limit / x[block]; };
    dims.push_back({std::string("tiles ") + side,
                    {computed("1", [](const Values&) { return Range{1, 1}; }),
                     computed("as many as fit", [most](const Values& x) { return Range{most(x), most(x)}; }),
                     computed("any that fit", [most](const Values& x) { return Range{1, most(x)}; })}});
  }
  return dims;
}

inline Shape shape_of(const Variant& v, const pairwise::Values& x) {
  if (ignores_the_block(v)) return {static_cast<int>(x["width"]), static_cast<int>(x["height"]), {1, 1}};
  const Dim2 block{static_cast<int>(x["block x"]), static_cast<int>(x["block y"])};
  if (x.has("tiles x"))
    return {block.x * static_cast<int>(x["tiles x"]), block.y * static_cast<int>(x["tiles y"]), block};
  return {static_cast<int>(x["width"]), static_cast<int>(x["height"]), block};
}

}  // namespace kl::dispatch
