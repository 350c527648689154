// Dispatch family on the GPU: the seeds' 4x6 table, exactly as each seed prints it.
#include "kl/dispatch.hpp"

#include <gtest/gtest.h>

using namespace kl::dispatch;

namespace {
// Seed 000 prints (x,y) = (col,row); seed 003 prints (row,col).
constexpr const char* seed000_table =
    "(0,0) (1,0) (2,0) (3,0)\n"
    "(0,1) (1,1) (2,1) (3,1)\n"
    "(0,2) (1,2) (2,2) (3,2)\n"
    "(0,3) (1,3) (2,3) (3,3)\n"
    "(0,4) (1,4) (2,4) (3,4)\n"
    "(0,5) (1,5) (2,5) (3,5)\n";
constexpr const char* seed003_table =
    "(0,0) (0,1) (0,2) (0,3)\n"
    "(1,0) (1,1) (1,2) (1,3)\n"
    "(2,0) (2,1) (2,2) (2,3)\n"
    "(3,0) (3,1) (3,2) (3,3)\n"
    "(4,0) (4,1) (4,2) (4,3)\n"
    "(5,0) (5,1) (5,2) (5,3)\n";
const Shape seed_shape{4, 6, {2, 2}};  // width 4, height 6, blockDim (2,2), gridDim (2,3)
}  // namespace

TEST(DispatchSeed, Width4Height6Block2x2PrintsTheSeedTables) {
  for (const char* name : {"record_thread_coords", "record_thread_coords_guarded"}) {
    const CoordsCase c = run_case(variant(name), seed_shape);
    EXPECT_TRUE(c.result.ok()) << name << ": " << c.result.describe();
    EXPECT_EQ(format_coords(c.coords, 4, 6, Order::col_row), seed000_table) << name;
    EXPECT_EQ(format_coords(c.coords, 4, 6, Order::row_col), seed003_table) << name;
  }
}

// The seeds' walk-through: the thread with blockIdx (1,1), threadIdx (0,1) has col 2, row 3
// and writes flattened index 3*4+2 = 14.
TEST(DispatchSeed, ThreadTwoThreeWritesIndexFourteen) {
  const CoordsCase c = run_case(variant("record_thread_coords"), seed_shape);
  EXPECT_EQ(c.coords[2 * 14], 2);
  EXPECT_EQ(c.coords[2 * 14 + 1], 3);
}

TEST(Dispatch, GuardedVariantCoversShapesTheBlocksDoNotTile) {
  const CoordsCase c = run_case(variant("record_thread_coords_guarded"), {5, 7, {4, 4}});
  EXPECT_TRUE(c.result.ok()) << c.result.describe();
}

TEST(Dispatch, SeedVariantRejectsShapesTheBlocksDoNotTile) {
  const Variant& v = variant("record_thread_coords");
  EXPECT_FALSE(v.supports({5, 6, {2, 2}}));
  kl::DeviceBuffer<int> buf(60);
  EXPECT_THROW(v.launch({buf.data(), {5, 6, {2, 2}}}), std::invalid_argument);
}

TEST(Dispatch, ReferenceMatchesTheKernels) {
  const Shape s{33, 17, {8, 4}};
  const CoordsCase ref = run_case(variant("cpu_oracle"), s);
  const CoordsCase gpu = run_case(variant("record_thread_coords_guarded"), s);
  EXPECT_TRUE(ref.result.ok());
  EXPECT_EQ(ref.coords, gpu.coords);
}
