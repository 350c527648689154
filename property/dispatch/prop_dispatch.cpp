// Properties of the dispatch family: the thread-to-cell map is a bijection onto the grid.
#include "generators.hpp"
#include "property.hpp"

#include "kl/dispatch.hpp"

using namespace kl::dispatch;

namespace {
std::vector<std::string> kernel_names() {
  std::vector<std::string> out;
  for (const Variant& v : variants())
    if (v.info.role != kl::Role::reference) out.push_back(v.info.name);
  return out;
}
}  // namespace

// For random width, height and 2-D block: a variant that supports the shape writes every cell
// exactly with its own (col,row) and nothing outside; one that does not support it refuses it.
KL_PROPERTY(DispatchProperty, EveryThreadWritesItsOwnCellOnce, ()) {
  const Variant& v = variant(*rc::gen::elementOf(kernel_names()).as("variant"));
  const Shape shape{*kl::gen::side().as("width"), *kl::gen::side().as("height"), *kl::gen::block_2d().as("block")};
  if (!v.supports(shape)) {
    RC_ASSERT_THROWS_AS(run_case(v, shape), std::invalid_argument);
    RC_SUCCEED("refused");
  }
  const CoordsCase c = run_case(v, shape);
  if (!c.result.ok()) RC_FAIL(v.info.id() + ": " + c.result.describe());
}

// Shapes the seed's unguarded kernel supports are exactly those its blocks tile.
KL_PROPERTY(DispatchProperty, SeedKernelSupportsExactlyTheTiledShapes, ()) {
  const Shape shape{*kl::gen::side().as("width"), *kl::gen::side().as("height"), *kl::gen::block_2d().as("block")};
  const bool tiles = shape.width % shape.block.x == 0 && shape.height % shape.block.y == 0;
  RC_ASSERT(variant("record_thread_coords").supports(shape) == tiles);
  RC_ASSERT(variant("record_thread_coords_guarded").supports(shape));
}
