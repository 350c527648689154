// The starter family, whole: its kernels, its variant table, inputs and oracle, and the family
// object that puts it under the kernel-lab harness (`starter-lab run`, `bench`, `list`, the
// sanitizer runs and the planted finding's check).
//
// Adding a variant: a kernel and its launcher below, and one entry in the table (plus its row in
// gates.conf if it is benchmarked).
#include "starter.hpp"

#include "bench_context.hpp"
#include "family.hpp"
#include "run_support.hpp"

#include "kl/device_facts.hpp"
#include "kl/guarded_buffer.hpp"

#include <cmath>
#include <cstring>
#include <ostream>
#include <random>

namespace starter {
namespace {

// ---- kernels: one thread per element of the rows x cols input

__global__ void saxpy_kernel(float a, const float* x, const float* y, float* z, std::int64_t rows,
                             std::int64_t cols) {
  const std::int64_t c = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const std::int64_t r = blockIdx.y * static_cast<std::int64_t>(blockDim.y) + threadIdx.y;
  if (r >= rows || c >= cols) return;
  const std::int64_t i = r * cols + c;
  z[i] = fmaf(a, x[i], y[i]);
}

// Each thread reads along a row of `in` and writes down a column of `out`: the reads coalesce,
// the writes stride by `rows` (the lesson a tiled transpose fixes).
__global__ void transpose_kernel(const float* in, float* out, std::int64_t rows, std::int64_t cols) {
  const std::int64_t c = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const std::int64_t r = blockIdx.y * static_cast<std::int64_t>(blockDim.y) + threadIdx.y;
  if (r >= rows || c >= cols) return;
  out[c * rows + r] = in[r * cols + c];
}

// PLANTED BUG: SAXPY with an off-by-one guard, `c > cols` where `c >= cols` is meant. When the
// grid overhangs the columns (cols not a multiple of block.x), thread (r, cols) runs: for every
// row but the last it recomputes element (r + 1, 0), the right value; in the last row it reads
// x[n] and y[n], one past their ends (memcheck), and writes z[n], the first canary word.
__global__ void saxpy_off_by_one_kernel(float a, const float* x, const float* y, float* z, std::int64_t rows,
                                        std::int64_t cols) {
  const std::int64_t c = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const std::int64_t r = blockIdx.y * static_cast<std::int64_t>(blockDim.y) + threadIdx.y;
  if (r >= rows || c > cols) return;
  const std::int64_t i = r * cols + c;
  z[i] = fmaf(a, x[i], y[i]);
}

dim3 grid_of(const Shape& s) {
  const kl::Dim2 g = kl::grid_2d(s.cols, s.rows, s.block);
  return dim3(static_cast<unsigned>(g.x), static_cast<unsigned>(g.y));
}
dim3 block_of(const Shape& s) { return dim3(static_cast<unsigned>(s.block.x), static_cast<unsigned>(s.block.y)); }
bool empty(const Shape& s) { return s.rows == 0 || s.cols == 0; }

void launch_saxpy(const Args& p, cudaStream_t stream) {
  if (empty(p.shape)) return;
  saxpy_kernel<<<grid_of(p.shape), block_of(p.shape), 0, stream>>>(p.a, p.x, p.y, p.out, p.shape.rows, p.shape.cols);
}
void launch_transpose(const Args& p, cudaStream_t stream) {
  if (empty(p.shape)) return;
  transpose_kernel<<<grid_of(p.shape), block_of(p.shape), 0, stream>>>(p.x, p.out, p.shape.rows, p.shape.cols);
}
void launch_saxpy_off_by_one(const Args& p, cudaStream_t stream) {
  if (empty(p.shape)) return;
  saxpy_off_by_one_kernel<<<grid_of(p.shape), block_of(p.shape), 0, stream>>>(p.a, p.x, p.y, p.out, p.shape.rows,
                                                                              p.shape.cols);
}

// ---- the shapes every variant accepts

constexpr std::int64_t max_elements = std::int64_t{1} << 30;  // 4 GiB of floats per array
constexpr std::int64_t max_grid_y = 65535;

std::string shape_rule(const Shape& s) {
  if (s.rows < 0 || s.cols < 0)
    return "rows and cols must be >= 0, got " + std::to_string(s.rows) + " x " + std::to_string(s.cols);
  if (std::string rule = kl::block_2d_violation(s.block); !rule.empty()) return rule;
  if (s.cols != 0 && s.rows > max_elements / s.cols)
    return "rows x cols must be at most 2^30 elements, got " + std::to_string(s.rows) + " x " + std::to_string(s.cols);
  if (kl::ceil_div(s.rows, s.block.y) > max_grid_y)
    return "rows / block.y must fit gridDim.y (at most 65535 blocks), got " +
           std::to_string(kl::ceil_div(s.rows, s.block.y));
  return "";
}

constexpr const char* seed_file = "-";  // the starter is not from a seed document

const std::vector<Variant>& table() {
  static const std::vector<Variant> variants = {
      {{{"starter", "saxpy", seed_file, "saxpy",
         "z = a*x + y, one thread per element on a 2-D grid, guarded: the first kernel everyone writes.",
         kl::Role::teaching, {}},
        shape_rule, launch_saxpy},
       Op::saxpy},
      {{{"starter", "transpose", seed_file, "transpose",
         "out[c][r] = in[r][c] with the bounds guard: coalesced reads, writes strided by rows.",
         kl::Role::teaching, {}},
        shape_rule, launch_transpose},
       Op::transpose},
      {{{"starter", "saxpy_off_by_one", seed_file, "saxpy (guard c > cols)",
         "An off-by-one guard: `c > cols` lets one extra column of threads run, and the last row's reads "
         "x[n] and y[n] and writes z[n], one past each end.",
         kl::Role::planted,
         {{kl::Checker::memcheck, R"(Invalid __global__ read of size 4)", "memcheck-saxpy-off-by-one",
           {"--rows", "100", "--cols", "37"}, "starter.saxpy"},
          {kl::Checker::canary, "", "", {"--rows", "100", "--cols", "37"}, "starter.saxpy"}}},
        shape_rule, launch_saxpy_off_by_one},
       Op::saxpy},
  };
  return variants;
}

}  // namespace

std::span<const Variant> variants() { return table(); }

// ---- inputs, oracle, checked run

Inputs make_inputs(const Shape& shape, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> value(-100.0f, 100.0f), scalar(-4.0f, 4.0f);
  const auto n = static_cast<std::size_t>(std::max<std::int64_t>(shape.rows * shape.cols, 0));
  Inputs in;
  in.a = scalar(rng);
  if (in.a == 0.0f) in.a = 1.5f;
  in.x.resize(n);
  in.y.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    in.x[i] = value(rng);
    in.y[i] = value(rng);
  }
  return in;
}

std::vector<float> oracle(Op op, const Shape& shape, const Inputs& in) {
  std::vector<float> out(in.x.size());
  if (op == Op::saxpy) {
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = std::fma(in.a, in.x[i], in.y[i]);
    return out;
  }
  for (std::int64_t r = 0; r < shape.rows; ++r)
    for (std::int64_t c = 0; c < shape.cols; ++c)
      out[static_cast<std::size_t>(c * shape.rows + r)] = in.x[static_cast<std::size_t>(r * shape.cols + c)];
  return out;
}

namespace {

kl::CaseResult compare(const std::vector<float>& got, const std::vector<float>& want) {
  kl::CaseResult r;
  r.checked = got.size();
  for (std::size_t i = 0; i < got.size(); ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(float)) != 0) r.add_mismatch({i, got[i], want[i], 0.0});
  return r;
}

}  // namespace

kl::CaseResult run_case(const Variant& v, const Shape& shape, const Inputs& in) {
  kl::DeviceBuffer<float> x{std::span<const float>(in.x)}, y{std::span<const float>(in.y)};
  kl::GuardedBuffer<float> out(in.x.size());
  out.poison();
  v.launch({x.data(), y.data(), out.data(), in.a, shape});
  KL_CUDA_CHECK(cudaDeviceSynchronize());
  kl::CaseResult r = compare(out.download(), oracle(v.op, shape, in));
  r.guards = out.inspect();
  return r;
}

// ---- the family object: how `starter-lab run` and `bench` drive the variants

namespace {

// The work model, for run and bench alike: SAXPY reads x and y and writes z, the transpose reads
// in and writes out; neither does more than one operation per element.
double bytes_moved(Op op, const Shape& s) {
  return (op == Op::saxpy ? 12.0 : 8.0) * static_cast<double>(s.rows) * static_cast<double>(s.cols);
}

int run(const kl::VariantInfo& info, const kl::cli::ParsedArgs& a, std::ostream& out) {
  using kl::cli::wide_range;
  const Variant& v = variant(info.name);
  const Shape shape{a.integer("rows", 4096, -wide_range, wide_range), a.integer("cols", 4096, -wide_range, wide_range),
                    a.dim2("block", {16, 16})};
  kl::cli::require_supported(info, v.unsupported(shape));
  const std::uint64_t seed = kl::cli::seed_flag(a);
  const int reps = kl::cli::reps_flag(a);
  kl::require_gpu();
  out << info.id() << ": rows=" << shape.rows << " cols=" << shape.cols << " block=" << shape.block.x << "x"
      << shape.block.y << " seed=" << seed << "\n";
  const Inputs in = make_inputs(shape, seed);
  const kl::CaseResult r = run_case(v, shape, in);
  kl::cli::print_check(out, r);
  if (!r.ok()) return 1;
  kl::DeviceBuffer<float> x{std::span<const float>(in.x)}, y{std::span<const float>(in.y)}, z(in.x.size());
  const kl::TimingSummary t = kl::time_device_work(
      [&](cudaStream_t s) { v.launch({x.data(), y.data(), z.data(), in.a, shape}, s); }, 3, reps);
  kl::cli::print_timing(out, t, bytes_moved(v.op, shape));
  return 0;
}

// The bench: 8192 x 8192 floats (256 MiB an array, five times the H100's L2), GB/s of bytes read
// plus written against the device-to-device copy measured in the same process.
constexpr Shape bench_shape{8192, 8192, {32, 8}};

struct BenchInputs {
  bool ready = false;
  Inputs host;
  std::vector<float> want_saxpy, want_transpose;
  kl::DeviceBuffer<float> x, y, out;

  void build() {
    if (ready) return;
    host = make_inputs(bench_shape, 1);
    want_saxpy = oracle(Op::saxpy, bench_shape, host);
    want_transpose = oracle(Op::transpose, bench_shape, host);
    x = kl::DeviceBuffer<float>(std::span<const float>(host.x));
    y = kl::DeviceBuffer<float>(std::span<const float>(host.y));
    out = kl::DeviceBuffer<float>(host.x.size());
    ready = true;
  }
};

std::vector<kl::cli::BenchCase> bench_cases() { return kl::cli::cases_of<Variant>("starter", variants()); }

kl::bench::Result bench_measure(const kl::cli::BenchCase& c, kl::cli::Bench& ctx) {
  const Variant& v = variant(c.variant);
  BenchInputs& in = ctx.state<BenchInputs>("starter");
  in.build();
  const Args args{in.x.data(), in.y.data(), in.out.data(), in.host.a, bench_shape};
  const std::vector<float>& want = v.op == Op::saxpy ? in.want_saxpy : in.want_transpose;
  const kl::TimingSummary t = ctx.validated_timing(
      c, [&](cudaStream_t s) { kl::cli::poison_words(in.out.data(), in.out.size(), s); },
      [&](cudaStream_t s) { v.launch(args, s); }, [&] { return compare(in.out.download(), want); },
      kl::cli::output_bytes(in.out));
  const double bytes = bytes_moved(v.op, bench_shape);
  const double ops = v.op == Op::saxpy ? 2.0 : 0.0;  // one FMA (2 flops) an element; the transpose moves only
  kl::bench::Result r = kl::cli::throughput_result(c, "8192 x 8192 block=32x8", t, bytes, "GB/s",
                                                   kl::bench::Roof::dram_bandwidth,
                                                   ops * static_cast<double>(bench_shape.rows * bench_shape.cols) / bytes);
  r.ceiling = "d2d_copy";
  r.ceiling_value = ctx.d2d_copy_gbps();
  return r;
}

}  // namespace

}  // namespace starter

namespace kl {

const Family& family_starter() {
  static const Family family = [] {
    Family f;
    f.name = "starter";
    f.variants = variants_of(starter::variants());
    f.run_flags = {{"rows", "R", "rows of the input matrix (default 4096)"},
                   {"cols", "C", "columns of the input matrix (default 4096)"},
                   {"block", "BXxBY", "threads per block, x along a row (default 16x16)"},
                   cli::seed_flag_spec(),
                   cli::reps_flag_spec()};
    f.run = starter::run;
    f.bench_cases = starter::bench_cases;
    f.bench_measure = starter::bench_measure;
    return f;
  }();
  return family;
}

}  // namespace kl
