// The dispatch family as the harness sees it: declared with the kit (kit.hpp) over the family's
// own table (registry.cpp), so `run`, `bench` and `bench --sweep` are the kit's. The shape is the
// kit's Matrix under the seeds' names: --width (cols), --height (rows), --block BXxBY. Each
// variant keeps its launcher (Args: the int map and the seed's Shape) and the table's rule; the
// kit poisons the map, checks every cell against the oracle (cell (col,row) holds (col,row), two
// ints) and the canaries around it. No inputs: a case does not depend on a seed.
// bench: 8192 x 8192 cells, 512 MiB of ints written; GB/s against the device-to-device copy, and
// at a swept size (2^12 .. 2^30 cells, square) against cudaMemset of the same bytes: the kernels
// only write. Its own command, `coords`, prints the grid of thread coordinates as the seeds do.
#include "kit.hpp"
#include "cli.hpp"
#include "run_support.hpp"

#include "kl/device_facts.hpp"
#include "kl/dispatch.hpp"

#include <climits>
#include <ostream>

namespace kl::dispatch {
namespace {

using kit::Matrix;

// The seeds' shape of a kit Matrix; the kit's own rules (sizes >= 0, at most 2^30 ints) come first.
Shape shape_of(const Matrix& m) { return {static_cast<int>(m.cols), static_cast<int>(m.rows), m.block}; }

void oracle(const kit::HostCall<Matrix, int>& h) { expected_coords(h.out, shape_of(h.shape)); }

kit::KernelVariant<Matrix, int> declared(const Variant& v) {
  kit::KernelVariant<Matrix, int> k;
  k.name = v.info.name;
  k.lesson = v.info.lesson;
  k.oracle = oracle;
  k.work = {8.0, 0.0};  // (col, row) written, two 4-byte ints a cell; no arithmetic on data
  k.role = v.info.role;
  k.findings = v.info.findings;
  k.launch = [&v](const kit::Call<Matrix, int>& c, cudaStream_t stream) { v.raw_launch({c.out, shape_of(c.shape)}, stream); };
  k.rule = [&v](const Matrix& m) -> std::string {
    if (m.rows > INT_MAX || m.cols > INT_MAX) return "width and height must fit in an int (the seeds' Shape)";
    return v.unsupported(shape_of(m));
  };
  k.seed = v.info.seed_file;
  k.seed_kernel = v.info.seed_kernel;
  return k;
}

int cmd_coords(const cli::ParsedArgs& args, std::ostream& out) {
  const Variant& v = variant(args.text("variant", "record_thread_coords_guarded"));
  const Shape shape{static_cast<int>(args.integer("width", 4, 0, INT_MAX)),
                    static_cast<int>(args.integer("height", 6, 0, INT_MAX)), args.dim2("block", {2, 2})};
  const std::string order_text = args.text("order", "col,row");
  if (order_text != "col,row" && order_text != "row,col")
    throw cli::UsageError("--order must be col,row or row,col, got '" + order_text + "'");
  const auto order = order_text == "col,row" ? Order::col_row : Order::row_col;
  cli::require_supported(v.info, v.unsupported(shape));
  require_gpu();
  const CoordsCase c = run_case(v, shape);
  const Dim2 grid = grid_2d(shape.width, shape.height, shape.block);
  out << v.info.id() << ": width " << shape.width << ", height " << shape.height << ", blockDim = (" << shape.block.x
      << "," << shape.block.y << "), gridDim = (" << grid.x << "," << grid.y << "), printed as (" << order_text
      << ")\n"
      << format_coords(c.coords, shape.width, shape.height, order);
  if (!c.result.ok()) {
    out << "check: FAIL (" << c.result.describe() << ")\n";
    return 1;
  }
  return 0;
}

kit::FamilySpec<Matrix, int> spec() {
  kit::FamilySpec<Matrix, int> s{.name = "dispatch", .inputs = 0, .bench_shape = {8192, 8192, {16, 16}}};
  for (const Variant& v : variants()) s.variants.push_back(declared(v));
  s.sweep = true;
  s.outputs = [](const Matrix& m) { return 2 * m.rows * m.cols; };
  s.shape_flags = {{"height", "H", "rows of the grid"},
                   {"width", "W", "cells per row of the grid"},
                   {"block", "BXxBY", "threads per block, x along a row"}};
  s.run_shape = Matrix{1024, 1024, {16, 16}};
  // The kind's awkward shapes where the seeds' rules take them (no empty grid), and shapes the
  // blocks tile, for the unguarded kernel.
  s.unit_shapes = {{1, 1, {16, 16}},  {100, 37, {16, 16}}, {33, 1025, {32, 8}}, {7, 5, {1, 1}},
                   {1, 3000, {1024, 1}}, {3000, 1, {1, 1024}}, {64, 64, {32, 32}}, {6, 4, {2, 2}},
                   {48, 96, {32, 16}}};
  s.refused_shapes = {{{0, 4, {16, 16}}, "width and height must be >= 1"},
                      {{4, 4, {64, 32}}, "at most 1024 threads"},
                      {{std::int64_t{1} << 15, std::int64_t{1} << 15, {16, 16}}, "at most 2^30 elements"},
                      {{70000, 1, {1, 1}}, "gridDim.y"}};
  s.write_only = true;
  s.commands = {{{"coords",
                  {{"width", "W", "cells per row (default 4)"},
                   {"height", "H", "rows (default 6)"},
                   {"block", "BXxBY", "threads per block (default 2x2)"},
                   {"order", "col,row|row,col", "how each cell is printed (default col,row)"},
                   {"variant", "V", "dispatch variant (default record_thread_coords_guarded)"}},
                  0, false, "", "print the grid of thread coordinates as the seeds do\n", cli::Needs::gpu},
                 cmd_coords}};
  return s;
}

}  // namespace
}  // namespace kl::dispatch

KL_KIT_FAMILY(dispatch, dispatch::spec())
