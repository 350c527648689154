// The kit's implementation (kit.hpp), in templates over the shape kind and the output type: from a
// FamilySpec to the Family the harness drives, the checked case the derived tests run, `run` and
// `bench` (with its size sweep). Internal to the harness: included by kit.cpp (the registry of
// built families, the flags) and by kit_float.cpp, kit_double.cpp and kit_int.cpp, each of which
// instantiates it for one output type. Plain C++: kernels are launched through cudaLaunchKernel
// with the pointer the spec holds, or by the variant's own launcher, so no nvcc is needed.
#pragma once

#include "kit.hpp"

#include "bench_context.hpp"
#include "run_support.hpp"

#include "core/result.hpp"
#include "core/size_sweep.hpp"

#include "kl/device_buffer.hpp"
#include "kl/device_facts.hpp"
#include "kl/guarded_buffer.hpp"
#include "kl/host_parallel.hpp"
#include "kl/perturb.hpp"
#include "kl/timing.hpp"

#include <climits>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <ostream>
#include <random>
#include <set>
#include <stdexcept>
#include <tuple>
#include <type_traits>

namespace kl::kit::detail {

using cli::wide_range;

// 4 GiB a float array: the host holds the inputs, the oracle's output and a download.
inline constexpr std::int64_t max_elements = std::int64_t{1} << 30;

inline std::string text(std::int64_t v) { return std::to_string(v); }

// ---- what each shape kind knows: its flags, rules, launch geometry and test shapes

template <class S>
struct Kind;

template <>
struct Kind<Vector> {
  static constexpr const char* name = "vector";
  static std::int64_t elements(const Vector& s) { return s.n; }
  // The kind's own limits; the kit adds the host's (2^30 elements an array: rule_of below).
  static std::string rule(const Vector& s) {
    if (s.n < 0) return "n must be >= 0, got " + text(s.n);
    if (std::string r = block_1d_violation(s.block); !r.empty()) return r;
    if (ceil_div(s.n, s.block) > max_grid_x)
      return "n / block must fit gridDim.x (at most 2^31-1 blocks), got " + text(ceil_div(s.n, s.block));
    return "";
  }
  static std::string too_large(const Vector& s) { return "n must be at most 2^30 elements, got " + text(s.n); }
  static dim3 grid(const Vector& s) { return dim3(static_cast<unsigned>(ceil_div(s.n, s.block))); }
  static dim3 block(const Vector& s) { return dim3(static_cast<unsigned>(s.block)); }
  static std::vector<cli::FlagSpec> flags() { return {{"n", "N", "elements"}, {"block", "B", "threads per block"}}; }
  static Vector default_shape() { return {std::int64_t{1} << 20, 256}; }
  static std::vector<std::string> values(const Vector& s) { return {bench::size_text(s.n), text(s.block)}; }
  static Vector parse(const cli::ParsedArgs& a, const std::vector<cli::FlagSpec>& f, const Vector& d) {
    return {a.integer(f[0].name, d.n, -wide_range, wide_range),
            static_cast<int>(a.integer(f[1].name, d.block, -wide_range, wide_range))};
  }
  static std::vector<std::string> flags_of(const Vector& s, const std::vector<cli::FlagSpec>& f) {
    return {"--" + f[0].name, text(s.n), "--" + f[1].name, text(s.block)};
  }
  static std::string describe(const Vector& s) { return "n=" + bench::size_text(s.n) + " block=" + text(s.block); }
  // A swept size: n elements with the bench shape's block.
  static Vector at_size(const Vector& bench, std::int64_t n) { return {n, bench.block}; }
  // Empty, one element, warp edges, a block of one thread, full blocks, odd sizes over many blocks.
  static std::vector<Vector> unit_shapes() {
    return {{0, 256}, {1, 256}, {31, 32}, {33, 32}, {1000, 1}, {4099, 1024}, {65537, 96}, {200003, 256}};
  }
  static std::vector<std::pair<Vector, std::string>> refused() {
    return {{{-1, 256}, "n must be >= 0"},
            {{100, 0}, "block size must be in 1..1024"},
            {{100, 2048}, "block size must be in 1..1024"},
            {{max_elements + 1, 256}, "at most 2^30 elements"}};
  }
};

template <>
struct Kind<Matrix> {
  static constexpr const char* name = "matrix";
  static std::int64_t elements(const Matrix& s) { return s.rows * s.cols; }
  static std::string rule(const Matrix& s) {
    if (s.rows < 0 || s.cols < 0) return "rows and cols must be >= 0, got " + text(s.rows) + " x " + text(s.cols);
    if (std::string r = block_2d_violation(s.block); !r.empty()) return r;
    if (s.cols != 0 && s.rows > max_elements / s.cols)
      return "rows x cols must be at most 2^30 elements, got " + text(s.rows) + " x " + text(s.cols);
    if (ceil_div(s.rows, s.block.y) > max_grid_yz)
      return "rows / block.y must fit gridDim.y (at most 65535 blocks), got " + text(ceil_div(s.rows, s.block.y));
    return "";
  }
  static std::string too_large(const Matrix&) { return ""; }  // rule() has the limit: rows x cols overflows first
  static dim3 grid(const Matrix& s) {
    return dim3(static_cast<unsigned>(ceil_div(s.cols, s.block.x)), static_cast<unsigned>(ceil_div(s.rows, s.block.y)));
  }
  static dim3 block(const Matrix& s) { return dim3(static_cast<unsigned>(s.block.x), static_cast<unsigned>(s.block.y)); }
  static std::vector<cli::FlagSpec> flags() {
    return {{"rows", "R", "rows of the matrix"},
            {"cols", "C", "columns of the matrix"},
            {"block", "BXxBY", "threads per block, x along a row"}};
  }
  static Matrix default_shape() { return {4096, 4096, {16, 16}}; }
  static std::vector<std::string> values(const Matrix& s) {
    return {text(s.rows), text(s.cols), text(s.block.x) + "x" + text(s.block.y)};
  }
  static Matrix parse(const cli::ParsedArgs& a, const std::vector<cli::FlagSpec>& f, const Matrix& d) {
    return {a.integer(f[0].name, d.rows, -wide_range, wide_range), a.integer(f[1].name, d.cols, -wide_range, wide_range),
            a.dim2(f[2].name, d.block)};
  }
  static std::vector<std::string> flags_of(const Matrix& s, const std::vector<cli::FlagSpec>& f) {
    const std::vector<std::string> v = values(s);
    return {"--" + f[0].name, v[0], "--" + f[1].name, v[1], "--" + f[2].name, v[2]};
  }
  static std::string describe(const Matrix& s) {
    return text(s.rows) + " x " + text(s.cols) + " block=" + text(s.block.x) + "x" + text(s.block.y);
  }
  // A swept size: a square of n elements (n is a power of 4) with the bench shape's block.
  static Matrix at_size(const Matrix& bench, std::int64_t n) {
    const auto side = static_cast<std::int64_t>(std::llround(std::sqrt(static_cast<double>(n))));
    return {side, side, bench.block};
  }
  // Empty, one element, columns overhanging the block, one thread a block, a row or a column
  // wider than any block, full blocks.
  static std::vector<Matrix> unit_shapes() {
    return {{0, 0, {16, 16}},  {1, 1, {16, 16}},    {100, 37, {16, 16}},  {33, 1025, {32, 8}},
            {7, 5, {1, 1}},    {1, 3000, {1024, 1}}, {3000, 1, {1, 1024}}, {64, 64, {32, 32}}};
  }
  static std::vector<std::pair<Matrix, std::string>> refused() {
    return {{{-1, 4, {16, 16}}, "rows and cols must be >= 0"},
            {{4, 4, {64, 32}}, "at most 1024 threads"},
            {{std::int64_t{1} << 16, std::int64_t{1} << 15, {16, 16}}, "at most 2^30 elements"},
            {{70000, 1, {1, 1}}, "gridDim.y"}};
  }
};

// `--name value` pairs, as a derived test gives a shape, into the parsed form `run` reads.
inline cli::ParsedArgs parse_flags(const std::vector<std::string>& flags) {
  cli::ParsedArgs a;
  for (std::size_t i = 0; i < flags.size(); i += 2) {
    if (flags[i].rfind("--", 0) != 0 || i + 1 >= flags.size())
      throw std::invalid_argument("shape flags must be --name value pairs, got '" + flags[i] + "'");
    a.values[flags[i].substr(2)] = flags[i + 1];
  }
  return a;
}

// A float's or double's bits as an unsigned integer in the floats' order: neighbours differ by 1.
template <class T>
auto ordered_bits(T f) {
  using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  U u;
  std::memcpy(&u, &f, sizeof u);
  constexpr U sign = U{1} << (8 * sizeof(U) - 1);
  return (u & sign) ? U(~u) : U(u | sign);
}

// Integers equal; floats equal bit for bit (ulps 0), or within `ulps` units in the last place
// (never across a NaN).
template <class T>
bool agrees(T got, T want, int ulps) {
  if constexpr (std::is_integral_v<T>) {
    return got == want;
  } else {
    if (std::memcmp(&got, &want, sizeof got) == 0) return true;
    if (ulps == 0 || std::isnan(got) || std::isnan(want)) return false;
    const auto g = ordered_bits(got), w = ordered_bits(want);
    return (g > w ? g - w : w - g) <= static_cast<decltype(g)>(ulps);
  }
}

// Every element, in host_parallel's chunks, merged in index order (compare_in_chunks). An element
// the oracle leaves untouched must hold the poison bit for bit; one it expects a value of and
// that holds the poison is also counted unwritten (the guard report's count, which then knows
// which elements the kernel had to write).
template <class T>
CaseResult compare(std::span<const T> got, std::span<const T> want, int ulps) {
  CaseResult r;
  r.checked = got.size();
  r.guards.unwritten = 0;
  r.guards.first_unwritten = GuardReport::none;
  compare_in_chunks(got.size(), r, [&](std::size_t i, CaseResult& part) {
    const bool spared = GuardedBuffer<T>::is_poison(want[i]);
    const bool unwritten = GuardedBuffer<T>::is_poison(got[i]);
    if (unwritten && !spared && part.guards.unwritten++ == 0) part.guards.first_unwritten = i;
    if (!(spared ? unwritten : agrees(got[i], want[i], ulps)))
      part.add_mismatch({i, static_cast<double>(got[i]), static_cast<double>(want[i]), static_cast<double>(ulps)});
  });
  return r;
}

template <class Out>
constexpr const char* out_name() {
  static_assert(std::is_same_v<Out, float> || std::is_same_v<Out, double> || std::is_same_v<Out, int>,
                "a kit family's output is float, double or int");
  if constexpr (std::is_same_v<Out, float>) return "float";
  else if constexpr (std::is_same_v<Out, double>) return "double";
  else return "int";
}

// The family names the kit has built, with their shape kind and output type: what
// run<S, Out>(id, ...) looks up.
struct Entry {
  std::string kind;
  const void* family;
};
std::map<std::string, Entry, std::less<>>& built();  // kit.cpp: one for the program
template <class S, class Out>
std::string kind_of() {
  return std::string(Kind<S>::name) + " of " + out_name<Out>();
}

template <class S, class Out>
class KitFamily {
 public:
  explicit KitFamily(FamilySpec<S, Out> spec) : spec_(std::move(spec)) {
    flags_ = Kind<S>::flags();
    if (!spec_.shape_flags.empty()) flags_ = spec_.shape_flags;
    run_shape_ = spec_.run_shape.value_or(Kind<S>::default_shape());
    validate();
    for (const KernelVariant<S, Out>& v : spec_.variants)
      infos_.push_back({spec_.name, v.name, v.seed, v.seed_kernel.empty() ? v.name : v.seed_kernel, v.lesson, v.role,
                        v.findings});
    build_family();
  }

  const Family& family() const { return family_; }

  const KernelVariant<S, Out>& variant(std::string_view name) const {
    for (const KernelVariant<S, Out>& v : spec_.variants)
      if (v.name == name) return v;
    std::string names;
    for (const KernelVariant<S, Out>& v : spec_.variants) names += (names.empty() ? "" : ", ") + v.name;
    throw std::invalid_argument("unknown variant '" + std::string(name) + "' (known: " + names + ")");
  }

  Data<Out> data(const S& shape, std::uint64_t seed) const {
    if (const std::string rule = shape_rule(shape); !rule.empty()) throw std::invalid_argument(spec_.name + ": " + rule);
    Data<Out> d;
    std::mt19937_64 scalar_rng(seed);
    if (spec_.scalar) {
      d.a = std::uniform_real_distribution<float>(-4.0f, 4.0f)(scalar_rng);
      if (d.a == 0.0f) d.a = 1.5f;
    }
    const std::size_t n = input_size(shape);
    for (int k = 0; k < spec_.inputs; ++k) {
      std::vector<Out>& array = d.in.emplace_back(n);
      const std::uint64_t array_seed = chunk_seed(seed, static_cast<std::size_t>(k) + 1);
      for_each_chunk(n, [&](std::size_t chunk, std::size_t begin, std::size_t end) {
        std::mt19937_64 rng(chunk_seed(array_seed, chunk));
        if constexpr (std::is_integral_v<Out>) {
          std::uniform_int_distribution<std::int64_t> value(int_lo(), int_hi());
          for (std::size_t i = begin; i < end; ++i) {
            const auto x = static_cast<Out>(value(rng));
            array[i] = x == 0 ? 1 : x;  // never 0 (InputRange)
          }
        } else {
          std::uniform_real_distribution<Out> value(static_cast<Out>(spec_.input_range.lo),
                                                    static_cast<Out>(spec_.input_range.hi));
          for (std::size_t i = begin; i < end; ++i) array[i] = value(rng);
        }
      });
    }
    return d;
  }

  Outcome<Out> run_case(const KernelVariant<S, Out>& v, const S& shape, const Data<Out>& data) const {
    if (const std::string rule = rule_of(v, shape); !rule.empty())
      throw std::invalid_argument(spec_.name + "." + v.name + ": " + rule);
    check_data(data, input_size(shape));
    const std::vector<DeviceBuffer<Out>> in = upload(data);
    GuardedBuffer<Out> out(outputs(shape));
    out.poison();  // the canaries too
    if (spec_.output_from_input >= 0) start_output(out.data(), out.size(), in, nullptr);
    launch(v, call(shape, data.a, in, out.data()), nullptr);
    KL_CUDA_CHECK(cudaDeviceSynchronize());
    Outcome<Out> o;
    o.out = out.download();
    o.result = check(v, shape, data, o.out);
    // The oracle's comparison knows which elements had to be written; a family's check does not.
    if (spec_.check) o.result.guards = out.inspect();
    else o.result.take_canaries(out.inspect());
    return o;
  }

 private:
  void validate() const {
    const std::string where = "kit family '" + spec_.name + "': ";
    if (!kl::bench::is_key_word(spec_.name))
      throw std::invalid_argument(where + "a family name is lower-case letters, digits and _");
    if (spec_.inputs < 0 || spec_.inputs > max_inputs)
      throw std::invalid_argument(where + "inputs must be 0.." + text(max_inputs) + ", got " + text(spec_.inputs));
    if (spec_.variants.empty()) throw std::invalid_argument(where + "no variants");
    if (!(spec_.input_range.lo < spec_.input_range.hi))
      throw std::invalid_argument(where + "input_range needs lo < hi");
    if (std::is_integral_v<Out> && spec_.inputs > 0 &&
        (int_lo() > int_hi() || (int_lo() == 0 && int_hi() == 0) || int_lo() < INT_MIN || int_hi() > INT_MAX))
      throw std::invalid_argument(where + "input_range must hold an int other than 0");
    if (spec_.input_width < 1 || spec_.input_width > 4)
      throw std::invalid_argument(where + "input_width must be 1..4, got " + text(spec_.input_width));
    if (spec_.output_from_input < -1 || spec_.output_from_input >= spec_.inputs)
      throw std::invalid_argument(where + "output_from_input must name an input (0.." + text(spec_.inputs - 1) +
                                  ") or be -1, got " + text(spec_.output_from_input));
    if (spec_.output_from_input >= 0 && (spec_.outputs || spec_.input_width != 1))
      throw std::invalid_argument(where + "output_from_input needs the output the input's size (no outputs, width 1)");
    if (flags_.size() != Kind<S>::flags().size())
      throw std::invalid_argument(where + "shape_flags: a " + Kind<S>::name + " takes " +
                                  text(static_cast<std::int64_t>(Kind<S>::flags().size())) + " flags");
    if (const std::string rule = shape_rule(spec_.bench_shape); !rule.empty())
      throw std::invalid_argument(where + "bench_shape: " + rule);
    if (const std::string rule = shape_rule(run_shape_); !rule.empty())
      throw std::invalid_argument(where + "run_shape: " + rule);
    std::set<std::string> names;
    for (const KernelVariant<S, Out>& v : spec_.variants) {
      if (!names.insert(v.name).second) throw std::invalid_argument(where + "variant '" + v.name + "' declared twice");
      if (!v.kernel == !v.launch)
        throw std::invalid_argument(where + v.name + " needs a kernel or a launcher (launch), not both");
      if (!v.oracle && !spec_.check) throw std::invalid_argument(where + v.name + " needs an oracle (or the family a check)");
      if ((v.role == Role::planted) == v.findings.empty())
        throw std::invalid_argument(where + v.name + ": a planted variant has findings, and only a planted one");
      if (!v.timed && v.not_benched.empty())
        throw std::invalid_argument(where + v.name + ": an untimed variant is not benched: say why (not_benched)");
    }
    if (!spec_.ceiling_variant.empty() && !names.count(spec_.ceiling_variant))
      throw std::invalid_argument(where + "ceiling_variant '" + spec_.ceiling_variant + "' is not a variant");
  }

  std::size_t outputs(const S& shape) const {
    return static_cast<std::size_t>(spec_.outputs ? spec_.outputs(shape) : Kind<S>::elements(shape));
  }

  // Values each input holds for a shape.
  std::size_t input_size(const S& shape) const {
    return static_cast<std::size_t>(std::max<std::int64_t>(Kind<S>::elements(shape), 0)) *
           static_cast<std::size_t>(spec_.input_width);
  }
  std::int64_t int_lo() const { return static_cast<std::int64_t>(std::ceil(spec_.input_range.lo)); }
  std::int64_t int_hi() const { return static_cast<std::int64_t>(std::floor(spec_.input_range.hi)); }

  // The inputs as exact-size device arrays: memcheck sees a read past an end.
  static std::vector<DeviceBuffer<Out>> upload(const Data<Out>& data) {
    std::vector<DeviceBuffer<Out>> in;
    for (const std::vector<Out>& array : data.in) in.emplace_back(std::span<const Out>(array));
    return in;
  }

  // The output before a run: the poison, or for an in-place kernel the input it updates.
  void start_output(Out* out, std::size_t n, const std::vector<DeviceBuffer<Out>>& in, cudaStream_t stream) const {
    if (spec_.output_from_input >= 0) {
      if (n != 0)
        KL_CUDA_CHECK(cudaMemcpyAsync(out, in[static_cast<std::size_t>(spec_.output_from_input)].data(), n * sizeof(Out),
                                      cudaMemcpyDeviceToDevice, stream));
      return;
    }
    kl::detail::fill_words(out, n, sizeof(Out), GuardPatterns<sizeof(Out)>::poison, stream);
  }

  Call<S, Out> call(const S& shape, float a, const std::vector<DeviceBuffer<Out>>& in, Out* out) const {
    Call<S, Out> c{shape, a, {}, out};
    for (std::size_t k = 0; k < in.size(); ++k) c.in[k] = in[k].data();
    return c;
  }

  void check_data(const Data<Out>& data, std::size_t n) const {
    if (data.in.size() != static_cast<std::size_t>(spec_.inputs))
      throw std::invalid_argument(spec_.name + ": " + text(spec_.inputs) + " input arrays expected, got " +
                                  text(static_cast<std::int64_t>(data.in.size())));
    for (const std::vector<Out>& array : data.in)
      if (array.size() != n)
        throw std::invalid_argument(spec_.name + ": every input holds " + text(static_cast<std::int64_t>(n)) +
                                    " values (" + text(spec_.input_width) + " an element of the shape), got " +
                                    text(static_cast<std::int64_t>(array.size())));
  }

  std::vector<Out> oracle(const KernelVariant<S, Out>& v, const S& shape, const Data<Out>& data) const {
    std::vector<Out> want(outputs(shape));
    HostCall<S, Out> h{shape, data.a, {}, want};
    for (std::size_t k = 0; k < data.in.size(); ++k) h.in[k] = data.in[k];
    v.oracle(h);
    return want;
  }

  // The family's own check, or the comparison with the variant's oracle.
  CaseResult check(const KernelVariant<S, Out>& v, const S& shape, const Data<Out>& data, std::span<const Out> got) const {
    if (spec_.check) return spec_.check(shape, data, got);
    return compare<Out>(got, oracle(v, shape, data), v.ulps);
  }

  // The shape kind's rule and the host's limit: an array of one element per element of the shape
  // (an input, or the output unless `outputs` says otherwise) and the output hold at most 2^30.
  std::string shape_rule(const S& shape) const {
    if (std::string rule = Kind<S>::rule(shape); !rule.empty()) return rule;
    if ((spec_.inputs > 0 || !spec_.outputs) && Kind<S>::elements(shape) > max_elements)
      return Kind<S>::too_large(shape);
    if (spec_.inputs > 0 && Kind<S>::elements(shape) > max_elements / spec_.input_width)
      return "an input of " + text(spec_.input_width) + " values an element must be at most 2^30 values, got " +
             Kind<S>::describe(shape);
    if (spec_.outputs && spec_.outputs(shape) > max_elements)
      return "the output must be at most 2^30 elements, got " + text(spec_.outputs(shape)) + " for " +
             Kind<S>::describe(shape);
    return "";
  }

  // The shape's rule, then the variant's own: "" when the variant takes the shape.
  std::string rule_of(const KernelVariant<S, Out>& v, const S& shape) const {
    std::string rule = shape_rule(shape);
    if (rule.empty() && v.rule) rule = v.rule(shape);
    return rule;
  }

  // Checks the shape, then launches one thread per element, or calls the variant's launcher
  // (nothing for an empty shape).
  void launch(const KernelVariant<S, Out>& v, Call<S, Out> c, cudaStream_t stream) const {
    if (const std::string rule = rule_of(v, c.shape); !rule.empty())
      throw std::invalid_argument(spec_.name + "." + v.name + ": " + rule);
    perturb::before_launch(stream);
    if (Kind<S>::elements(c.shape) == 0) return;
    if (v.launch) {
      v.launch(c, stream);
      KL_CUDA_CHECK(cudaGetLastError());
      return;
    }
    void* args[] = {&c};
    KL_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(v.kernel), Kind<S>::grid(c.shape),
                                   Kind<S>::block(c.shape), args, 0, stream));
  }

  double bytes(const KernelVariant<S, Out>& v, const S& s) const {
    return v.work.bytes * static_cast<double>(Kind<S>::elements(s));
  }
  bool counts_elements() const { return !spec_.ceiling_variant.empty(); }
  // G<counted>/s at `ms` a run.
  double element_rate(const S& s, double ms) const {
    return ms > 0 ? static_cast<double>(Kind<S>::elements(s)) / (ms * 1e6) : 0.0;
  }

  int run(const VariantInfo& info, const cli::ParsedArgs& a, std::ostream& out) const {
    const KernelVariant<S, Out>& v = variant(info.name);
    const S shape = Kind<S>::parse(a, flags_, run_shape_);
    cli::require_supported(info, rule_of(v, shape));
    const std::uint64_t seed = cli::seed_flag(a);
    const int reps = cli::reps_flag(a);
    require_gpu();
    out << info.id() << ": " << Kind<S>::describe(shape) << (has_data() ? " seed=" + std::to_string(seed) : "")
        << std::endl;
    const Data<Out> d = data(shape, seed);
    const Outcome<Out> o = run_case(v, shape, d);
    std::fflush(stdout);  // a kernel's printf lines before our own
    cli::print_check(out, o.result);
    if (spec_.report) spec_.report(out, shape, o.out);
    if (!o.result.ok()) return 1;
    if (!v.timed) return 0;
    const std::vector<DeviceBuffer<Out>> in = upload(d);
    DeviceBuffer<Out> result(o.out.size());
    const Call<S, Out> c = call(shape, d.a, in, result.data());
    // A host reference is timed briefly (no warm-up, at most 3 runs) and with the host's time in
    // the window, which is its work. An in-place kernel's output is restored before each run,
    // outside the timed window.
    const bool host = v.role == Role::reference;
    const auto restore = [&](cudaStream_t s) { start_output(result.data(), result.size(), in, s); };
    const TimingSummary t =
        time_device_work([&](cudaStream_t s) { launch(v, c, s); }, host ? 0 : 3, host ? std::min(reps, 3) : reps,
                         nullptr, spec_.output_from_input >= 0 ? std::function<void(cudaStream_t)>(restore) : nullptr,
                         cli::host_time_of(v.role));
    // The last timed run's output is checked as the first run's was (the same bytes pass as they
    // did, without computing the oracle again).
    const std::vector<Out> timed = result.download();
    const bool same = timed.size() == o.out.size() &&
                      (timed.empty() || std::memcmp(timed.data(), o.out.data(), timed.size() * sizeof(Out)) == 0);
    if (const CaseResult r = same ? CaseResult{} : check(v, shape, d, timed); !r.ok()) {
      out << "check: FAIL after the timed runs (" << r.describe() << ")\n";
      return 1;
    }
    cli::print_timing(out, t, bytes(v, shape));
    if (counts_elements() || v.work.bytes == 0)
      out << "throughput: " << element_rate(shape, t.median_ms) << " G " << spec_.counted << "/s\n";
    return 0;
  }

  bool has_data() const { return spec_.inputs > 0 || spec_.scalar; }

  // One size's bench inputs, uploaded once, and each variant's expected output there, computed once.
  struct SizeState {
    bool ready = false;
    Data<Out> data;
    std::vector<DeviceBuffer<Out>> in;
    DeviceBuffer<Out> out;
    std::map<std::string, std::vector<Out>> want;
  };
  // The bench size's state and, during a sweep, the swept size's (the others are dropped: 2^30
  // floats take 4 GiB an array), and the one host copy every check downloads to.
  struct BenchState {
    std::unique_ptr<cli::InputsBySize<int, SizeState>> by_size;
    std::vector<Out> staging;
  };

  // The bench shape, or the swept size a case's tag names.
  S shape_of(const cli::BenchCase& c) const {
    if (c.sweep.empty()) return spec_.bench_shape;
    return Kind<S>::at_size(spec_.bench_shape, cli::case_size(c, Kind<S>::elements(spec_.bench_shape)));
  }

  SizeState& size_state(cli::Bench& ctx, const S& shape) const {
    BenchState& bench_state = ctx.state<BenchState>(state_key());
    if (!bench_state.by_size)
      bench_state.by_size = std::make_unique<cli::InputsBySize<int, SizeState>>(Kind<S>::elements(spec_.bench_shape));
    SizeState& st = bench_state.by_size->at(0, Kind<S>::elements(shape));
    if (!st.ready) {
      st.data = data(shape, 1);
      st.in = upload(st.data);
      st.out = DeviceBuffer<Out>(outputs(shape));
      st.ready = true;
    }
    return st;
  }

  bench::Result measure(const cli::BenchCase& c, cli::Bench& ctx) const {
    const KernelVariant<S, Out>& v = variant(c.variant);
    const S shape = shape_of(c);
    SizeState& st = size_state(ctx, shape);
    if (!spec_.check && !st.want.count(v.name)) st.want[v.name] = oracle(v, shape, st.data);
    std::vector<Out>& staging = ctx.state<BenchState>(state_key()).staging;
    const Call<S, Out> args = call(shape, st.data.a, st.in, st.out.data());
    const TimingSummary t = ctx.validated_timing(
        c, [&](cudaStream_t s) { start_output(st.out.data(), st.out.size(), st.in, s); },
        [&](cudaStream_t s) { launch(v, args, s); },
        [&] {
          staging.resize(st.out.size());
          if (!staging.empty())
            KL_CUDA_CHECK(cudaMemcpy(staging.data(), st.out.data(), st.out.bytes(), cudaMemcpyDeviceToHost));
          if (spec_.check) return spec_.check(shape, st.data, staging);
          return compare<Out>(staging, st.want[v.name], v.ulps);
        },
        cli::output_bytes(st.out));
    if (counts_elements()) return element_result(c, shape, t, ctx);
    const double b = bytes(v, shape);
    bench::Result r = cli::throughput_result(c, Kind<S>::describe(shape), t, b, "GB/s", bench::Roof::dram_bandwidth,
                                             v.work.bytes > 0 ? v.work.ops / v.work.bytes : 0.0);
    if (v.memset_ceiling || (spec_.write_only && !c.sweep.empty()))
      std::tie(r.ceiling, r.ceiling_value) = ctx.memset_ceiling(static_cast<std::size_t>(b));
    else
      std::tie(r.ceiling, r.ceiling_value) = ctx.copy_ceiling_of(c, static_cast<std::size_t>(b));
    return r;
  }

  // G<counted>/s, read against the family's ceiling variant measured in this process.
  bench::Result element_result(const cli::BenchCase& c, const S& shape, const TimingSummary& t, cli::Bench& ctx) const {
    const std::string metric = "G" + spec_.counted + "/s";
    bench::Result r = cli::throughput_result(c, Kind<S>::describe(shape), t, 0, metric, bench::Roof::none, 0);
    r.value = element_rate(shape, t.median_ms);
    const std::string how = "the " + spec_.ceiling_variant + " variant at " + Kind<S>::describe(shape);
    // One ceiling per size, as matmul's and reduction's are: "riemann.warp_optimised",
    // "<family>.<variant>_n64k".
    const std::string name = spec_.name + "." + spec_.ceiling_variant + (c.sweep.empty() ? "" : "_" + c.sweep);
    cli::BenchCase ceiling_case = c;
    ceiling_case.variant = spec_.ceiling_variant;
    if (ctx.read_against_reference(r, ceiling_case, name, how,
                                   [this](const cli::BenchCase& rc, cli::Bench& b) { return measure(rc, b); }))
      std::tie(r.ceiling, r.ceiling_value) = std::pair(name, r.value);  // read against itself
    return r;
  }

  // Every variant at the swept sizes; a size a variant's rule refuses is skipped with that rule as
  // the reason (a refused case would end the whole sweep with nothing written).
  std::vector<cli::BenchCase> sweep_cases() const {
    // As many timed runs a swept case as the lab's memory-bound families give theirs.
    constexpr int swept_reps = 5;
    std::vector<cli::BenchCase> cases = cli::at_swept_sizes(family_.bench_cases(), swept_reps);
    for (cli::BenchCase& c : cases)
      if (c.skip_reason.empty()) c.skip_reason = rule_of(variant(c.variant), shape_of(c));
    return cases;
  }

  std::vector<cli::FlagSpec> run_flags() const {
    std::vector<cli::FlagSpec> flags = flags_;
    const std::vector<std::string> defaults = Kind<S>::values(run_shape_);
    for (std::size_t i = 0; i < flags.size(); ++i) flags[i].help += " (default " + defaults[i] + ")";
    if (has_data()) flags.push_back(cli::seed_flag_spec());
    flags.push_back(cli::reps_flag_spec());
    return flags;
  }

  void build_family() {
    Family& f = family_;
    f.name = spec_.name;
    for (const VariantInfo& info : infos_) f.variants.push_back(&info);
    f.run_flags = run_flags();
    f.run = [this](const VariantInfo& info, const cli::ParsedArgs& a, std::ostream& out) { return run(info, a, out); };
    f.bench_cases = [this] {
      std::vector<cli::BenchCase> cases;
      for (const VariantInfo& info : infos_) {
        std::string skip = cli::skip_reason_of(info);
        if (skip.empty()) skip = variant(info.name).not_benched;
        cases.push_back({spec_.name, info.name, "", skip, "", 0});
      }
      return cases;
    };
    f.bench_measure = [this](const cli::BenchCase& c, cli::Bench& ctx) { return measure(c, ctx); };
    if (spec_.sweep) f.sweep_cases = [this] { return sweep_cases(); };
    f.commands = spec_.commands;

    DerivedChecks& d = f.derived.emplace_back();
    for (const VariantInfo& info : infos_) d.variants.push_back(info.name);
    d.shape_kind = Kind<S>::name;
    const std::vector<cli::FlagSpec> kind_flags = Kind<S>::flags();
    for (std::size_t i = 0; i < flags_.size(); ++i)
      if (flags_[i].name != kind_flags[i].name) d.flag_names["--" + kind_flags[i].name] = "--" + flags_[i].name;
    d.rule = [this](const VariantInfo& info, const std::vector<std::string>& flags) -> std::string {
      try {
        return rule_of(variant(info.name), Kind<S>::parse(shape_args(info, flags), flags_, run_shape_));
      } catch (const cli::UsageError& e) {
        return e.what();  // refused by the flag parser already (a block of 0 threads, another kind's flag)
      }
    };
    d.check = [this](const VariantInfo& info, const std::vector<std::string>& flags, std::uint64_t seed) {
      const KernelVariant<S, Out>& v = variant(info.name);
      const S shape = Kind<S>::parse(shape_args(info, flags), flags_, run_shape_);
      if (const std::string rule = rule_of(v, shape); !rule.empty())
        throw std::invalid_argument(info.id() + ": " + rule);
      return run_case(v, shape, data(shape, seed)).result;
    };
    for (const S& s : spec_.unit_shapes.empty() ? Kind<S>::unit_shapes() : spec_.unit_shapes)
      d.unit_shapes.push_back(Kind<S>::flags_of(s, flags_));
    for (const auto& [s, words] : spec_.refused_shapes.empty() ? Kind<S>::refused() : spec_.refused_shapes)
      d.refused_shapes.push_back({Kind<S>::flags_of(s, flags_), words});
  }

  // A derived test's shape flags, parsed: only the shape's own (a matrix's --rows given to a
  // vector variant of a joined family is refused, not ignored).
  cli::ParsedArgs shape_args(const VariantInfo& info, const std::vector<std::string>& flags) const {
    const cli::ParsedArgs a = parse_flags(flags);
    std::set<std::string> names;
    for (const cli::FlagSpec& f : flags_) names.insert(f.name);
    a.require_only(names, info.id());
    return a;
  }

  // The bench's state of this family (of this part, in a joined family: parts share the name).
  std::string state_key() const { return spec_.name + "/" + Kind<S>::name + " of " + out_name<Out>() + "/" + infos_.front().name; }

  FamilySpec<S, Out> spec_;
  std::vector<cli::FlagSpec> flags_;  // the shape's flags under the family's names
  S run_shape_;
  std::vector<VariantInfo> infos_;
  Family family_;
};

template <class S, class Out>
const KitFamily<S, Out>& kit_family(std::string_view name) {
  (void)kl::families();  // builds every family of the program, the kit's among them
  const auto it = built().find(name);
  if (it == built().end()) throw std::invalid_argument("no kit family named '" + std::string(name) + "'");
  if (it->second.kind != kind_of<S, Out>())
    throw std::invalid_argument("kit family '" + std::string(name) + "' works on a " + it->second.kind + ", not a " +
                                kind_of<S, Out>());
  return *static_cast<const KitFamily<S, Out>*>(it->second.family);
}

}  // namespace kl::kit::detail

namespace kl::kit {

template <class S, class Out>
const Family& make_family(FamilySpec<S, Out> spec) {
  const std::string name = spec.name;
  if (detail::built().count(name)) throw std::invalid_argument("kit family '" + name + "' made twice");
  // Lives as long as the program: the Family's hooks and variant entries point into it.
  const auto* family = new detail::KitFamily<S, Out>(std::move(spec));
  detail::built()[name] = {detail::kind_of<S, Out>(), family};
  return family->family();
}

template <class S, class Out>
const Family& part(FamilySpec<S, Out> spec) {
  // Lives as long as the program, as a family does; not in the registry (its name is the joined
  // family's, which kit::run does not look up).
  return (new detail::KitFamily<S, Out>(std::move(spec)))->family();
}

template <class S, class Out>
Data<Out> make_data(std::string_view family, const S& shape, std::uint64_t seed) {
  return detail::kit_family<S, Out>(family).data(shape, seed);
}

template <class S, class Out>
Outcome<Out> run(std::string_view id, const S& shape, const Data<Out>& data) {
  const std::size_t dot = id.find('.');
  if (dot == std::string_view::npos) throw std::invalid_argument("'" + std::string(id) + "' is not family.variant");
  const detail::KitFamily<S, Out>& f = detail::kit_family<S, Out>(id.substr(0, dot));
  return f.run_case(f.variant(id.substr(dot + 1)), shape, data);
}

}  // namespace kl::kit

// The shapes a kit family works on, for one output type: what kit_<type>.cpp instantiates (one
// file a type, so they compile side by side).
#define KL_KIT_INSTANTIATE(S, Out)                                                  \
  namespace kl::kit {                                                               \
  template const Family& make_family(FamilySpec<S, Out>);                          \
  template const Family& part(FamilySpec<S, Out>);                                 \
  template Data<Out> make_data<S, Out>(std::string_view, const S&, std::uint64_t);  \
  template Outcome<Out> run<S, Out>(std::string_view, const S&, const Data<Out>&);  \
  }
