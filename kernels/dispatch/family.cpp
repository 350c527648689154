// The dispatch family as the harness sees it (family.hpp).
// run: --width W --height H --block BXxBY; and its own command, `kernel-lab coords`, which
// prints the grid of thread coordinates as the seeds do.
// bench: record_thread_coords writes (col, row) for every cell of an 8192 x 8192 grid, 512 MiB
// of ints; GB/s of bytes written against the device-to-device copy.
#include "family.hpp"
#include "bench_context.hpp"
#include "cli.hpp"
#include "run_support.hpp"

#include "kl/device_facts.hpp"
#include "kl/dispatch.hpp"

#include <cmath>
#include <map>
#include <ostream>
#include <tuple>
#include <variant>

namespace kl::cli {
namespace {

// The work model: (col, row) written for every cell, two 4-byte ints; no arithmetic on data.
Work work_of(const dispatch::Shape& s) {
  return {8.0 * static_cast<double>(s.width) * static_cast<double>(s.height), 0};
}

dispatch::Shape dispatch_shape(const ParsedArgs& a, dispatch::Shape fallback) {
  return {static_cast<int>(a.integer("width", fallback.width, -wide_range, wide_range)),
          static_cast<int>(a.integer("height", fallback.height, -wide_range, wide_range)),
          a.dim2("block", fallback.block)};
}

}  // namespace

int run_dispatch(const VariantInfo& info, const ParsedArgs& a, std::ostream& out) {
  const dispatch::Variant& v = dispatch::variant(info.name);
  const dispatch::Shape shape = dispatch_shape(a, {1024, 1024, {16, 16}});
  require_supported(info, v.unsupported(shape));
  const int reps = reps_flag(a);
  require_gpu();
  out << info.id() << ": width=" << shape.width << " height=" << shape.height << " block=" << shape.block.x
      << "x" << shape.block.y << "\n";
  const dispatch::CoordsCase c = dispatch::run_case(v, shape);
  print_check(out, c.result);
  if (!c.result.ok()) return 1;
  DeviceBuffer<int> coords(c.coords.size());
  const TimingSummary t = time_device_work([&](cudaStream_t s) { v.launch({coords.data(), shape}, s); }, 3, reps);
  print_timing(out, t, work_of(shape).bytes);
  return 0;
}

int cmd_coords(const ParsedArgs& args, std::ostream& out) {
  const dispatch::Variant& v = dispatch::variant(args.text("variant", "record_thread_coords_guarded"));
  const dispatch::Shape shape = dispatch_shape(args, {4, 6, {2, 2}});
  const std::string order_text = args.text("order", "col,row");
  if (order_text != "col,row" && order_text != "row,col")
    throw UsageError("--order must be col,row or row,col, got '" + order_text + "'");
  const auto order = order_text == "col,row" ? dispatch::Order::col_row : dispatch::Order::row_col;
  require_supported(v.info, v.unsupported(shape));
  require_gpu();
  const dispatch::CoordsCase c = dispatch::run_case(v, shape);
  const Dim2 grid = grid_2d(shape.width, shape.height, shape.block);
  out << v.info.id() << ": width " << shape.width << ", height " << shape.height << ", blockDim = ("
      << shape.block.x << "," << shape.block.y << "), gridDim = (" << grid.x << "," << grid.y << "), printed as ("
      << order_text << ")\n"
      << dispatch::format_coords(c.coords, shape.width, shape.height, order);
  if (!c.result.ok()) {
    out << "check: FAIL (" << c.result.describe() << ")\n";
    return 1;
  }
  return 0;
}

}  // namespace kl::cli

namespace kl::cli {
namespace {

constexpr int bench_side = 8192;
constexpr std::int64_t bench_cells = std::int64_t{bench_side} * bench_side;
constexpr Dim2 bench_block{16, 16};  // the seeds' 2-D block shape, scaled up from 2x2
constexpr int swept_reps = 5;

// The output by cell count, shared by every variant (one swept size at a time).
struct DispatchInputs {
  InputsBySize<std::monostate, DeviceBuffer<int>> by_cells{bench_cells};

  DeviceBuffer<int>& coords(std::int64_t cells) {
    DeviceBuffer<int>& buffer = by_cells.at({}, cells);
    if (buffer.size() == 0) buffer = DeviceBuffer<int>(2 * static_cast<std::size_t>(cells));
    return buffer;
  }
};

// n cells as a sqrt(n) x sqrt(n) grid (n is a power of 4) of bench_block blocks.
dispatch::Shape square_of(std::int64_t cells) {
  const auto side = static_cast<int>(std::llround(std::sqrt(static_cast<double>(cells))));
  return {side, side, bench_block};
}

}  // namespace

std::vector<BenchCase> dispatch_bench_cases() {
  return cases_of<dispatch::Variant>("dispatch", dispatch::variants());
}

// Each cell two ints written. A swept size the variant's own rule rejects is skipped with that
// rule as the reason (2^30 cells: the kernels index 2^31 ints with int), not attempted: a refused
// case would end the whole sweep with nothing written.
std::vector<BenchCase> dispatch_sweep_cases() {
  std::vector<BenchCase> cases = at_swept_sizes(dispatch_bench_cases(), swept_reps);
  for (BenchCase& c : cases)
    if (c.skip_reason.empty())
      c.skip_reason = dispatch::variant(c.variant).unsupported(square_of(case_size(c, bench_cells)));
  return cases;
}

bench::Result dispatch_bench_measure(const BenchCase& c, Bench& ctx) {
  const dispatch::Variant& v = dispatch::variant(c.variant);
  const std::int64_t cells = case_size(c, bench_cells);
  DeviceBuffer<int>& coords = ctx.state<DispatchInputs>("dispatch").coords(cells);
  const dispatch::Shape shape = square_of(cells);
  const int side = shape.width;
  const TimingSummary t = ctx.validated_timing(
      c, [&](cudaStream_t s) { poison_words(coords.data(), coords.size(), s); },
      [&](cudaStream_t s) { v.launch({coords.data(), shape}, s); },
      [&] { return dispatch::check_coords(coords.download(), shape); }, output_bytes(coords));
  const Work w = work_of(shape);
  bench::Result r = throughput_result(c, std::to_string(side) + "x" + std::to_string(side) + " block=16x16", t,
                                      w.bytes, "GB/s", bench::Roof::dram_bandwidth, w.intensity());
  if (c.sweep.empty()) {
    r.ceiling = "d2d_copy";
    r.ceiling_value = ctx.d2d_copy_gbps();
  } else {  // write-only: read against cudaMemset of the same bytes
    std::tie(r.ceiling, r.ceiling_value) = ctx.memset_ceiling(static_cast<std::size_t>(w.bytes));
  }
  return r;
}

}  // namespace kl::cli

namespace kl {

const Family& family_dispatch() {
  static const Family family = [] {
    Family f;
    f.name = "dispatch";
    f.variants = variants_of(dispatch::variants());
    f.run_flags = {{"width", "W", "cells per row of the grid (default 1024)"},
                   {"height", "H", "rows of the grid (default 1024)"},
                   {"block", "BXxBY", "threads per block (default 16x16)"},
                   cli::reps_flag_spec()};
    f.run = cli::run_dispatch;
    f.bench_cases = cli::dispatch_bench_cases;
    f.bench_measure = cli::dispatch_bench_measure;
    f.sweep_cases = cli::dispatch_sweep_cases;
    f.commands = {{{"coords",
                    {{"width", "W", "cells per row (default 4)"},
                     {"height", "H", "rows (default 6)"},
                     {"block", "BXxBY", "threads per block (default 2x2)"},
                     {"order", "col,row|row,col", "how each cell is printed (default col,row)"},
                     {"variant", "V", "dispatch variant (default record_thread_coords_guarded)"}},
                    0, false, "", "print the grid of thread coordinates as the seeds do\n", cli::Needs::gpu},
                   cli::cmd_coords}};
    return f;
  }();
  return family;
}

}  // namespace kl
