// Properties of the dispatch family: the thread-to-cell map is a bijection onto the grid.
#include "dispatch_edges.hpp"
#include "dispatch_generators.hpp"
#include "pairwise.hpp"
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

// Shapes the variant takes: tiled ones for the unguarded seed kernel, any for the guarded one.
rc::Gen<Shape> shape_for(const Variant& v) {
  return needs_tiling(v) ? kl::gen::tiled_dispatch_shape() : kl::gen::dispatch_shape();
}
}  // namespace

// For random width, height and 2-D block the variant takes: it writes every cell exactly with
// its own (col,row) and nothing outside. Shapes are drawn for the variant, so it runs in every
// case; a refusal (a generator that drifted from supports()) must still throw, and is
// discarded rather than counted as a pass.
KL_PROPERTY(DispatchProperty, EveryThreadWritesItsOwnCellOnce, ()) {
  const Variant& v = variant(*rc::gen::elementOf(kernel_names()).as("variant"));
  const Shape shape = *shape_for(v).as("shape");
  if (!v.supports(shape)) {
    RC_ASSERT_THROWS_AS(run_case(v, shape), std::invalid_argument);
    RC_DISCARD(v.info.id() + " refused " + v.unsupported(shape));
  }
  const CoordsCase c = run_case(v, shape);
  if (!c.result.ok()) RC_FAIL(v.info.id() + ": " + c.result.describe());
}

// Every kernel on every pair of edge classes of its declaration (dispatch_edges.hpp: block sides,
// the y side from what x leaves; domain sides, or tiles for the unguarded seed kernel), each pair
// in every run, with EveryThreadWritesItsOwnCellOnce's check: a 1x1024 block over one row, a
// 1024x1 block over a 3-cell-wide domain, the most tiles that fit.
TEST(DispatchPairwise, EveryKernelOnEveryPairOfEdges) {
  for (const std::string& name : kernel_names()) {
    const Variant& v = variant(name);
    kl::pairwise::check_every_pair(name, edges_for(v), [&v](const kl::pairwise::Values& x) {
      const Shape shape = shape_of(v, x);
      kl::pairwise::require_declared_shape(v, shape);
      const CoordsCase c = run_case(v, shape);
      if (!c.result.ok()) RC_FAIL(v.info.id() + ": " + c.result.describe());
    });
  }
}

// Shapes the seed's unguarded kernel supports are exactly those its blocks tile, and it refuses
// the others before launching; half the shapes drawn tile, half are any shape.
KL_PROPERTY(DispatchProperty, SeedKernelSupportsExactlyTheTiledShapes, ()) {
  const Shape shape = *rc::gen::oneOf(kl::gen::tiled_dispatch_shape(), kl::gen::dispatch_shape()).as("shape");
  const bool tiles = shape.width % shape.block.x == 0 && shape.height % shape.block.y == 0;
  const Variant& seed = variant("record_thread_coords");
  RC_ASSERT(seed.supports(shape) == tiles);
  if (!tiles) RC_ASSERT_THROWS_AS(seed.launch({nullptr, shape}), std::invalid_argument);  // before any launch
  RC_ASSERT(variant("record_thread_coords_guarded").supports(shape));
}
