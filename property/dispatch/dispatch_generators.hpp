// Dispatch shapes: any width x height with any 2-D block, and the shapes the unguarded seed
// kernel takes (its blocks tile the domain exactly), so that kernel runs in every case drawn
// for it instead of refusing nearly all of them.
#pragma once

#include "generators.hpp"

#include "kl/dispatch.hpp"

#include <rapidcheck.h>

#include <ostream>
#include <utility>

namespace kl::gen {

// Any shape: sides from side(), a block from block_2d(), with their edges.
inline rc::Gen<dispatch::Shape> dispatch_shape() {
  return rc::gen::build<dispatch::Shape>(rc::gen::set(&dispatch::Shape::width, side()),
                                         rc::gen::set(&dispatch::Shape::height, side()),
                                         rc::gen::set(&dispatch::Shape::block, block_2d()));
}

// How many blocks fit along one side, 1..most. Edges: 1, 2, 3, most - 1, most.
inline rc::Gen<int> tile_count(int most) {
  return edge_biased<int>({1, 2, 3, most - 1, most}, 1, most, most);
}

// A shape whose blocks tile it exactly (width % block.x == 0, height % block.y == 0), sides
// within side_limit(). The block comes from block_2d_within(side_limit(), side_limit()) and
// so reaches its edges (1x1, 16x16, 32x32, and 1024x1, 1x1024 where the sides allow); the
// tile counts reach one block (the shape is the block) and as many as fit.
inline rc::Gen<dispatch::Shape> tiled_dispatch_shape() {
  const int limit = side_limit();
  return rc::gen::mapcat(block_2d_within(limit, limit), [limit](Dim2 block) {
    return rc::gen::map(rc::gen::pair(tile_count(limit / block.x), tile_count(limit / block.y)),
                        [block](const std::pair<int, int>& tiles) {
                          return dispatch::Shape{block.x * tiles.first, block.y * tiles.second, block};
                        });
  });
}

}  // namespace kl::gen

namespace kl::dispatch {
// Lets RapidCheck print a Shape in counterexamples.
inline void showValue(const Shape& s, std::ostream& os) {
  os << s.width << "x" << s.height << " cells, block " << s.block.x << "x" << s.block.y;
}
}  // namespace kl::dispatch
