// Properties of the matmul family over random shapes and data: the per-element bound against
// the double oracle, agreement between variants, bit-exactness on small integers, shape rules,
// and the planted race's effect on the output (recorded, not asserted).
#include "matmul_generators.hpp"
#include "property.hpp"

#include "kl/check.hpp"
#include "kl/device_facts.hpp"
#include "kl/error_bounds.hpp"
#include "kl/guarded_buffer.hpp"
#include "kl/matmul_oracle.hpp"
#include "kl/matmul_stream_k.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

using namespace kl::matmul;
using kl::CaseResult;

namespace {

// The clean variants that run on this GPU (wgmma_tma does not apply off compute capability 9.0).
std::vector<std::string> clean_names() {
  std::vector<std::string> out;
  for (const Variant& v : variants())
    if (v.info.role != kl::Role::planted && runs_here(v))
      out.push_back(v.info.name);
  return out;
}

std::int64_t round_up(std::int64_t x, std::int64_t to) { return (x + to - 1) / to * to; }

// The side granularity of the variant's tiles: the smallest power of two u (up to 128) such
// that it takes u x u x u (16 for the whole-block kernels, TILE for the square tiled ones).
std::int64_t tile_of(const Variant& v) {
  for (std::int64_t u = 1; u <= 128; u *= 2)
    if (v.supports({u, u, u})) return u;
  return 1;
}

// Whether the variant takes square shapes only (m == n == k): it refuses one tile by two.
bool square_only(const Variant& v, std::int64_t tile) { return !v.supports({tile, 2 * tile, tile}); }

// A shape the variant takes, drawn for it so no case is refused: a square of whole tiles for
// the square tiled variants (square_side's tile edges), else a drawn shape with m and n rounded
// up to whole tiles (a no-op where the tile is 1), with a bias where the variant adds one.
Shape draw_shape_for(const Variant& v) {
  const std::int64_t tile = tile_of(v);
  if (square_only(v, tile)) {
    const std::int64_t side = *kl::gen::square_side(tile).as("square side");
    return {side, side, side, false};
  }
  Shape s = *kl::gen::matmul_shape().as("drawn shape");
  s.bias = v.supports({tile, tile, tile, true}) && *rc::gen::arbitrary<bool>().as("bias");
  return {round_up(s.m, tile), round_up(s.n, tile), s.k, s.bias};
}

// Fails (or discards a case refused despite drawing for the variant) unless the variant took
// the shape; a refusal must still throw before anything runs.
void require_supported(const Variant& v, const Shape& shape) {
  if (v.supports(shape)) return;
  RC_ASSERT_THROWS_AS(v.launch({nullptr, nullptr, nullptr, nullptr, shape}), std::invalid_argument);
  RC_DISCARD(v.info.id() + " refused the shape drawn for it: " + v.unsupported(shape));
}

// On a GPU the variant does not run on (sm_90a code elsewhere): it refuses every shape, naming
// why, before anything runs (a property that discarded every case would give up, not pass).
void require_refused_here(const Variant& v, const Shape& shape) {
  RC_ASSERT(kl::does_not_apply(v.unsupported(shape)));
  RC_ASSERT_THROWS_AS(v.launch({nullptr, nullptr, nullptr, nullptr, shape}), std::invalid_argument);
  RC_TAG("does not apply on this GPU");
}

// Where each operand starts, in floats past a 16-byte boundary (0-3; the allocations themselves
// are 256-byte aligned): the rungs that load or store 16 bytes at a time must take any start.
struct OperandOffsets {
  int a = 0, b = 0, bias = 0, c = 0;
};

// C computed on the device from small-integer inputs of `seed` (a bias too where the shape has one)
// by `v`, twice, each time checked on the device against the FP64 oracle with no slack, every
// element written and the canaries intact; and the second run's bits the first's. No slack: every
// product and partial sum of integers in [-8, 8] over k <= 8192 is an integer below 2^24, exact in
// FP32 in any order (FP16 inputs too), and the FP64 value is exact
// (MatmulDeviceOracle.AgreesWithTheHostOracle).
void require_exact_twice(const Variant& v, const Shape& shape, std::uint64_t seed, OperandOffsets at = {}) {
  const auto count = [](std::int64_t rows, std::int64_t cols) { return static_cast<std::size_t>(rows * cols); };
  kl::DeviceBuffer<float> a_buffer(count(shape.m, shape.k) + at.a), b_buffer(count(shape.k, shape.n) + at.b),
      bias_buffer(count(1, shape.n) + at.bias);
  float* const a = a_buffer.data() + at.a;
  float* const b = b_buffer.data() + at.b;
  float* const bias = shape.bias ? bias_buffer.data() + at.bias : nullptr;
  fill_device_inputs(a, count(shape.m, shape.k), Data::small_integers, seed);
  fill_device_inputs(b, count(shape.k, shape.n), Data::small_integers, seed + 1);
  if (bias != nullptr) fill_device_inputs(bias, count(1, shape.n), Data::small_integers, seed + 2);
  DeviceReference want = device_reference(a, b, bias, shape, v.precision);
  KL_CUDA_CHECK(cudaMemset(want.bound.data(), 0, want.bound.bytes()));
  std::vector<float> first;
  for (int run = 1; run <= 2; ++run) {
    kl::GuardedBuffer<float> c(count(shape.m, shape.n), static_cast<std::size_t>(at.c));
    c.poison();
    v.launch({a, b, bias, c.data(), shape});
    KL_CUDA_CHECK(cudaDeviceSynchronize());
    CaseResult r = compare_on_device(c.data(), want);
    r.take_canaries(c.inspect());
    if (!r.ok()) RC_FAIL(v.info.id() + " (run " + std::to_string(run) + "): " + r.describe());
    std::vector<float> got = c.download();
    if (run == 1)
      first = std::move(got);
    else
      RC_ASSERT(std::memcmp(first.data(), got.data(), first.size() * sizeof(float)) == 0);
  }
}

}  // namespace

// |c - ref| <= gamma(k) * sum_k |a_ik||b_kj| (+ bias) for every element, every clean variant
// (GemmEx against its FP16-rounded inputs); outputs fully written, canaries intact.
KL_PROPERTY(MatmulProperty, EveryCleanVariantMeetsTheBound, ()) {
  const Variant& v = variant(*rc::gen::elementOf(clean_names()).as("variant"));
  const Shape shape = draw_shape_for(v);
  require_supported(v, shape);
  RC_TAG(v.info.name);
  const auto seed = *rc::gen::arbitrary<std::uint64_t>().as("data seed");
  const CaseResult r = run_case(v, shape, make_inputs(shape, Data::random, seed));
  if (!r.ok()) RC_FAIL(v.info.id() + ": " + r.describe());
}

// The tensor-core rungs alone (in the property above they share the cases with 16 other
// variants): shapes biased to the 16/64/128/256 tile edges (matmul_side), random FP16-rounded
// data within gamma(2k) of the double oracle, every element written, canaries intact; and
// agreement with cuBLAS GemmEx on the same FP16 inputs within the sum of both bounds.
KL_PROPERTY(MatmulProperty, TensorCoreRungsMeetTheFp16BoundAndAgreeWithGemmEx, ()) {
  std::vector<std::string> rungs;
  for (const Variant& v : variants())
    if (v.precision == InputPrecision::fp16 && v.info.name != "cublas_gemmex_fp16" && !v.info.planted() &&
        runs_here(v))  // wgmma_tma off 9.0, mma_sync_pipeline below 8.0
      rungs.push_back(v.info.name);
  const Variant& v = variant(*rc::gen::elementOf(rungs).as("tensor-core rung"));
  const Shape shape = *kl::gen::matmul_shape().as("drawn shape");
  if (!v.supports(shape)) RC_DISCARD(v.info.id() + ": " + v.unsupported(shape));
  RC_TAG(v.info.name);
  const Inputs in = make_inputs(shape, Data::random, *rc::gen::arbitrary<std::uint64_t>().as("data seed"));
  const std::vector<Expected> expected = expected_elements(in, shape, InputPrecision::fp16);
  std::vector<float> got, ref;
  const CaseResult r = run_case(v, shape, in, expected, &got);
  if (!r.ok()) RC_FAIL(v.info.id() + ": " + r.describe());
  const CaseResult rr = run_case(variant("cublas_gemmex_fp16"), shape, in, expected, &ref);
  if (!rr.ok()) RC_FAIL("cublas_gemmex_fp16: " + rr.describe());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (!(std::fabs(static_cast<double>(got[i]) - ref[i]) <= 2 * expected[i].bound))
      RC_FAIL(v.info.id() + " vs cublas_gemmex_fp16 at element " + std::to_string(i) + ": " + std::to_string(got[i]) +
              " vs " + std::to_string(ref[i]) + ", allowed " + std::to_string(2 * expected[i].bound));
  }
}

// Every FP32 variant that takes the shape meets its own check (run_case: within its bound of
// the double oracle, every element written, no canary touched) and agrees with cuBLAS SGEMM
// within the sum of both bounds. (GemmEx is left out: it multiplies different, FP16-rounded,
// numbers.) Half the shapes are squares of whole 32x32 tiles, which every FP32 variant takes;
// tiled_bounds takes every shape, so no case compares fewer than one variant with cuBLAS.
KL_PROPERTY(MatmulProperty, AllFp32VariantsAgreeWithCublas, ()) {
  Shape shape = *kl::gen::matmul_shape().as("drawn shape");
  if (*rc::gen::arbitrary<bool>().as("square, a multiple of 32")) {
    const std::int64_t side = *kl::gen::square_side(32).as("square side");
    shape = {side, side, side, false};
  }
  const Inputs in = make_inputs(shape, Data::random, *rc::gen::arbitrary<std::uint64_t>().as("data seed"));
  // The double oracle once for every variant (it, not the GPU, is the cost of each check).
  const std::vector<Expected> expected = expected_elements(in, shape, InputPrecision::fp32);
  std::vector<float> ref;
  const CaseResult rr = run_case(variants().front(), shape, in, expected, &ref);
  if (!rr.ok()) RC_FAIL("cublas_sgemm: " + rr.describe());
  int variants_compared = 0;
  for (const Variant& v : variants().subspan(1)) {
    if (v.info.role == kl::Role::planted || v.precision != InputPrecision::fp32 || !v.supports(shape)) continue;
    std::vector<float> got;
    const CaseResult r = run_case(v, shape, in, expected, &got);
    if (!r.ok()) RC_FAIL(v.info.id() + ": " + r.describe());
    for (std::size_t e = 0; e < expected.size(); ++e)
      if (!(std::fabs(static_cast<double>(got[e]) - ref[e]) <= 2 * expected[e].bound))
        RC_FAIL(v.info.id() + " vs cublas_sgemm at element " + std::to_string(e) + ": " + std::to_string(got[e]) +
                " vs " + std::to_string(ref[e]) + ", allowed " + std::to_string(2 * expected[e].bound));
    ++variants_compared;
  }
  RC_PRE(variants_compared > 0);  // nothing compared: not a pass
  RC_TAG(std::to_string(variants_compared) + " variants compared");
}

// Integers in [-8, 8]: every product and partial sum is an integer below 2^24, so any order of
// FP32 (or FP16-input) arithmetic is exact and every variant must equal the oracle bit for bit.
KL_PROPERTY(MatmulProperty, SmallIntegerInputsAreBitExact, ()) {
  const Variant& v = variant(*rc::gen::elementOf(clean_names()).as("variant"));
  const Shape shape = draw_shape_for(v);
  require_supported(v, shape);
  const Inputs in = make_inputs(shape, Data::small_integers, *rc::gen::arbitrary<std::uint64_t>().as("data seed"));
  std::vector<float> got;
  const CaseResult r = run_case(v, shape, in, &got);
  if (!r.guards.ok()) RC_FAIL(v.info.id() + ": " + r.guards.describe());
  const std::vector<Expected> expected = expected_elements(in, shape, InputPrecision::fp32);
  for (std::size_t e = 0; e < expected.size(); ++e) {
    const double want = expected[e].value;
    if (static_cast<double>(got[e]) != want)
      RC_FAIL(v.info.id() + " element " + std::to_string(e) + ": " + std::to_string(got[e]) + " != " +
              std::to_string(want));
  }
}

// Every clean variant with A, B, C and the bias each starting 0-3 floats past a 16-byte boundary,
// drawn apart, on the shapes drawn for it: exact on small integers, every element written, the
// canaries around C intact, twice the same bits. The rungs that load 16 bytes at a time must
// fall back (sgemm_whole_tiles.cu) or stage (the tensor-core rungs) where a start is not aligned;
// the other properties pass the allocations' own, aligned, starts.
KL_PROPERTY(MatmulProperty, EveryCleanVariantIsExactAtAnyOperandStart, ()) {
  const Variant& v = variant(*rc::gen::elementOf(clean_names()).as("variant"));
  const Shape shape = draw_shape_for(v);
  require_supported(v, shape);
  const auto start = [](const char* what) { return *rc::gen::inRange(0, 4).as(what); };
  const OperandOffsets at{start("A's start (floats past 16 bytes)"), start("B's start"),
                          shape.bias ? start("the bias's start") : 0, start("C's start")};
  RC_TAG(at.a == 0 && at.b == 0 && at.bias == 0 && at.c == 0 ? "every start aligned" : "some start unaligned");
  require_exact_twice(v, shape, *rc::gen::arbitrary<std::uint64_t>().as("data seed"), at);
}

// Every candidate configuration of matmul.tuned (27_tuned.cu's block and warp tiles, stages, FMA
// orders, rasterisation groups, C's stores), forced with use_tuned_config, on the shapes drawn for
// the rung: exact on small integers, twice the same bits. The tuning file runs one candidate per GPU
// and class of shapes, so the others (and the H100's [large] line, whose groups of 8 block rows a
// C of fewer rows leaves partly empty) ran only at `kernel-lab tune`'s shape.
KL_PROPERTY(MatmulProperty, EveryTunedCandidateIsExact, ()) {
  const Variant& v = variant("tuned");
  const std::string config = *rc::gen::elementOf(tuned_config_names()).as("candidate");
  const Shape shape = draw_shape_for(v);
  require_supported(v, shape);
  const TunedConfigForced forced(config);
  RC_ASSERT(tuned_config_in_use(shape) == config);
  RC_TAG(config);
  require_exact_twice(v, shape, *rc::gen::arbitrary<std::uint64_t>().as("data seed"));
}

// Rung 28 where its rule splits k (kl/matmul_split_k.hpp): C of a few tiles (sides up to 256, off
// the tile), k from 1 to 3072, so most cases split (k of 256 or more, runs of unequal length where
// the k tiles do not divide) and the rest run whole tiles (tagged). On small integers every run's
// partial and their sum are exact, so C must equal the oracle bit for bit, and the same bits on a
// second run. (The properties above draw k up to 512 and pick among all the variants.)
KL_PROPERTY(MatmulProperty, SplitKRungIsExactWhereItSplits, ()) {
  const Variant& v = variant("split_k");
  if (!runs_here(v)) RC_DISCARD(v.unsupported({128, 256, 64}));
  const std::int64_t side_limit = std::min<std::int64_t>(256, kl::gen::max_matmul_side());
  const Shape shape{*rc::gen::inRange<std::int64_t>(1, side_limit + 1).as("m"),
                    *rc::gen::inRange<std::int64_t>(1, side_limit + 1).as("n"),
                    *rc::gen::inRange<std::int64_t>(1, 3073).as("k"), false};
  const int runs = split_k_runs(shape);
  RC_TAG(runs > 1 ? "k split" : "whole tiles");
  const Inputs in = make_inputs(shape, Data::small_integers, *rc::gen::arbitrary<std::uint64_t>().as("data seed"));
  const std::vector<Expected> expected = expected_elements(in, shape, InputPrecision::fp32);
  std::vector<float> first, second;
  const CaseResult r1 = run_case(v, shape, in, expected, &first);
  const CaseResult r2 = run_case(v, shape, in, expected, &second);
  if (!r1.ok()) RC_FAIL(v.info.id() + " (" + std::to_string(runs) + " runs): " + r1.describe());
  if (!r2.ok()) RC_FAIL(v.info.id() + " (" + std::to_string(runs) + " runs), second run: " + r2.describe());
  for (std::size_t e = 0; e < expected.size(); ++e) {
    if (static_cast<double>(first[e]) != expected[e].value)
      RC_FAIL(v.info.id() + " (" + std::to_string(runs) + " runs) element " + std::to_string(e) + ": " +
              std::to_string(first[e]) + " != " + std::to_string(expected[e].value));
    RC_ASSERT(std::memcmp(&first[e], &second[e], sizeof(float)) == 0);
  }
}

// Rung 29 where its plan applies (kl/sgemm_stream_k.hpp): C of 1-24 tile columns (n off the tile
// by up to 127; the kernel finds a tile's row and column from its row-major id) and enough tile
// rows for half the plan's slots to four rounds of them (m off the tile too), k from 1 to 320, so
// the plans drawn have no whole round or one, two or three (max_whole_rounds), shares longer and
// shorter than a tile, and tiles of two and more sharers; the shapes whose plan does not apply (a
// last round over 95% full, a share too short, more whole rounds) run rung 28 and are tagged.
// The slots (stream_k_slots(): SMs x the blocks each holds, 4 on the H100) are the GPU's own in
// half the cases and, in the other half, those of 1-16 SMs (cap_stream_k_sms: the plan is made for
// that many, the blocks still run on the whole GPU), so that plans of a few tiles are drawn too; under a
// sanitizer always 1-4 SMs: the plans the whole GPU makes of hundreds of tiles, made of a few
// dozen (on an H200 the property took 5 s under initcheck instead of 62). The tile count spans
// its whole range at every size (kl::gen::uniform: RapidCheck's inRange scales its range by the
// case's size). On small integers every piece and their sum are exact: C must equal the oracle
// bit for bit, twice. On the whole GPU C has millions of elements, so the inputs, the FP64 oracle
// and the comparison stay on the GPU (kl/matmul_oracle.hpp; checked on the host, the property
// spent 38 s of its 50 on the H100).
KL_PROPERTY(MatmulProperty, StreamKRungIsExactWhereItShares, ()) {
  const Variant& v = variant("stream_k");
  if (!runs_here(v)) RC_DISCARD(v.unsupported({64, 128, 16}));
  const bool small = kl::sanitizer_small_mode();
  const bool capped = small || *rc::gen::arbitrary<bool>().as("SMs capped");
  const int sm_cap = capped ? *kl::gen::uniform(1, small ? 4 : 16).as("SMs the plan is made for") : 0;
  const StreamKSmCap cap(sm_cap);
  const std::int64_t slots = stream_k_slots();  // under the cap
  const std::int64_t columns = *rc::gen::inRange<std::int64_t>(1, 25).as("tile columns");
  const std::int64_t tiles = *kl::gen::uniform<std::int64_t>(slots / 2, 4 * slots).as("tiles");  // slots >= 4
  const std::int64_t rows = (tiles + columns - 1) / columns;
  const Shape shape{64 * rows - *rc::gen::inRange<std::int64_t>(0, 64).as("m short of the tile"),
                    128 * columns - *rc::gen::inRange<std::int64_t>(0, 128).as("n short of the tile"),
                    *rc::gen::inRange<std::int64_t>(1, 321).as("k"), false};
  const kl::matmul::sgemm_stream_k::Plan plan = stream_k_plan(shape);
  RC_TAG(plan.blocks == 0 ? "rung 28" : plan.whole_tiles == 0 ? "shares only" : "shares and whole rounds",
         capped ? "SMs capped" : "the GPU's SMs");
  require_exact_twice(v, shape, *rc::gen::arbitrary<std::uint64_t>().as("data seed"));
}

// Rung 36 where its plan deals k-steps out: blocks share tiles, store partials, announce them with
// flags and add each other's in the fix-up. The shapes the properties above draw (k up to 512)
// never share: a plan shares from k = 577 where C has fewer tiles than the SMs. Here the shapes
// are kl::gen::tensor_stream_k_shape()'s (kl.generators.coverage checks that most of them share
// on 132 SMs); those that do not are tagged. Exact on small integers, twice the same bits: the
// fix-up adds the partials in block order.
KL_PROPERTY(MatmulProperty, TensorCoreStreamKIsExactWhereItShares, ()) {
  const Variant& v = variant("wgmma_stream_k");
  const Shape shape = *kl::gen::tensor_stream_k_shape().as("drawn shape");
  if (!runs_here(v)) return require_refused_here(v, shape);
  RC_TAG(wgmma_stream_k_shares_tiles(shape) ? "tiles shared" : "whole tiles");
  require_exact_twice(v, shape, *rc::gen::arbitrary<std::uint64_t>().as("data seed"));
}

// Rung 37's clusters on every shape the matmul generator draws (its sides' tile edges, off the
// tile, k up to 512; 64 under a sanitizer): by its rule the clusters run only where each walks
// three pairs of tiles or more (about 13 M elements of C on the whole GPU, drawn only by
// HopperRungsAreExactOverManyTiles), so the rule is set aside for this property
// (use_clusters_on_every_whole_tile_plan; rung 36's shared plans stay rung 36's, tagged). Exact
// on small integers, twice the same bits.
KL_PROPERTY(MatmulProperty, MulticastClustersAreExactOnEveryShape, ()) {
  const Variant& v = variant("wgmma_multicast");
  const Shape shape = *kl::gen::matmul_shape().as("drawn shape");
  if (!runs_here(v)) return require_refused_here(v, shape);
  const ClustersOnEveryWholeTilePlan everywhere(true);
  RC_TAG(wgmma_multicast_runs_clusters(shape) ? "clusters" : "rung 36's shared plan");
  require_exact_twice(v, shape, *rc::gen::arbitrary<std::uint64_t>().as("data seed"));
}

// The sm_90a rungs (33 to 37) on C of more tiles than their grid has blocks, so the persistent
// rungs' blocks walk several tiles each: their rings run on across tiles, rung 35's staging of C
// is reused, rung 36 runs its whole-tile plan and rung 37 its clusters where each walks three
// pairs of tiles or more; each side off the tile (padded copies for 33-35, TMA's bounds for
// 36-37). The properties above draw C of at most 4 x 2 tiles; only the bench's fixed shapes
// walked more. C's tiles (128 x 256), rows times 1-24 columns: in half the cases SMs + 1 to four
// SMs' worth on the grid the GPU holds (up to 4 a block), in the other half cap + 1 to 8 x cap on
// a grid capped at 1-16 blocks (cap_persistent_grid: up to 8 a block; rung 37 runs half as many
// clusters, at least one, so up to 12 pairs a cluster). Each side short of the tile by 0 to a tile
// less one, k in 1..320 (edges at the 64-deep k-steps). Under a sanitizer always capped, at 1-4
// blocks with cap + 1 to 3 x cap tiles in 1-4 columns and k up to 128: the tools' time grows with
// C. Exact on small integers, twice the same bits.
KL_PROPERTY(MatmulProperty, HopperRungsAreExactOverManyTiles, ()) {
  const Variant& v = variant(
      *rc::gen::element<std::string>("wgmma_tma", "wgmma_persistent", "wgmma_tma_store", "wgmma_stream_k", "wgmma_multicast")
           .as("rung"));
  const bool small = kl::sanitizer_small_mode();
  const std::int64_t sms = kl::device_facts().sm_count;
  const bool capped = small || *rc::gen::arbitrary<bool>().as("grid capped");
  const int cap = capped ? *kl::gen::uniform(1, small ? 4 : 16).as("grid cap (blocks)") : 0;
  // The tiles' count in [least, most]: columns first, then the rows that keep it there (some
  // always do: a multiple of any column count up to `most` lies in the range).
  const std::int64_t least = capped ? cap + 1 : sms + 1, most = capped ? (small ? 3 : 8) * std::int64_t{cap} : 4 * sms;
  const std::int64_t columns = *kl::gen::uniform<std::int64_t>(1, std::min<std::int64_t>(small ? 4 : 24, most)).as("tile columns");
  const std::int64_t rows = *kl::gen::uniform<std::int64_t>((least + columns - 1) / columns, most / columns).as("tile rows");
  const std::int64_t most_k = small ? 128 : 320;
  const std::int64_t k = *rc::gen::weightedOneOf<std::int64_t>({
                              {1, kl::gen::edge_of(kl::gen::edges_within<std::int64_t>({1, 16, 63, 64, 65, 128, 192, 257, 320}, 1, most_k))},
                              {1, kl::gen::uniform<std::int64_t>(1, most_k)},
                          }).as("k");
  const Shape shape{stream_k::tile_m * rows - *kl::gen::uniform<std::int64_t>(0, stream_k::tile_m - 1).as("m short of the tile"),
                    stream_k::tile_n * columns - *kl::gen::uniform<std::int64_t>(0, stream_k::tile_n - 1).as("n short of the tile"),
                    k, false};
  if (!runs_here(v)) return require_refused_here(v, shape);
  const PersistentGridCap grid(cap);
  const std::string grid_tag = capped ? ", grid capped" : ", whole grid";
  if (v.info.name == "wgmma_multicast")
    RC_TAG(std::string(wgmma_multicast_runs_clusters(shape) ? "rung 37, clusters" : "rung 37, as rung 36") + grid_tag);
  else
    RC_TAG(v.info.name + grid_tag);
  require_exact_twice(v, shape, *rc::gen::arbitrary<std::uint64_t>().as("data seed"));
}

// A shape the variant does not take is refused with "<id>: <rule>" and the output stays
// poisoned: never computed wrong.
KL_PROPERTY(MatmulProperty, UnsupportedShapesAreRejectedNeverComputed, ()) {
  const Variant& v = variant(*rc::gen::elementOf(clean_names()).as("variant"));
  Shape shape = *kl::gen::matmul_shape().as("drawn shape");
  shape.bias = *rc::gen::arbitrary<bool>().as("bias");
  // A shape the variant takes gets a side broken (0, -1 or -512 in m or n), so no case is
  // discarded; shapes it refuses as drawn (not square, not whole tiles, a bias) stay as they are.
  if (v.supports(shape)) {
    const std::int64_t bad = *kl::gen::edge_of(std::vector<std::int64_t>{0, -1, -512}).as("bad side");
    (*kl::gen::uniform(0, 1).as("broken side (0: m, 1: n)") == 0 ? shape.m : shape.n) = bad;
  }
  RC_ASSERT(!v.supports(shape));
  kl::DeviceBuffer<float> in(1);
  kl::GuardedBuffer<float> out(1);
  out.poison();
  try {
    v.launch({in.data(), in.data(), in.data(), out.data(), shape});
    RC_FAIL("accepted " + v.unsupported(shape));
  } catch (const std::invalid_argument& e) {
    RC_ASSERT(std::string(e.what()).rfind(v.info.id() + ": ", 0) == 0);
  }
  RC_ASSERT(out.inspect().unwritten == 1u);
}

// The planted race (racecheck's verdict is kl.expect.race-tiled-missing-sync): every element
// is written whatever the timing; whether values are wrong is tagged, so the run's output
// reports how often the race corrupted C on this GPU.
KL_PROPERTY(PlantedMatmulProperty, MissingSecondSyncWritesEveryElement, ()) {
  const Variant& v = variant("tiled_missing_second_sync");
  Shape shape = draw_shape_for(v);
  // At least two 16-deep tiles: with one there is no next tile to overwrite shared memory, so no
  // race, and racecheck's proof run (kl.matmul.property.racecheck.exclusion_earned, eight cases)
  // once drew only such shapes and saw none.
  shape.k = std::max<std::int64_t>(shape.k, 2 * 16 + 1);
  require_supported(v, shape);
  const CaseResult r = run_case(v, shape, make_inputs(shape, Data::random, *rc::gen::arbitrary<std::uint64_t>()));
  RC_ASSERT(r.guards.ok());
  RC_TAG(r.mismatch_count == 0 ? "output within bound" : "output corrupted by the race");
}
