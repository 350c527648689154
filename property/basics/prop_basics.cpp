// Properties of the basics family over random shapes, blocks and data.
#include "basics_edges.hpp"
#include "generators.hpp"
#include "pairwise.hpp"
#include "property.hpp"

#include "kl/basics.hpp"

using namespace kl::basics;
using kl::CaseResult;

namespace {

// The clean kernels whose output the oracle checks (hello's output is stdout: tests/basics).
std::vector<std::string> checked_kernels() {
  std::vector<std::string> out;
  for (const Variant& v : variants())
    if (v.info.role == kl::Role::teaching && v.kernel != Kernel::hello) out.push_back(v.info.name);
  return out;
}

// The atomic counter's launch: up to 100000 blocks contending for one address (64 under a
// sanitizer) of any legal size; blocks * threads <= 1.03e8 always fits the int counter.
Shape counter_shape() {
  const int blocks = *kl::gen::grid_blocks(kl::sanitizer_small_mode() ? 64 : 100000).as("blocks");
  return {1, blocks, {*kl::gen::any_block().as("threads"), 1}, 0};
}

// The largest power-of-two block a 1-D variant takes (256 for sh_mem_ex's subArray[256]).
int largest_block(const Variant& v) {
  int block = kl::max_threads_per_block;
  while (block > 1 && !v.supports({1, 1024, {block, 1}, 0})) block /= 2;
  return block;
}

// Whole blocks of threads for an access kernel writing n elements: from none up to as many as
// its buffer holds (coalesced writes arr[idx]: threads <= n; non_coalesced arr[2*idx]:
// 2*threads - 1 <= n), half the time none, one block or the most that fit.
std::int64_t access_threads(Kernel k, int n, int block) {
  const std::int64_t most_threads = k == Kernel::coalesced ? n : (std::int64_t{n} + 1) / 2;
  const std::int64_t most_blocks = most_threads / block;
  const std::int64_t blocks =
      *kl::gen::edge_biased<std::int64_t>({0, 1, most_blocks}, 0, most_blocks, most_blocks).as("threads / block");
  return blocks * block;
}

// A side of matr's and sum_matr's matrices: their rule takes 0 (an empty matrix, nothing to
// write), so one draw in ten is 0, else side()'s.
rc::Gen<int> matrix_side() { return rc::gen::weightedOneOf<int>({{1, rc::gen::just(0)}, {9, kl::gen::side()}}); }

// A shape the variant takes, drawn for its kind: a matrix for matr/sum_matr (either side may be 0),
// else 1-D with a block it accepts; the access kernels get a thread count their buffer holds.
Shape shape_for(const Variant& v) {
  const Kernel k = v.kernel;
  if (k == Kernel::counter) return counter_shape();
  if (k == Kernel::matr || k == Kernel::sum_matr)
    return {*matrix_side().as("rows"), *matrix_side().as("cols"), *kl::gen::block_2d().as("block"), 0};
  const auto n = static_cast<int>(*kl::gen::count(0).as("n"));
  const int block = *kl::gen::any_block_up_to(largest_block(v)).as("block");
  const std::int64_t threads = k == Kernel::coalesced || k == Kernel::non_coalesced ? access_threads(k, n, block) : 0;
  return {1, n, {block, 1}, threads};
}

}  // namespace

// Every clean kernel matches its oracle on every shape it supports (ints exactly, dot products
// within gamma(3) sum|a_i b_i|), writes every element it must, nothing it must not, and no
// canary. Shapes are drawn for the variant, so it runs in every case; a refusal (a generator
// that drifted from supports()) must still throw, and is discarded rather than counted as a pass.
KL_PROPERTY(BasicsProperty, EveryCleanKernelMatchesItsOracle, ()) {
  const Variant& v = variant(*rc::gen::elementOf(checked_kernels()).as("variant"));
  const Shape shape = shape_for(v);
  const auto seed = *rc::gen::arbitrary<std::uint64_t>().as("data seed");
  const Inputs in = make_inputs(v.kernel, shape, seed);
  if (!v.supports(shape)) {
    RC_ASSERT_THROWS_AS(run_case(v, shape, in), std::invalid_argument);
    RC_DISCARD("refused: " + v.unsupported(shape));
  }
  const CaseResult r = run_case(v, shape, in);
  if (!r.ok()) RC_FAIL(v.info.id() + ": " + r.describe());
}

// The vectorised fill with its output starting 0..3 elements past a 16-byte boundary: head,
// int4 body and tail at every alignment, over count()'s edges (0, 1, 2, 3, the primes,
// 2^k +- 1) and uniform sizes; every element written with its value, no canary touched.
KL_PROPERTY(BasicsProperty, VectorizedFillIsRightAtEveryOutputOffset, ()) {
  const Variant& v = variant("fill_vectorized");
  const Shape shape{1, static_cast<int>(*kl::gen::count(0).as("n")), {*kl::gen::any_block().as("block"), 1}, 0};
  const int offset = *rc::gen::inRange(0, 4).as("output offset");
  const CaseResult r = run_case(v, shape, make_inputs(v.kernel, shape, 1), offset);
  if (!r.ok()) RC_FAIL(v.info.id() + " at offset " + std::to_string(offset) + ": " + r.describe());
}

// Every clean 1-D kernel on every pair of edge classes of its declaration (basics_edges.hpp:
// block, n, output offset, and the access kernels' blocks of threads), each pair in every run: the
// checks of EveryCleanKernelMatchesItsOracle (oracle, every element written, canaries) on the
// shapes a pair needs at once, such as block 1 with n = 3, or a 3-element head with block 2.
TEST(BasicsPairwise, EveryCleanKernelOnEveryPairOfEdges) {
  for (const Variant& v : variants()) {
    if (v.info.role != kl::Role::teaching) continue;
    const kl::pairwise::Dimensions dims = edges_for(v);
    if (dims.empty()) continue;  // hello, the counter and the 2-D kernels: no element count
    kl::pairwise::check_every_pair(v.info.name, dims, [&v](const kl::pairwise::Values& x) {
      const Shape shape = shape_of(v, x);
      const auto offset = static_cast<int>(x["output offset"]);
      kl::pairwise::require_declared_shape(v, shape);
      const auto seed = *rc::gen::arbitrary<std::uint64_t>().as("data seed");
      const CaseResult r = run_case(v, shape, make_inputs(v.kernel, shape, seed), offset);
      if (!r.ok()) RC_FAIL(v.info.id() + " at output offset " + std::to_string(offset) + ": " + r.describe());
    });
  }
}

// The access kernels' preconditions are exactly "no write past the buffer".
KL_PROPERTY(BasicsProperty, AccessKernelsSupportExactlyTheThreadCountsTheirBufferHolds, ()) {
  const auto n = static_cast<int>(*kl::gen::count_in(0, 5000).as("n"));
  const int block = *kl::gen::warp_multiple_block().as("block");
  const std::int64_t threads = block * *kl::gen::uniform<std::int64_t>(0, n / block + 2).as("threads / block");
  const Shape s{1, n, {block, 1}, threads};
  RC_ASSERT(variant("coalesced").supports(s) == (threads <= n));
  RC_ASSERT(variant("non_coalesced").supports(s) == (threads == 0 || 2 * threads - 1 <= n));
}

// shMemEx holds one block in subArray[256]: blocks above 256 are refused.
KL_PROPERTY(BasicsProperty, SharedStagingRefusesBlocksOver256, ()) {
  const int block = *kl::gen::any_block().as("block");
  RC_ASSERT(variant("sh_mem_ex").supports({1, 1000, {block, 1}, 0}) == (block <= 256));
}

// Every thread's atomicAdd(counter, 1) lands, however many contend: exactly blocks * threads.
KL_PROPERTY(BasicsProperty, AtomicCounterIsExactUnderContention, ()) {
  const Shape shape = counter_shape();
  const CaseResult r = run_case(variant("atomic_counter"), shape, {});
  if (!r.ok()) RC_FAIL(std::to_string(shape.cols) + " x " + std::to_string(shape.block.x) + ": " + r.describe());
}

// The planted launch arithmetic: (n + 1023) / 1025 blocks of 1024 threads. The poisoned output
// shows exactly the elements it misses, the canaries exactly those it writes past the end; it
// is right only when the grid happens to hold n threads.
KL_PROPERTY(PlantedBasicsProperty, SeedLaunchArithmeticIsCaughtByThePoisonedOutput, ()) {
  const Shape shape{*kl::gen::side().as("rows"), *kl::gen::side().as("cols"), {16, 16}, 0};
  const std::int64_t n = shape.elements();
  const std::int64_t launched = (n + 1023) / 1025 * 1024;
  const Variant& v = variant("matr_seed_launch");
  const CaseResult r = run_case(v, shape, make_inputs(Kernel::matr, shape, 1));
  RC_ASSERT(r.guards.unwritten == static_cast<std::size_t>(std::max<std::int64_t>(n - launched, 0)));
  RC_ASSERT(r.guards.damaged_after == static_cast<std::size_t>(std::max<std::int64_t>(launched - n, 0)));
  RC_ASSERT(r.ok() == (launched == n));
}
