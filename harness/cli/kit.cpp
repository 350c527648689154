// The kit's families (kit.hpp): from a FamilySpec to the Family the harness drives, the checked
// case the derived tests run, `run` and `bench` (with its size sweep). Plain C++: kernels are
// launched through cudaLaunchKernel with the pointer the spec holds, or by the variant's own
// launcher, so this file needs no nvcc.
#include "kit.hpp"

#include "bench_context.hpp"
#include "run_support.hpp"

#include "core/size_sweep.hpp"

#include "kl/device_buffer.hpp"
#include "kl/device_facts.hpp"
#include "kl/guarded_buffer.hpp"
#include "kl/host_parallel.hpp"
#include "kl/perturb.hpp"
#include "kl/timing.hpp"

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

namespace kl::kit {
namespace {

using cli::wide_range;

// 4 GiB a float array: the host holds the inputs, the oracle's output and a download.
constexpr std::int64_t max_elements = std::int64_t{1} << 30;

std::string text(std::int64_t v) { return std::to_string(v); }

// ---- what each shape kind knows: its flags, rules, launch geometry and test shapes

template <class S>
struct Kind;

template <>
struct Kind<Vector> {
  static constexpr const char* name = "vector";
  static std::int64_t elements(const Vector& s) { return s.n; }
  static std::string rule(const Vector& s) {
    if (s.n < 0) return "n must be >= 0, got " + text(s.n);
    if (std::string r = block_1d_violation(s.block); !r.empty()) return r;
    if (s.n > max_elements) return "n must be at most 2^30 elements, got " + text(s.n);
    return "";
  }
  static dim3 grid(const Vector& s) { return dim3(static_cast<unsigned>(ceil_div(s.n, s.block))); }
  static dim3 block(const Vector& s) { return dim3(static_cast<unsigned>(s.block)); }
  static std::vector<cli::FlagSpec> flags() {
    return {{"n", "N", "elements (default 2^20)"}, {"block", "B", "threads per block (default 256)"}};
  }
  static Vector parse(const cli::ParsedArgs& a) {
    return {a.integer("n", 1 << 20, -wide_range, wide_range),
            static_cast<int>(a.integer("block", 256, -wide_range, wide_range))};
  }
  static std::string describe(const Vector& s) { return "n=" + bench::size_text(s.n) + " block=" + text(s.block); }
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

std::vector<std::string> matrix_flags(const Matrix& s) {
  return {"--rows", text(s.rows), "--cols", text(s.cols), "--block", text(s.block.x) + "x" + text(s.block.y)};
}

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
  static dim3 grid(const Matrix& s) {
    return dim3(static_cast<unsigned>(ceil_div(s.cols, s.block.x)), static_cast<unsigned>(ceil_div(s.rows, s.block.y)));
  }
  static dim3 block(const Matrix& s) { return dim3(static_cast<unsigned>(s.block.x), static_cast<unsigned>(s.block.y)); }
  static std::vector<cli::FlagSpec> flags() {
    return {{"rows", "R", "rows of the matrix (default 4096)"},
            {"cols", "C", "columns of the matrix (default 4096)"},
            {"block", "BXxBY", "threads per block, x along a row (default 16x16)"}};
  }
  static Matrix parse(const cli::ParsedArgs& a) {
    return {a.integer("rows", 4096, -wide_range, wide_range), a.integer("cols", 4096, -wide_range, wide_range),
            a.dim2("block", {16, 16})};
  }
  static std::string describe(const Matrix& s) {
    return text(s.rows) + " x " + text(s.cols) + " block=" + text(s.block.x) + "x" + text(s.block.y);
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
cli::ParsedArgs parse_flags(const std::vector<std::string>& flags) {
  cli::ParsedArgs a;
  for (std::size_t i = 0; i < flags.size(); i += 2) {
    if (flags[i].rfind("--", 0) != 0 || i + 1 >= flags.size())
      throw std::invalid_argument("shape flags must be --name value pairs, got '" + flags[i] + "'");
    a.values[flags[i].substr(2)] = flags[i + 1];
  }
  return a;
}

// Equal bit for bit (ulps 0), or within `ulps` units in the last place (never across a NaN).
bool agrees(float got, float want, int ulps) {
  if (std::memcmp(&got, &want, sizeof got) == 0) return true;
  if (ulps == 0 || std::isnan(got) || std::isnan(want)) return false;
  auto ordered = [](float f) {
    std::int32_t i;
    std::memcpy(&i, &f, sizeof i);
    return i < 0 ? std::int64_t{INT32_MIN} - i : std::int64_t{i};
  };
  return std::llabs(ordered(got) - ordered(want)) <= ulps;
}

// Every element, in host_parallel's chunks, merged in index order (compare_in_chunks).
CaseResult compare(std::span<const float> got, std::span<const float> want, int ulps) {
  CaseResult r;
  r.checked = got.size();
  compare_in_chunks(got.size(), r, [&](std::size_t i, CaseResult& part) {
    if (!agrees(got[i], want[i], ulps)) part.add_mismatch({i, got[i], want[i], static_cast<double>(ulps)});
  });
  return r;
}

// The family names the kit has built, with their shape kind: what run<S>(id, ...) looks up.
struct Entry {
  const char* kind;
  const void* family;
};
std::map<std::string, Entry, std::less<>>& built() {
  static std::map<std::string, Entry, std::less<>> families;
  return families;
}

template <class S>
class KitFamily {
 public:
  explicit KitFamily(FamilySpec<S> spec) : spec_(std::move(spec)) {
    validate();
    for (const KernelVariant<S>& v : spec_.variants)
      infos_.push_back({spec_.name, v.name, v.seed, v.seed_kernel.empty() ? v.name : v.seed_kernel, v.lesson, v.role,
                        v.findings});
    build_family();
  }

  const Family& family() const { return family_; }

  const KernelVariant<S>& variant(std::string_view name) const {
    for (const KernelVariant<S>& v : spec_.variants)
      if (v.name == name) return v;
    std::string names;
    for (const KernelVariant<S>& v : spec_.variants) names += (names.empty() ? "" : ", ") + v.name;
    throw std::invalid_argument("unknown variant '" + std::string(name) + "' (known: " + names + ")");
  }

  Data data(const S& shape, std::uint64_t seed) const {
    const std::string rule = Kind<S>::rule(shape);
    if (!rule.empty()) throw std::invalid_argument(spec_.name + ": " + rule);
    Data d;
    std::mt19937_64 scalar_rng(seed);
    if (spec_.scalar) {
      d.a = std::uniform_real_distribution<float>(-4.0f, 4.0f)(scalar_rng);
      if (d.a == 0.0f) d.a = 1.5f;
    }
    const auto n = static_cast<std::size_t>(Kind<S>::elements(shape));
    for (int k = 0; k < spec_.inputs; ++k) {
      std::vector<float>& array = d.in.emplace_back(n);
      const std::uint64_t array_seed = chunk_seed(seed, static_cast<std::size_t>(k) + 1);
      for_each_chunk(n, [&](std::size_t chunk, std::size_t begin, std::size_t end) {
        std::mt19937_64 rng(chunk_seed(array_seed, chunk));
        std::uniform_real_distribution<float> value(spec_.input_range.lo, spec_.input_range.hi);
        for (std::size_t i = begin; i < end; ++i) array[i] = value(rng);
      });
    }
    return d;
  }

  Outcome run_case(const KernelVariant<S>& v, const S& shape, const Data& data) const {
    if (const std::string rule = rule_of(v, shape); !rule.empty())
      throw std::invalid_argument(spec_.name + "." + v.name + ": " + rule);
    const auto n = static_cast<std::size_t>(std::max<std::int64_t>(Kind<S>::elements(shape), 0));
    check_data(data, n);
    std::vector<DeviceBuffer<float>> in;
    for (const std::vector<float>& array : data.in) in.emplace_back(std::span<const float>(array));
    GuardedBuffer<float> out(n);
    out.poison();
    launch(v, call(shape, data.a, in, out.data()), nullptr);
    KL_CUDA_CHECK(cudaDeviceSynchronize());
    Outcome o;
    o.out = out.download();
    o.result = compare(o.out, oracle(v, shape, data), v.ulps);
    o.result.guards = out.inspect();
    return o;
  }

 private:
  void validate() const {
    const std::string where = "kit family '" + spec_.name + "': ";
    if (spec_.name.empty() || spec_.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos)
      throw std::invalid_argument(where + "a family name is lower-case letters, digits and _");
    if (spec_.inputs < 1 || spec_.inputs > max_inputs)
      throw std::invalid_argument(where + "inputs must be 1.." + text(max_inputs) + ", got " + text(spec_.inputs));
    if (spec_.variants.empty()) throw std::invalid_argument(where + "no variants");
    if (!(spec_.input_range.lo < spec_.input_range.hi))
      throw std::invalid_argument(where + "input_range needs lo < hi");
    if (spec_.sweep && !std::is_same_v<S, Vector>)
      throw std::invalid_argument(where + "sweep: only a Vector family has a size to sweep");
    if (const std::string rule = Kind<S>::rule(spec_.bench_shape); !rule.empty())
      throw std::invalid_argument(where + "bench_shape: " + rule);
    std::set<std::string> names;
    for (const KernelVariant<S>& v : spec_.variants) {
      if (!names.insert(v.name).second) throw std::invalid_argument(where + "variant '" + v.name + "' declared twice");
      if (!v.kernel == !v.launch)
        throw std::invalid_argument(where + v.name + " needs a kernel or a launcher (launch), not both");
      if (!v.oracle) throw std::invalid_argument(where + v.name + " needs an oracle");
      if ((v.role == Role::planted) == v.findings.empty())
        throw std::invalid_argument(where + v.name + ": a planted variant has findings, and only a planted one");
    }
  }

  Call<S> call(const S& shape, float a, const std::vector<DeviceBuffer<float>>& in, float* out) const {
    Call<S> c{shape, a, {}, out};
    for (std::size_t k = 0; k < in.size(); ++k) c.in[k] = in[k].data();
    return c;
  }

  void check_data(const Data& data, std::size_t n) const {
    if (data.in.size() != static_cast<std::size_t>(spec_.inputs))
      throw std::invalid_argument(spec_.name + ": " + text(spec_.inputs) + " input arrays expected, got " +
                                  text(static_cast<std::int64_t>(data.in.size())));
    for (const std::vector<float>& array : data.in)
      if (array.size() != n)
        throw std::invalid_argument(spec_.name + ": every input holds one element per element of the shape (" +
                                    text(static_cast<std::int64_t>(n)) + "), got " +
                                    text(static_cast<std::int64_t>(array.size())));
  }

  std::vector<float> oracle(const KernelVariant<S>& v, const S& shape, const Data& data) const {
    std::vector<float> want(static_cast<std::size_t>(Kind<S>::elements(shape)));
    HostCall<S> h{shape, data.a, {}, want};
    for (std::size_t k = 0; k < data.in.size(); ++k) h.in[k] = data.in[k];
    v.oracle(h);
    return want;
  }

  // The shape kind's rule, then the variant's own: "" when the variant takes the shape.
  std::string rule_of(const KernelVariant<S>& v, const S& shape) const {
    std::string rule = Kind<S>::rule(shape);
    if (rule.empty() && v.rule) rule = v.rule(shape);
    return rule;
  }

  // Checks the shape, then launches one thread per element, or calls the variant's launcher
  // (nothing for an empty shape).
  void launch(const KernelVariant<S>& v, Call<S> c, cudaStream_t stream) const {
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

  double bytes(const KernelVariant<S>& v, const S& s) const {
    return v.work.bytes * static_cast<double>(Kind<S>::elements(s));
  }

  int run(const VariantInfo& info, const cli::ParsedArgs& a, std::ostream& out) const {
    const KernelVariant<S>& v = variant(info.name);
    const S shape = Kind<S>::parse(a);
    cli::require_supported(info, rule_of(v, shape));
    const std::uint64_t seed = cli::seed_flag(a);
    const int reps = cli::reps_flag(a);
    require_gpu();
    out << info.id() << ": " << Kind<S>::describe(shape) << " seed=" << seed << "\n";
    const Data d = data(shape, seed);
    const Outcome o = run_case(v, shape, d);
    cli::print_check(out, o.result);
    if (!o.result.ok()) return 1;
    std::vector<DeviceBuffer<float>> in;
    for (const std::vector<float>& array : d.in) in.emplace_back(std::span<const float>(array));
    DeviceBuffer<float> result(o.out.size());
    const Call<S> c = call(shape, d.a, in, result.data());
    const TimingSummary t = time_device_work([&](cudaStream_t s) { launch(v, c, s); }, 3, reps);
    cli::print_timing(out, t, bytes(v, shape));
    return 0;
  }

  // One size's bench inputs, uploaded once, and each variant's oracle output there, computed once.
  struct SizeState {
    bool ready = false;
    Data data;
    std::vector<DeviceBuffer<float>> in;
    DeviceBuffer<float> out;
    std::map<std::string, std::vector<float>> want;
  };
  // The bench size's state and, during a sweep, the swept size's (the others are dropped: 2^30
  // floats take 4 GiB an array), and the one host copy every check downloads to.
  struct BenchState {
    std::unique_ptr<cli::InputsBySize<int, SizeState>> by_size;
    std::vector<float> staging;
  };

  // The bench shape, or the swept n a case's size tag names.
  S shape_of(const cli::BenchCase& c) const {
    S shape = spec_.bench_shape;
    if constexpr (std::is_same_v<S, Vector>) shape.n = cli::case_size(c, shape.n);
    return shape;
  }

  bench::Result measure(const cli::BenchCase& c, cli::Bench& ctx) const {
    const KernelVariant<S>& v = variant(c.variant);
    const S shape = shape_of(c);
    BenchState& bench_state = ctx.state<BenchState>(spec_.name);
    if (!bench_state.by_size)
      bench_state.by_size = std::make_unique<cli::InputsBySize<int, SizeState>>(Kind<S>::elements(spec_.bench_shape));
    SizeState& st = bench_state.by_size->at(0, Kind<S>::elements(shape));
    if (!st.ready) {
      st.data = data(shape, 1);
      for (const std::vector<float>& array : st.data.in) st.in.emplace_back(std::span<const float>(array));
      st.out = DeviceBuffer<float>(static_cast<std::size_t>(Kind<S>::elements(shape)));
      st.ready = true;
    }
    if (!st.want.count(v.name)) st.want[v.name] = oracle(v, shape, st.data);
    const std::vector<float>& want = st.want[v.name];
    std::vector<float>& staging = bench_state.staging;
    const Call<S> args = call(shape, st.data.a, st.in, st.out.data());
    const TimingSummary t = ctx.validated_timing(
        c, [&](cudaStream_t s) { cli::poison_words(st.out.data(), st.out.size(), s); },
        [&](cudaStream_t s) { launch(v, args, s); },
        [&] {
          staging.resize(st.out.size());
          if (!staging.empty())
            KL_CUDA_CHECK(cudaMemcpy(staging.data(), st.out.data(), st.out.bytes(), cudaMemcpyDeviceToHost));
          return compare(staging, want, v.ulps);
        },
        cli::output_bytes(st.out));
    const double b = bytes(v, shape);
    bench::Result r = cli::throughput_result(c, Kind<S>::describe(shape), t, b, "GB/s", bench::Roof::dram_bandwidth,
                                             v.work.bytes > 0 ? v.work.ops / v.work.bytes : 0.0);
    std::tie(r.ceiling, r.ceiling_value) = ctx.copy_ceiling_of(c, static_cast<std::size_t>(b));
    return r;
  }

  void build_family() {
    Family& f = family_;
    f.name = spec_.name;
    for (const VariantInfo& info : infos_) f.variants.push_back(&info);
    f.run_flags = Kind<S>::flags();
    f.run_flags.push_back(cli::seed_flag_spec());
    f.run_flags.push_back(cli::reps_flag_spec());
    f.run = [this](const VariantInfo& info, const cli::ParsedArgs& a, std::ostream& out) { return run(info, a, out); };
    f.bench_cases = [this] {
      std::vector<cli::BenchCase> cases;
      for (const VariantInfo& info : infos_) cases.push_back({spec_.name, info.name, "", cli::skip_reason_of(info), "", 0});
      return cases;
    };
    f.bench_measure = [this](const cli::BenchCase& c, cli::Bench& ctx) { return measure(c, ctx); };
    if (spec_.sweep) {
      // As many timed runs a swept case as the lab's memory-bound families give theirs.
      constexpr int swept_reps = 5;
      f.sweep_cases = [this] { return cli::at_swept_sizes(family_.bench_cases(), swept_reps); };
    }

    DerivedChecks& d = f.derived;
    d.shape_kind = Kind<S>::name;
    d.rule = [this](const VariantInfo& info, const std::vector<std::string>& flags) -> std::string {
      try {
        return rule_of(variant(info.name), Kind<S>::parse(parse_flags(flags)));
      } catch (const cli::UsageError& e) {
        return e.what();  // refused by the flag parser already (a block of 0 threads)
      }
    };
    d.check = [this](const VariantInfo& info, const std::vector<std::string>& flags, std::uint64_t seed) {
      const KernelVariant<S>& v = variant(info.name);
      const S shape = Kind<S>::parse(parse_flags(flags));
      if (const std::string rule = rule_of(v, shape); !rule.empty())
        throw std::invalid_argument(info.id() + ": " + rule);
      return run_case(v, shape, data(shape, seed)).result;
    };
    for (const S& s : Kind<S>::unit_shapes()) d.unit_shapes.push_back(flags_of(s));
    for (const auto& [s, words] : Kind<S>::refused()) d.refused_shapes.push_back({flags_of(s), words});
  }

  FamilySpec<S> spec_;
  std::vector<VariantInfo> infos_;
  Family family_;
};

template <class S>
const KitFamily<S>& kit_family(std::string_view name) {
  (void)kl::families();  // builds every family of the program, the kit's among them
  const auto it = built().find(name);
  if (it == built().end()) throw std::invalid_argument("no kit family named '" + std::string(name) + "'");
  if (std::string_view(it->second.kind) != Kind<S>::name)
    throw std::invalid_argument("kit family '" + std::string(name) + "' works on a " + it->second.kind +
                                ", not a " + Kind<S>::name);
  return *static_cast<const KitFamily<S>*>(it->second.family);
}

}  // namespace

std::vector<std::string> flags_of(const Vector& s) { return {"--n", text(s.n), "--block", text(s.block)}; }
std::vector<std::string> flags_of(const Matrix& s) { return matrix_flags(s); }

template <class S>
const Family& make_family(FamilySpec<S> spec) {
  const std::string name = spec.name;
  if (built().count(name)) throw std::invalid_argument("kit family '" + name + "' made twice");
  // Lives as long as the program: the Family's hooks and variant entries point into it.
  const auto* family = new KitFamily<S>(std::move(spec));
  built()[name] = {Kind<S>::name, family};
  return family->family();
}

template <class S>
Data make_data(std::string_view family, const S& shape, std::uint64_t seed) {
  return kit_family<S>(family).data(shape, seed);
}

template <class S>
Outcome run(std::string_view id, const S& shape, const Data& data) {
  const std::size_t dot = id.find('.');
  if (dot == std::string_view::npos) throw std::invalid_argument("'" + std::string(id) + "' is not family.variant");
  const KitFamily<S>& f = kit_family<S>(id.substr(0, dot));
  return f.run_case(f.variant(id.substr(dot + 1)), shape, data);
}

template const Family& make_family(FamilySpec<Vector>);
template const Family& make_family(FamilySpec<Matrix>);
template Data make_data(std::string_view, const Vector&, std::uint64_t);
template Data make_data(std::string_view, const Matrix&, std::uint64_t);
template Outcome run(std::string_view, const Vector&, const Data&);
template Outcome run(std::string_view, const Matrix&, const Data&);

}  // namespace kl::kit
