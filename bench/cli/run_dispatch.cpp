// `kernel-lab run dispatch.<variant> --width W --height H --block BXxBY` and `kernel-lab coords`.
#include "cli.hpp"
#include "run_support.hpp"

#include "kl/device_facts.hpp"
#include "kl/dispatch.hpp"

#include <ostream>

namespace kl::cli {
namespace {

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
  print_timing(out, t, static_cast<double>(coords.bytes()));
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
