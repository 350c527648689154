// `kernel-lab tune matmul.tuned [--m M --n N --k K] [--reps N] [--write FILE]`: every candidate
// configuration of the tuned SGEMM rung must first multiply a shape that needs the padded path
// (small integers, bit-exact), then is timed at M x N x K next to cuBLAS SGEMM in this process,
// each as the bench times a case (bench_timing.hpp: L2 flushed, every run's C checked against the
// FP64 oracle), after an idle pause, so every candidate starts on the same power budget. The
// fastest correct one wins; --write sets the tuning file's line for this GPU and the shape's class
// (sgemm_tuning.hpp) to it.
#include "bench_timing.hpp"
#include "cli.hpp"
#include "run_support.hpp"

#include "kl/device_facts.hpp"
#include "kl/matmul.hpp"
#include "kl/matmul_ladders.hpp"
#include "kl/sgemm_tuning.hpp"

#include "core/input_file.hpp"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace kl::cli {
namespace {

constexpr const char* tunable = "matmul.tuned";

// An odd shape: every dimension off the tiles, so the zero-padded staging runs too.
const matmul::Shape odd_shape{257, 263, 129};

struct Timed {
  std::string config;
  bool correct = false;
  std::string why;
  double ms = 0;
};

double tflops(const matmul::Shape& s, double ms) {
  return 2.0 * static_cast<double>(s.m) * static_cast<double>(s.n) * static_cast<double>(s.k) / (ms * 1e9);
}

// --write's tuning file: a regular file the build would read (checked before minutes of timing).
std::string read_tuning_file(const std::string& path) {
  std::string text = bench::read_input_file<std::invalid_argument>(path, "--write's tuning file", 1 << 20);
  try {
    matmul::tuning::parse(text, matmul::tuned_config_names());
  } catch (const std::exception& e) {
    throw std::invalid_argument("--write: " + path + ": " + e.what());
  }
  return text;
}

}  // namespace

int cmd_tune(const ParsedArgs& a, std::ostream& out) {
  if (a.positionals.empty() || a.positionals[0] != tunable)
    throw UsageError(std::string("'tune' takes the variant to tune; only ") + tunable + " has candidates");
  const matmul::Shape shape{a.integer("m", 4096, 1, wide_range), a.integer("n", 4096, 1, wide_range),
                            a.integer("k", 4096, 1, wide_range)};
  const matmul::Variant& tuned = matmul::variant("tuned");
  require_supported(tuned.info, tuned.unsupported(shape));
  bench::RepetitionPolicy policy;  // the bench's: about 200 ms of timed runs, 3 to 20, unless --reps
  if (a.has("reps")) policy.fixed = reps_flag(a);
  const std::string tuning_path = a.text("write", "");
  const std::string tuning_text = a.has("write") ? read_tuning_file(tuning_path) : "";
  require_gpu();

  const matmul::Inputs odd_in = matmul::make_inputs(odd_shape, matmul::Data::small_integers, 1);
  std::ostringstream validation_log;  // the bench's per-case validation lines: not tune's table
  Bench ctx(policy, validation_log);
  MatmulInputs in;
  in.build(shape);
  const std::string shape_tag = matmul::SweepShape{shape.m, shape.n, shape.k}.tag();  // names the cases in errors
  // time_as_benched starts each after an idle pause: candidates timed back to back inherit the
  // power their predecessors spent (on the H100 at 8192^3 that reordered them against the bench's
  // reading).
  const auto time = [&](const matmul::Variant& v, const std::string& label) {
    return time_as_benched({"matmul", label, "", "", shape_tag, 0}, v, in, ctx).median_ms;
  };

  std::vector<Timed> results;
  for (const std::string& config : matmul::tuned_config_names()) {
    const matmul::TunedConfigForced forced(config);  // the file's choice again after, also on a throw
    Timed t;
    t.config = config;
    const CaseResult r = matmul::run_case(tuned, odd_shape, odd_in);
    t.correct = r.ok();
    if (!t.correct) t.why = r.describe();
    if (t.correct) {
      try {
        t.ms = time(tuned, "tuned[" + config + "]");
      } catch (const std::runtime_error& e) {  // a wrong C at the timed shape: the bench's check failed
        t.correct = false;
        t.why = e.what();
      }
    }
    results.push_back(t);
  }
  const matmul::Variant& cublas = matmul::variants().front();
  const double cublas_ms = time(cublas, cublas.info.name);

  const std::string gpu = device_facts().name;
  out << "# kernel-lab tune " << tunable << " on " << gpu << ": m=" << shape.m << " n=" << shape.n
      << " k=" << shape.k << ", cublas_sgemm " << std::fixed << std::setprecision(1)
      << tflops(shape, cublas_ms) << " TFLOPS in this process\n\n"
      << "| config | TFLOPS | ratio to cuBLAS | median ms | check |\n| --- | --- | --- | --- | --- |\n";
  const Timed* best = nullptr;
  for (const Timed& t : results) {
    if (t.correct && (!best || t.ms < best->ms)) best = &t;
    out << "| " << t.config << " | ";
    if (t.correct)
      out << std::setprecision(1) << tflops(shape, t.ms) << " | " << std::setprecision(3) << cublas_ms / t.ms << " | "
          << t.ms << " | bit-exact on " << odd_shape.m << "x" << odd_shape.n << "x" << odd_shape.k
          << "; every element of every timed run within the bound |\n";
    else
      out << "- | - | - | FAILED: " << t.why << " |\n";
  }
  out.unsetf(std::ios::floatfield);
  if (!best) {
    out << "\nno candidate passed its check\n";
    return 1;
  }
  // The winner is for this GPU and this shape's class (sgemm_tuning.hpp): a line of its own for
  // small or large shapes, the GPU's line for every shape otherwise.
  const matmul::tuning::ShapeClass shape_class = matmul::tuning::shape_class_of(shape.m, shape.n);
  const std::string key = matmul::tuning::line_key(gpu, shape_class);
  out << "\nwinner on " << key << ": " << best->config << " (in use now: " << matmul::tuned_config_in_use(shape)
      << ")\n";
  if (a.has("write")) {
    const std::string text = matmul::tuning::with_choice(tuning_text, gpu, shape_class, best->config);
    matmul::tuning::parse(text, matmul::tuned_config_names());  // never write a file the build would reject
    std::ofstream file(tuning_path);
    if (!(file << text) || !file.flush()) throw std::runtime_error("--write: cannot write " + tuning_path);
    out << "wrote '" << matmul::tuning::line_text(gpu, shape_class, best->config) << "' to " << tuning_path
        << " (rebuild to ship it)\n";
  }
  return std::any_of(results.begin(), results.end(), [](const Timed& t) { return !t.correct; }) ? 1 : 0;
}

}  // namespace kl::cli
