// Host properties of launch geometry: every grid covers every element, with no spare block.
#include "generators.hpp"
#include "property.hpp"

#include "kl/error_bounds.hpp"
#include "kl/geometry.hpp"

#include <cmath>

KL_PROPERTY(GeometryProperty, Grid1dCoversEveryElementWithNoSpareBlock, ()) {
  const auto n = *rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 40).as("n");
  const int block = *kl::gen::any_block().as("block");
  if (kl::ceil_div(n, block) > kl::max_grid_x) {
    RC_ASSERT_THROWS_AS(kl::grid_1d(n, block), std::invalid_argument);
    RC_SUCCEED("refused: more blocks than CUDA's x limit");
  }
  const std::int64_t blocks = kl::grid_1d(n, block);
  RC_ASSERT(blocks * block >= n);
  RC_ASSERT(blocks == 0 || (blocks - 1) * block < n);
}

KL_PROPERTY(GeometryProperty, Grid2dCoversEveryCell, ()) {
  const int width = *rc::gen::inRange(1, 1 << 20).as("width");
  const int height = *rc::gen::inRange(1, 1 << 16).as("height");
  const kl::Dim2 block = *kl::gen::block_2d().as("block");
  try {
    const kl::Dim2 g = kl::grid_2d(width, height, block);
    RC_ASSERT(std::int64_t{g.x} * block.x >= width && std::int64_t{g.x - 1} * block.x < width);
    RC_ASSERT(std::int64_t{g.y} * block.y >= height && std::int64_t{g.y - 1} * block.y < height);
  } catch (const std::invalid_argument&) {
    RC_ASSERT(kl::ceil_div(height, block.y) > kl::max_grid_yz);  // only the y limit can refuse here
  }
}

KL_PROPERTY(BoundsProperty, UlpDistanceIsAMetricOnFloats, (float a, float b)) {
  RC_PRE(!std::isnan(a) && !std::isnan(b));
  RC_ASSERT(kl::bounds::ulp_distance(a, b) == kl::bounds::ulp_distance(b, a));
  RC_ASSERT((kl::bounds::ulp_distance(a, b) == 0) == (a == b));
  if (std::isfinite(a) && std::abs(a) < 1e38f) RC_ASSERT(kl::bounds::ulp_distance(a, std::nextafter(a, INFINITY)) == 1);
}
