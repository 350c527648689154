// The matmul family (FP32, cuBLAS reference) as the harness sees it (family.hpp), with its own
// command, `kernel-lab tune` (tune_command.cpp). imatmul shares the folder: family_imatmul.cpp.
// run: --m M --n N --k K [--bias 1] [--reference 0]: check against the oracle, then time, and time
// cuBLAS SGEMM on the same shape in the same process for the ratio (not with --reference 0).
// Staged inputs (uncoalesced's B transposed, GemmEx's FP16 copies) are written once, before the
// timing.
// bench: matmul in TFLOPS at 4096^3 against cuBLAS SGEMM measured here, and the SGEMM ladder
// over a sweep of shapes against cuBLAS on each; GemmEx FP16 against the tensor-core roof, the
// tensor-core ladder at 4096^3 and 8192^3 against GemmEx on each, and its top rungs over six
// more shapes (tensor_core_sweep_shapes) against GemmEx on each.
// The bench's inputs are
// generated on the GPU (fill_device_inputs) and every element of C is checked there against the
// FP64 device oracle (kl/matmul_oracle.hpp), computed once per shape and precision; nothing is
// downloaded unless a check fails. Every timed run's C is compared with the last one that passed,
// byte for byte, and checked again whenever it differs (Bench::validated_timing).
#include "family.hpp"
#include "bench_context.hpp"
#include "bench_timing.hpp"
#include "run_support.hpp"

#include "kl/device_facts.hpp"
#include "kl/matmul.hpp"
#include "kl/matmul_ladders.hpp"

#include <iomanip>
#include <ostream>
#include <stdexcept>

namespace kl::cli {
namespace {

// The work model: 2mnk FLOPs; A and B read once (FP16 for GemmEx), C written once. (The bias row
// of tiled_bounds adds n reads and adds, left out like the seeds leave it out.)
Work work_of(const matmul::Shape& s, matmul::InputPrecision p) {
  const double m = static_cast<double>(s.m), n = static_cast<double>(s.n), k = static_cast<double>(s.k);
  const double input_bytes = p == matmul::InputPrecision::fp16 ? 2.0 : 4.0;
  return {(m * k + k * n) * input_bytes + m * n * 4.0, 2.0 * m * n * k};
}

double tflops(const matmul::Variant& v, const matmul::Shape& s, const TimingSummary& t) {
  return work_of(s, v.precision).ops / (t.median_ms * 1e9);
}

TimingSummary time_matmul(const matmul::Variant& v, const matmul::Shape& shape, const matmul::Inputs& in, int reps) {
  DeviceBuffer<float> a{std::span<const float>(in.a)}, b{std::span<const float>(in.b)};
  DeviceBuffer<float> bias{std::span<const float>(in.bias)};
  DeviceBuffer<float> c(static_cast<std::size_t>(shape.m * shape.n));
  const matmul::Args args{a.data(), b.data(), bias.data(), c.data(), shape};
  v.stage_inputs(args);  // B transposed or A and B in FP16: setup, not the kernel's time
  return time_device_work([&](cudaStream_t s) { v.launch_kernel(args, s); }, 3, reps);
}

}  // namespace

int run_matmul(const VariantInfo& info, const ParsedArgs& a, std::ostream& out) {
  const matmul::Variant& v = matmul::variant(info.name);
  const matmul::Shape shape{a.integer("m", 4096, -wide_range, wide_range), a.integer("n", 4096, -wide_range, wide_range),
                            a.integer("k", 4096, -wide_range, wide_range), a.integer("bias", 0, 0, 1) == 1};
  require_supported(info, v.unsupported(shape));
  const std::uint64_t seed = seed_flag(a);
  const int reps = reps_flag(a);
  const bool time_reference = a.integer("reference", 1, 0, 1) == 1;
  require_gpu();
  out << info.id() << ": m=" << shape.m << " n=" << shape.n << " k=" << shape.k << (shape.bias ? " bias" : "")
      << " seed=" << seed << "\n";
  const matmul::Inputs in = matmul::make_inputs(shape, matmul::Data::random, seed);
  const CaseResult r = matmul::run_case(v, shape, in);
  out << "check: every element of C (" << r.checked << ") against the double oracle "
      << (matmul::host_oracle_takes(shape) ? "on the host" : "on the GPU") << "\n";
  print_check(out, r);
  if (!r.ok()) return 1;

  const TimingSummary t = time_matmul(v, shape, in, reps);
  print_timing(out, t, 0);
  out << std::fixed << std::setprecision(2) << "throughput: " << tflops(v, shape, t) << " TFLOPS";
  const matmul::Variant& ref = matmul::variants().front();
  matmul::Shape ref_shape = shape;
  ref_shape.bias = false;  // the reference multiplies only; the bias is n extra adds
  if (time_reference && ref.supports(ref_shape)) {
    const TimingSummary rt = time_matmul(ref, ref_shape, in, reps);
    out << ", " << ref.info.id() << " " << tflops(ref, ref_shape, rt) << " TFLOPS in this process, ratio "
        << std::setprecision(3) << rt.median_ms / t.median_ms;
  }
  out << "\n";
  out.unsetf(std::ios::floatfield);
  return 0;
}

}  // namespace kl::cli

namespace kl::cli {
namespace {

constexpr std::int64_t bench_n = 4096;  // the seeds' size; it fills every SM many times over
constexpr const char* gemmex_name = "cublas_gemmex_fp16";  // the tensor-core rungs' ceiling

std::string cube_text(std::int64_t n, const char* precision) {
  return "m=n=k=" + std::to_string(n) + " " + precision;
}

// ---- matmul

// The shape a case multiplies: 4096^3, or the swept shape its tag names.
matmul::Shape shape_of(const BenchCase& c) {
  if (c.sweep.empty()) return {bench_n, bench_n, bench_n, false};
  for (const auto* shapes : {&matmul::sgemm_sweep_shapes(), &matmul::tensor_core_sweep_shapes()})
    for (const matmul::SweepShape& s : *shapes)
      if (s.tag() == c.sweep) return {s.m, s.n, s.k, false};
  throw std::logic_error("matmul bench: unknown swept shape " + c.sweep);
}

std::string shape_text(const matmul::Shape& s, const char* precision) {
  if (s.m == s.n && s.n == s.k) return cube_text(s.m, precision);
  return "m=" + std::to_string(s.m) + " n=" + std::to_string(s.n) + " k=" + std::to_string(s.k) + " " + precision;
}

}  // namespace

// Every variant at 4096^3; then, for each swept shape, cuBLAS (that shape's ceiling) and every rung
// of the SGEMM ladder beyond the seeds (sgemm_ladder() after its base, the seeds' tiled_32). A
// swept case times 5 runs, not up to 20: these kernels repeat within 0.5%, and the swept cases
// must fit the gpu tier's five minutes (54 of them took 34 s of it at 10 runs; 70 since rung 28
// and the 512x512x8192 shape, the whole family 32 s at 5).
std::vector<BenchCase> matmul_bench_cases() {
  constexpr int swept_reps = 5;
  std::vector<BenchCase> cases = cases_of<matmul::Variant>("matmul", matmul::variants());
  const std::vector<matmul::LadderRung>& ladder = matmul::sgemm_ladder();
  for (const matmul::SweepShape& s : matmul::sgemm_sweep_shapes()) {
    cases.push_back({"matmul", matmul::variants().front().info.name, "", "", s.tag(), swept_reps});
    for (std::size_t i = 1; i < ladder.size(); ++i)
      cases.push_back({"matmul", ladder[i].variant, "", "", s.tag(), swept_reps});
  }
  // The tensor-core ladder at 8192^3 too, each rung against GemmEx on that shape.
  const std::string large = matmul::tensor_core_large_shape().tag();
  cases.push_back({"matmul", gemmex_name, "", "", large, swept_reps});
  for (const matmul::LadderRung& rung : matmul::tensor_core_ladder())
    cases.push_back({"matmul", rung.variant, "", "", large, swept_reps});
  // The rungs near GemmEx over six more shapes (issue "Past the vendor libraries"), each against
  // GemmEx on that shape.
  for (const matmul::SweepShape& s : matmul::tensor_core_sweep_shapes()) {
    cases.push_back({"matmul", gemmex_name, "", "", s.tag(), swept_reps});
    for (const std::string& rung : matmul::tensor_core_swept_rungs())
      cases.push_back({"matmul", rung, "", "", s.tag(), swept_reps});
  }
  return cases;
}

bench::Result matmul_bench_measure(const BenchCase& c, Bench& ctx) {
  const matmul::Variant& v = matmul::variant(c.variant);
  const matmul::Shape shape = shape_of(c);
  MatmulInputs& in = ctx.state<MatmulInputs>(c.sweep.empty() ? "matmul" : "matmul." + c.sweep);
  in.build(shape);
  const TimingSummary t = time_as_benched(c, v, in, ctx);
  const bool tensor = v.precision == matmul::InputPrecision::fp16;

  const Work w = work_of(shape, v.precision);
  bench::Result r = throughput_result(c, shape_text(shape, tensor ? "fp16 in, fp32 out" : "fp32"), t, w.ops,
                                      "TFLOPS", tensor ? bench::Roof::fp16_tensor : bench::Roof::fp32, w.intensity());
  // One library ceiling per precision and shape: cuBLAS SGEMM for FP32 variants ("cublas_sgemm",
  // "cublas_sgemm_m1024_n1024_k1024"), cuBLAS GemmEx for the tensor-core rungs
  // ("cublas_gemmex_fp16", "cublas_gemmex_fp16_m8192_n8192_k8192"). The libraries themselves are
  // read against the roof.
  const std::string library = tensor ? std::string(gemmex_name) : matmul::variants().front().info.name;
  const std::string ceiling = library + (c.sweep.empty() ? "" : "_" + c.sweep);
  const std::string how = (tensor ? "cuBLAS GemmEx " + shape_text(shape, "FP16 in, FP32 out")
                                  : "cuBLAS SGEMM " + shape_text(shape, "FP32 (no TF32)")) +
                          ", median of the bench's timing";
  if (ctx.read_against_reference(r, {"matmul", library, "", "", c.sweep, c.max_reps}, ceiling, how,
                                 matmul_bench_measure))
    use_roof_as_ceiling(r, ctx.roofline());
  return r;
}

}  // namespace kl::cli

namespace kl {

namespace cli {
int cmd_tune(const ParsedArgs& args, std::ostream& out);  // tune_command.cpp
}

const Family& family_matmul() {
  static const Family family = [] {
    Family f;
    f.name = "matmul";
    f.variants = variants_of(matmul::variants());
    f.run_flags = {{"m", "M", "rows of A and C (default 4096)"},
                   {"n", "N", "columns of B and C (default 4096)"},
                   {"k", "K", "columns of A, rows of B (default 4096)"},
                   {"bias", "0|1", "1 adds seed 001's bias row to C (tiled_bounds)"},
                   {"reference", "0|1", "1 (default) also times cuBLAS SGEMM, for the ratio; 0 does not"},
                   cli::seed_flag_spec(),
                   cli::reps_flag_spec()};
    f.run = cli::run_matmul;
    f.bench_cases = cli::matmul_bench_cases;
    f.bench_measure = cli::matmul_bench_measure;
    f.commands = {{{"tune",
                    {{"m", "M", "rows of C timed (default 4096)"},
                     {"n", "N", "columns of C timed (default 4096)"},
                     {"k", "K", "depth timed (default 4096)"},
                     {"reps", "N", "timed runs per candidate (default: the bench's, about 200 ms of runs, 3 to 20)"},
                     {"write", "FILE",
                      "set the tuning file's line for this GPU and the timed shape's class to the winner"}},
                    1, false, "matmul.tuned",
                    "check every candidate configuration of the tuned SGEMM rung (bit-exact on a padded shape),\n"
                    "time it as the bench times a case, next to cuBLAS SGEMM, print the table and the winner\n",
                    cli::Needs::gpu},
                   cli::cmd_tune}};
    return f;
  }();
  return family;
}

}  // namespace kl
