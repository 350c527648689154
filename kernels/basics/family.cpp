// The basics family as the harness sees it: declared with the kit (kit.hpp) over the family's own
// table (registry.cpp), as parts joined under one name, since its kernels take several shapes:
//   - the 1-D kernels: --n N --block B. fill_arr, fill_vectorized and the CPU reference write
//     arr[i] = 2i; sh_mem_ex doubles an int input; vector_dot_product takes two float3 inputs
//     (within dot3_bound of the exact dot product); the access kernels write n values, coalesced
//     to arr[i], non_coalesced to arr[2i] of an output of 2n whose odd elements must keep the
//     poison (the oracle marks them untouched);
//   - hello and atomic_counter: --n threads in all, whole blocks of --block (the seeds' BLOCKS x
//     THREADS); hello's output is its printf lines (checked in a child process, tests/basics), so
//     `run` does not time it; the counter's one int must read n;
//   - matr, matr_seed_launch and sum_matr: --rows R --cols C --block BXxBY; sum_matr adds Y into
//     X in place (the output starts as X; int inputs are never 0, so a skipped element shows).
// Every variant keeps the table's launcher and rule; the oracle is the table's (expected_at).
// bench: GB/s of bytes read plus written over 2^26 values (8192 x 8192 for the matrices) against
// the device-to-device copy; fill_vectorized against cudaMemset of the same bytes, the write it
// competes with. hello (printf) and the counter (one contended address) are not benched.
// `bench --sweep` times every benched kernel at 2^12 .. 2^30 values, each against its ceiling at
// that size (cudaMemset for the kernels that only write, else a copy of the bytes).
#include "kit.hpp"

#include "kl/basics.hpp"

#include <array>
#include <climits>
#include <cmath>
#include <span>
#include <type_traits>

namespace kl::basics {
namespace {

using kit::Matrix;
using kit::Vector;

// The seeds' Shape of a kit shape, for kernel k (whose rule has already passed the kit's).
Shape shape_of(Kernel k, const Vector& v) {
  Shape s;
  s.block = {v.block, 1};
  if (k == Kernel::hello || k == Kernel::counter) {
    s.cols = static_cast<int>(v.n / v.block);  // blocks
    return s;
  }
  s.cols = static_cast<int>(k == Kernel::non_coalesced ? 2 * v.n : v.n);
  s.threads = v.n;  // the access kernels: one value a thread
  return s;
}
Shape shape_of(Kernel, const Matrix& m) { return {static_cast<int>(m.rows), static_cast<int>(m.cols), m.block, 0}; }

// The seeds' kernels index with int; hello's and the counter's grid is whole blocks.
std::string int_rule(Kernel k, const Vector& v) {
  if (v.n > INT_MAX) return "n must be at most 2^31-1 (the seeds' kernels index with int), got " + std::to_string(v.n);
  if ((k == Kernel::hello || k == Kernel::counter) && v.n % v.block != 0)
    return "n must be whole blocks (n = blocks x threads), got n " + std::to_string(v.n) + " for block " +
           std::to_string(v.block);
  return "";
}
std::string int_rule(Kernel, const Matrix& m) {
  if (m.rows > INT_MAX || m.cols > INT_MAX) return "rows and cols must fit an int (the seeds' Shape)";
  return "";
}

// The kit's inputs as the table's oracle reads them: sum_matr X, Y; sh_mem_ex x; dot3 a3, b3.
template <class S, class Out>
InputView view_of(Kernel k, const std::array<std::span<const Out>, kit::max_inputs>& in) {
  InputView view;
  if constexpr (std::is_same_v<Out, int>) {
    view.x = in[0];
    if (k == Kernel::sum_matr) view.y = in[1];
  } else {
    view.a3 = in[0];
    view.b3 = in[1];
  }
  return view;
}

// The table's oracle, element by element; what it marks NaN the kernel must leave untouched.
template <Kernel K, class S, class Out>
void oracle(const kit::HostCall<S, Out>& h) {
  const Shape shape = shape_of(K, h.shape);
  const InputView view = view_of<S, Out>(K, h.in);
  for (std::size_t i = 0; i < h.out.size(); ++i) {
    const double want = expected_at(K, shape, view, i);
    h.out[i] = std::isnan(want) ? kit::untouched<Out>() : static_cast<Out>(want);
  }
}

// Table variant `name` as the kit declares it: kernel K, its work per value.
template <Kernel K, class S, class Out>
kit::KernelVariant<S, Out> declared(std::string_view name, kit::PerElement work) {
  const Variant& v = variant(name);
  kit::KernelVariant<S, Out> k;
  k.name = v.info.name;
  k.lesson = v.info.lesson;
  k.oracle = oracle<K, S, Out>;
  k.work = work;
  k.role = v.info.role;
  k.findings = v.info.findings;
  k.launch = [&v](const kit::Call<S, Out>& c, cudaStream_t stream) {
    // sum_matr updates X (the output, started from input 0) by Y; the others read input 0 and 1.
    const void* a = K == Kernel::sum_matr ? c.in[1] : c.in[0];
    v.launch({a, c.in[1], c.out, shape_of(K, c.shape)}, stream);
  };
  k.rule = [&v](const S& s) {
    const std::string rule = int_rule(K, s);
    return rule.empty() ? v.unsupported(shape_of(K, s)) : rule;
  };
  k.seed = v.info.seed_file;
  k.seed_kernel = v.info.seed_kernel;
  return k;
}

constexpr std::int64_t bench_n = std::int64_t{1} << 26;
const Vector bench_vector{bench_n, 256};
const Matrix bench_matrix{8192, 8192, {16, 16}};
constexpr kit::PerElement write_int{4, 1};  // idx * 2 written: a 4-byte store, one multiply

// Shapes whole blocks tile, for the kernels without a bounds guard (and hello, the counter).
const std::vector<Vector> whole_blocks = {{0, 256}, {1, 1}, {32, 32}, {96, 96}, {1024, 1}, {4096, 1024}, {6144, 96}};

kit::FamilySpec<Vector, int> fills() {
  kit::FamilySpec<Vector, int> s{.name = "basics", .inputs = 0, .bench_shape = bench_vector, .sweep = true};
  s.variants = {declared<Kernel::fill_arr, Vector, int>("cpu_oracle", write_int),
                declared<Kernel::fill_arr, Vector, int>("fill_arr", write_int),
                declared<Kernel::fill_arr, Vector, int>("fill_vectorized", write_int)};
  s.variants[2].memset_ceiling = true;
  s.write_only = true;
  return s;
}

kit::FamilySpec<Vector, float> coalesced() {
  kit::FamilySpec<Vector, float> s{.name = "basics", .inputs = 0, .bench_shape = bench_vector, .sweep = true};
  s.variants = {declared<Kernel::coalesced, Vector, float>("coalesced", write_int)};
  s.write_only = true;
  s.unit_shapes = whole_blocks;
  return s;
}

kit::FamilySpec<Vector, int> strided() {
  kit::FamilySpec<Vector, int> s{.name = "basics", .inputs = 0, .bench_shape = bench_vector, .sweep = true};
  s.variants = {declared<Kernel::non_coalesced, Vector, int>("non_coalesced", write_int)};
  s.outputs = [](const Vector& v) { return 2 * v.n; };  // n values spread over 2n ints
  s.write_only = true;
  s.unit_shapes = whole_blocks;
  s.refused_shapes = {{{-1, 256}, "n must be >= 0"},
                      {{100, 0}, "block size must be in 1..1024"},
                      {{std::int64_t{1} << 29 | 256, 256}, "the output must be at most 2^30 elements"}};
  return s;
}

kit::FamilySpec<Vector, int> shared() {
  kit::FamilySpec<Vector, int> s{.name = "basics", .inputs = 1, .bench_shape = bench_vector, .sweep = true};
  s.variants = {declared<Kernel::sh_mem_ex, Vector, int>("sh_mem_ex", {8, 1})};  // in read, out written
  s.input_range = {-100000, 100000};
  s.unit_shapes = {{0, 256}, {1, 256}, {31, 32}, {33, 32}, {1000, 1}, {4099, 256}, {65537, 96}, {200003, 256}};
  return s;
}

kit::FamilySpec<Vector, float> dot() {
  kit::FamilySpec<Vector, float> s{.name = "basics", .inputs = 2, .input_width = 3, .bench_shape = bench_vector,
                                   .sweep = true};
  // two float3 read, a float written; 3 multiplies and 2 adds
  s.variants = {declared<Kernel::dot3, Vector, float>("vector_dot_product", {28, 5})};
  s.check = [](const Vector& v, const kit::Data<float>& d, std::span<const float> got) {
    return compare_floats(Kernel::dot3, shape_of(Kernel::dot3, v), InputView{{}, {}, d.in[0], d.in[1]}, got);
  };
  return s;
}

kit::FamilySpec<Vector, int> hello() {
  kit::FamilySpec<Vector, int> s{.name = "basics", .inputs = 0, .bench_shape = {8, 4}};
  s.variants = {declared<Kernel::hello, Vector, int>("hello", {})};
  s.variants[0].timed = false;
  s.variants[0].not_benched = "prints one line per thread with printf: nothing to time";
  s.outputs = [](const Vector&) { return std::int64_t{0}; };  // its output is stdout
  s.shape_flags = {{"n", "N", "hello: lines printed, blocks x threads"}, {"block", "B", "hello: threads per block"}};
  s.run_shape = Vector{8, 4};  // the seed's BLOCKS = 2, THREADS = 4
  s.unit_shapes = {{8, 4}, {1, 1}, {64, 32}};
  s.refused_shapes = {{{6, 4}, "n must be whole blocks"}, {{8192, 1024}, "blocks * threads <= 4096"}};
  return s;
}

kit::FamilySpec<Vector, int> counter() {
  kit::FamilySpec<Vector, int> s{.name = "basics", .inputs = 0, .bench_shape = {1 << 20, 1024}};
  s.variants = {declared<Kernel::counter, Vector, int>("atomic_counter", {0, 1})};
  s.variants[0].not_benched = "adds to one address: its time measures atomic serialisation, not bandwidth "
                              "(`kernel-lab run basics.atomic_counter` prints atomicAdd/s)";
  s.outputs = [](const Vector&) { return std::int64_t{1}; };
  s.counted = "atomicAdd";
  s.shape_flags = {{"n", "N", "atomic_counter: adds, blocks x threads"},
                   {"block", "B", "atomic_counter: threads per block"}};
  s.run_shape = Vector{1 << 20, 1024};  // a million contending adds
  s.unit_shapes = whole_blocks;
  s.unit_shapes.erase(s.unit_shapes.begin());  // no empty grid: blocks >= 1
  s.refused_shapes = {{{1000, 256}, "n must be whole blocks"}, {{0, 256}, "blocks must be >= 1"}};
  return s;
}

kit::FamilySpec<Matrix, int> matrices() {
  kit::FamilySpec<Matrix, int> s{.name = "basics", .inputs = 0, .bench_shape = bench_matrix, .sweep = true};
  s.variants = {declared<Kernel::matr, Matrix, int>("matr_seed_launch", {4, 0}),
                declared<Kernel::matr, Matrix, int>("matr", {4, 0})};  // an index written, no arithmetic
  s.write_only = true;
  s.run_shape = Matrix{1024, 1024, {16, 16}};
  return s;
}

kit::FamilySpec<Matrix, int> sum() {
  kit::FamilySpec<Matrix, int> s{.name = "basics", .inputs = 2, .bench_shape = bench_matrix, .sweep = true};
  s.variants = {declared<Kernel::sum_matr, Matrix, int>("sum_matr", {12, 1})};  // X and Y read, X written
  s.input_range = {-100000, 100000};
  s.output_from_input = 0;  // X += Y
  s.run_shape = Matrix{1024, 1024, {16, 16}};
  return s;
}

kit::Joined joined() {
  kit::Joined j{"basics", {&kit::part(fills()), &kit::part(hello()), &kit::part(matrices()), &kit::part(sum()),
                           &kit::part(coalesced()), &kit::part(strided()), &kit::part(shared()), &kit::part(dot()),
                           &kit::part(counter())}};
  for (const Variant& v : variants()) j.order.push_back(v.info.name);
  return j;
}

}  // namespace
}  // namespace kl::basics

KL_KIT_FAMILY(basics, basics::joined())
