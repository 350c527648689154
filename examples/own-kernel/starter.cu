// The starter family: SAXPY (z = a*x + y) and a matrix transpose on a rows x cols matrix, one
// thread per element, and one planted bug, SAXPY with an off-by-one bounds guard. Declared with
// the kit (kit.hpp): the harness derives `starter-lab run` and `bench`, the unit shapes, the
// oracle property, the four sanitizer runs and the planted finding's checks from this file.
#include "kit.cuh"

#include <cmath>

using kl::kit::Call;
using kl::kit::HostCall;
using kl::kit::Matrix;

namespace {

__global__ void saxpy(Call<Matrix> c) {
  const auto [row, col] = kl::kit::cell();
  if (row >= c.shape.rows || col >= c.shape.cols) return;
  const std::int64_t i = row * c.shape.cols + col;
  c.out[i] = fmaf(c.a, c.in[0][i], c.in[1][i]);
}

// Each thread reads along a row of the input and writes down a column of the (cols x rows)
// output: the reads coalesce, the writes stride by `rows` (the lesson a tiled transpose fixes).
__global__ void transpose(Call<Matrix> c) {
  const auto [row, col] = kl::kit::cell();
  if (row >= c.shape.rows || col >= c.shape.cols) return;
  c.out[col * c.shape.rows + row] = c.in[0][row * c.shape.cols + col];
}

// PLANTED BUG: `col > cols` where `col >= cols` is meant. When the grid overhangs the columns,
// thread (row, cols) runs: for every row but the last it rewrites element (row + 1, 0) with the
// right value; in the last row it reads x[n] and y[n], one past their ends (memcheck), and
// writes z[n], the first canary word.
__global__ void saxpy_off_by_one(Call<Matrix> c) {
  const auto [row, col] = kl::kit::cell();
  if (row >= c.shape.rows || col > c.shape.cols) return;
  const std::int64_t i = row * c.shape.cols + col;
  c.out[i] = fmaf(c.a, c.in[0][i], c.in[1][i]);
}

// The oracles: SAXPY as std::fma, which is what the GPU's FFMA computes (bit-exact); the
// transpose exactly.
void saxpy_oracle(const HostCall<Matrix>& h) {
  for (std::size_t i = 0; i < h.out.size(); ++i) h.out[i] = std::fma(h.a, h.in[0][i], h.in[1][i]);
}
void transpose_oracle(const HostCall<Matrix>& h) {
  for (std::int64_t row = 0; row < h.shape.rows; ++row)
    for (std::int64_t col = 0; col < h.shape.cols; ++col)
      h.out[col * h.shape.rows + row] = h.in[0][row * h.shape.cols + col];
}

// 37 columns = 2 x 16 + 5: the default 16x16 block overhangs them.
const std::vector<std::string> overhanging = {"--rows", "100", "--cols", "37"};

}  // namespace

// x and y uniform in [-100, 100], a in [-4, 4]. The bench: 8192 x 8192 floats (256 MiB an array,
// five times the H100's L2), GB/s of bytes read plus written against the device-to-device copy.
KL_KIT_FAMILY(starter, kl::kit::FamilySpec<Matrix>{
    .name = "starter", .inputs = 2, .scalar = true, .bench_shape = {8192, 8192, {32, 8}},
    .variants = {
        {"saxpy", "z = a*x + y, one thread per element on a 2-D grid: the first kernel everyone writes.",
         saxpy, saxpy_oracle, {12, 2}},
        {"transpose", "out[c][r] = in[r][c] with the bounds guard: coalesced reads, writes strided by rows.",
         transpose, transpose_oracle, {8, 0}},
        {"saxpy_off_by_one",
         "An off-by-one guard, `c > cols`: one extra column of threads runs, and the last row's reads "
         "x[n] and y[n] and writes z[n], one past each end.",
         saxpy_off_by_one, saxpy_oracle, {12, 2}, kl::Role::planted,
         {{kl::Checker::memcheck, "Invalid __global__ read of size 4", "memcheck-saxpy-off-by-one", overhanging,
           "starter.saxpy"},
          {kl::Checker::canary, "", "", overhanging, "starter.saxpy"}}},
    }})
