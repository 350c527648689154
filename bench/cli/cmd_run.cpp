// `kernel-lab run` and `kernel-lab coords`: one checked launch, then timing.
#include "cli.hpp"

#include "kl/device_facts.hpp"
#include "kl/dispatch.hpp"
#include "kl/elementwise.hpp"
#include "kl/timing.hpp"

#include <iomanip>
#include <ostream>

namespace kl::cli {
namespace {

constexpr std::int64_t wide = std::int64_t{1} << 40;  // parse range; launchers enforce the real rules

void print_check(std::ostream& out, const CaseResult& r) {
  out << "check: " << (r.ok() ? "PASS" : "FAIL") << " (" << r.describe() << ")\n";
}

void print_timing(std::ostream& out, const TimingSummary& t, double bytes) {
  out << std::fixed << std::setprecision(4) << "time: median " << t.median_ms << " ms (min " << t.min_ms
      << ", max " << t.max_ms << ", " << t.repetitions << " reps)";
  if (bytes > 0 && t.median_ms > 0)
    out << std::setprecision(1) << ", " << bytes / (t.median_ms * 1e6) << " GB/s (bytes read + written)";
  out << "\n";
}

int reps_of(const ParsedArgs& a) { return static_cast<int>(a.integer("reps", 20, 1, 10000)); }

int run_elementwise(const VariantInfo& info, const ParsedArgs& a, std::ostream& out) {
  const elementwise::Variant& v = elementwise::variant(info.name);
  const elementwise::Shape shape{a.integer("n", 1 << 20, -wide, wide),
                                 static_cast<int>(a.integer("block", 256, -wide, wide))};
  if (const std::string rule = v.unsupported(shape); !rule.empty())
    throw std::invalid_argument(info.id() + ": " + rule);
  const auto seed = static_cast<std::uint64_t>(a.integer("seed", 1, 0, wide));
  const int reps = reps_of(a);
  require_gpu();
  out << info.id() << ": n=" << shape.n << " block=" << shape.block << " seed=" << seed << "\n";
  const elementwise::Inputs in = elementwise::make_inputs(v.op, shape, seed);
  const CaseResult r = elementwise::run_case(v, shape, in);
  print_check(out, r);
  if (!r.ok()) return 1;

  const auto n = static_cast<std::size_t>(shape.n);
  DeviceBuffer<float> x{std::span<const float>(in.a)}, y{std::span<const float>(v.op == elementwise::Op::add ? in.b : in.a)};
  DeviceBuffer<float> z(n);
  const TimingSummary t = time_device_work(
      [&](cudaStream_t s) { v.launch({x.data(), y.data(), z.data(), shape}, s); }, 3, reps);
  const double bytes_per_element = v.op == elementwise::Op::add ? 12 : 8;
  print_timing(out, t, bytes_per_element * static_cast<double>(n));
  return 0;
}

dispatch::Shape dispatch_shape(const ParsedArgs& a, dispatch::Shape fallback) {
  return {static_cast<int>(a.integer("width", fallback.width, -wide, wide)),
          static_cast<int>(a.integer("height", fallback.height, -wide, wide)), a.dim2("block", fallback.block)};
}

int run_dispatch(const VariantInfo& info, const ParsedArgs& a, std::ostream& out) {
  const dispatch::Variant& v = dispatch::variant(info.name);
  const dispatch::Shape shape = dispatch_shape(a, {1024, 1024, {16, 16}});
  if (const std::string rule = v.unsupported(shape); !rule.empty())
    throw std::invalid_argument(info.id() + ": " + rule);
  const int reps = reps_of(a);
  require_gpu();
  out << info.id() << ": width=" << shape.width << " height=" << shape.height << " block=" << shape.block.x
      << "x" << shape.block.y << "\n";
  const dispatch::CoordsCase c = dispatch::run_case(v, shape);
  print_check(out, c.result);
  if (!c.result.ok()) return 1;
  DeviceBuffer<int> coords(c.coords.size());
  const TimingSummary t =
      time_device_work([&](cudaStream_t s) { v.launch({coords.data(), shape}, s); }, 3, reps);
  print_timing(out, t, static_cast<double>(coords.bytes()));
  return 0;
}

struct FamilyRunner {
  const char* family;
  std::set<std::string> flags;
  int (*run)(const VariantInfo&, const ParsedArgs&, std::ostream&);
};

const std::vector<FamilyRunner>& runners() {
  static const std::vector<FamilyRunner> all = {
      {"elementwise", {"n", "block", "seed", "reps"}, run_elementwise},
      {"dispatch", {"width", "height", "block", "reps"}, run_dispatch},
  };
  return all;
}

}  // namespace

int cmd_run(const ParsedArgs& args, std::ostream& out) {
  if (args.positionals.empty()) throw UsageError("'run' needs a variant, e.g. `kernel-lab run elementwise.add --n 1000`");
  const VariantInfo& info = find_info(args.positionals[0]);
  for (const FamilyRunner& r : runners()) {
    if (info.family != r.family) continue;
    args.require_only(r.flags, "'run " + info.id() + "'");
    return r.run(info, args, out);
  }
  throw UsageError("family '" + info.family + "' has no runner in kernel-lab");
}

int cmd_coords(const ParsedArgs& args, std::ostream& out) {
  const dispatch::Variant& v = dispatch::variant(args.text("variant", "record_thread_coords_guarded"));
  const dispatch::Shape shape = dispatch_shape(args, {4, 6, {2, 2}});
  const std::string order_text = args.text("order", "col,row");
  if (order_text != "col,row" && order_text != "row,col")
    throw UsageError("--order must be col,row or row,col, got '" + order_text + "'");
  const auto order = order_text == "col,row" ? dispatch::Order::col_row : dispatch::Order::row_col;
  if (const std::string rule = v.unsupported(shape); !rule.empty())
    throw std::invalid_argument(v.info.id() + ": " + rule);
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
