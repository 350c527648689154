// The kit: a kernel family declared, not programmed. A family of kernels over a vector or a
// matrix states its kernels, their oracles and work model, its inputs and its bench shape in one
// FamilySpec; the harness derives the rest:
//   - the variant table and its shape rules (sizes, blocks, grid limits, the host's 2^30 elements
//     an array), the launch (one thread per element, the grid from the shape and the block) with
//     the shape checked first;
//   - `run` (flags --n/--block or --rows/--cols/--block, or the family's names for them, --seed,
//     --reps; checked, timed, the last timed run checked again) and `bench` (every clean variant
//     at the bench shape, each timed run validated, GB/s against the device-to-device copy, or a
//     rate against a variant of the family), with a size sweep if declared;
//   - the derived tests (harness/derived/, through kl_add_lab): every clean variant on a table of
//     awkward shapes, the shapes the rules refuse, the oracle property over generated shapes,
//     blocks and data (poison and canaries included), and each planted canary or oracle finding
//     seen with its fix silent.
// Every case is checked against the oracle, bit for bit (or within `ulps`), or by the family's own
// check, with the output poisoned and guarded by canaries. A variant may bring its own launcher
// and precondition instead of the kit's one-thread-per-element launch (the lab's elementwise,
// dispatch and riemann keep their seed kernels that way). The optional fields of FamilySpec state
// what the defaults do not fit: the output type and size, no inputs, a check of a whole output,
// the flags' names, the derived shapes, the ceiling, in-place and strided outputs, integer and
// vector inputs. A family of several shapes joins parts (Joined); one that needs more (a device
// oracle) writes a Family by hand (family.hpp); the kit is the short road.
//
//   __global__ void saxpy(kl::kit::Call<kl::kit::Matrix> c) { ... }       // kit.cuh: cell(), element()
//   void saxpy_oracle(const kl::kit::HostCall<kl::kit::Matrix>& h) { ... }
//   KL_KIT_FAMILY(starter, kl::kit::FamilySpec<kl::kit::Matrix>{
//       .name = "starter", .inputs = 2, .scalar = true, .bench_shape = {8192, 8192, {32, 8}},
//       .variants = {{"saxpy", "z = a*x + y", saxpy, saxpy_oracle, {12, 2}}}})
#pragma once

#include "family.hpp"

#include "kl/case_result.hpp"
#include "kl/geometry.hpp"
#include "kl/guarded_buffer.hpp"
#include "kl/registry.hpp"

#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kl::kit {

// The shapes a kit family works on. By default the output has one element per element of the
// shape (FamilySpec::outputs says otherwise).
struct Vector {  // n elements; 1-D blocks
  std::int64_t n = 0;
  int block = 256;
};
struct Matrix {  // rows x cols, row-major; 2-D blocks, x along a row
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  Dim2 block{16, 16};
};

inline constexpr int max_inputs = 3;

// What a kernel receives, by value: the shape, the scalar, the inputs and the output. Out is
// float, double or int, and the inputs hold the same type: FamilySpec::input_width values (1
// by default) an element of the shape.
template <class S, class Out = float>
struct Call {
  S shape;
  float a = 0;
  const Out* in[max_inputs] = {};
  Out* out = nullptr;
};

// What the oracle receives: the same on the host. It writes every element of `out`: a value, or
// untouched<Out>() where the kernel must not write.
template <class S, class Out = float>
struct HostCall {
  S shape;
  float a = 0;
  std::array<std::span<const Out>, max_inputs> in;
  std::span<Out> out;
};

// What an oracle writes for an element the kernel must leave alone (the gaps of a strided
// writer): the poison the output starts with. Such an element must still hold it, and does not
// count as unwritten.
template <class Out>
Out untouched() {
  return std::bit_cast<Out>(GuardPatterns<sizeof(Out)>::poison);
}

// The work model, per element of the shape: bytes read plus written, arithmetic operations.
struct PerElement {
  double bytes = 0;
  double ops = 0;
};

template <class S, class Out = float>
struct KernelVariant {
  std::string name;
  std::string lesson;                           // one line: what it teaches (`list` prints it)
  void (*kernel)(Call<S, Out>) = nullptr;       // the __global__ function, one thread per element
  void (*oracle)(const HostCall<S, Out>&) = nullptr;  // (none when the family has its own check)
  PerElement work;
  Role role = Role::teaching;  // Role::planted: a deliberate bug, with its findings; Role::reference:
                               // a host reference (never benched; `run` times it at most 3 runs)
  std::vector<ExpectedFinding> findings;  // what each checker must report (planted only)
  int ulps = 0;                           // 0: bit-exact against the oracle (integers: always)
  // Instead of `kernel`: the variant's own launcher, for a kernel that keeps a seed's signature or
  // chooses its own grid (a grid-stride loop, 16-byte vectors). The kit calls it on the default
  // stream or the bench's, after the shape passed every rule, never for an empty shape, and checks
  // the launch status after it.
  std::function<void(const Call<S, Out>&, cudaStream_t)> launch;
  // The variant's own precondition beyond the shape kind's ("" when the shape is fine), e.g. whole
  // warps for a kernel without a bounds guard: `run`, the derived tests and the launch refuse by it.
  std::function<std::string(const S&)> rule;
  std::string seed = "-";    // the seed document the variant comes from (the catalogue's column)
  std::string seed_kernel;   // its kernel's name there ("": the variant's name)
  // Why `bench` skips it, if it does: its time is not a bandwidth (one contended address).
  std::string not_benched;
  // false: `run` checks it once and does not time it (its output is a side effect, printf lines);
  // it is then not benched either, and not_benched says why.
  bool timed = true;
  // bench reads it against cudaMemset of the same bytes at every size (a fill racing the
  // driver's), not the family's ceiling.
  bool memset_ceiling = false;
};

// The interval every input element is drawn from, uniformly. Integer inputs take the integers
// in it and are never 0 (a 0 drawn is 1): an in-place kernel that skips an element (x += y)
// cannot then pass for one that wrote it.
struct InputRange {
  double lo = -100.0;
  double hi = 100.0;
};

// The data of one case: the scalar and the input arrays (of the family's output type).
template <class T = float>
struct Data {
  float a = 0;
  std::vector<std::vector<T>> in;
};
// `Data{a, {{...}, {...}}}`: float data, as most families' is.
Data(float, std::vector<std::vector<float>>) -> Data<float>;

template <class S, class Out = float>
struct FamilySpec {
  std::string name;
  int inputs = 1;        // input arrays (0..max_inputs), each uniform in input_range
  int input_width = 1;   // values each input holds an element of the shape (3: a float3 each)
  bool scalar = false;   // the scalar a: uniform in [-4, 4], never 0; else 0
  S bench_shape;         // what `bench` times
  std::vector<KernelVariant<S, Out>> variants;
  InputRange input_range;  // e.g. [-87, 88] for exp, whose results stay finite and normal there
  // `bench --sweep`: every benched variant again at 2^12 .. 2^30 elements (a Matrix: square, with
  // the bench shape's block), each against its ceiling at that size (launch latency at small
  // sizes, bandwidth at large). A swept size a variant's rule refuses is skipped with the rule.
  bool sweep = false;

  // ---- Optional: what a family states when the defaults do not fit it.
  // The output's elements for a shape (default: one per element of the shape), e.g. two ints a
  // cell for a map of coordinates, one double for a sum.
  std::function<std::int64_t(const S&)> outputs;
  // Instead of the variants' oracles: the family's own check of a whole output (a bound on a sum
  // rather than element by element), with the inputs it was computed from.
  std::function<CaseResult(const S&, const Data<Out>&, std::span<const Out>)> check;
  // Lines `run` prints after the check (what the output holds, against what).
  std::function<void(std::ostream&, const S&, std::span<const Out>)> report;
  // An in-place kernel (x += y): the output starts as a copy of this input (its index), not the
  // poison, before every run; the kernel receives the input as well. -1: none.
  int output_from_input = -1;
  // `run`'s flags for the shape, in the kind's order (Vector: n, block; Matrix: rows, cols, block),
  // under the family's own names ("width" for cols); help lines get the default appended.
  std::vector<cli::FlagSpec> shape_flags;
  std::optional<S> run_shape;  // `run`'s shape without flags (default: 2^20, or 4096 x 4096)
  // The derived tests' shapes (default: the kind's): those every clean variant must pass (each
  // taken by a clean variant at least), and those every variant refuses, with words of the rule.
  std::vector<S> unit_shapes;
  std::vector<std::pair<S, std::string>> refused_shapes;
  // What bench reads a variant against. Default: GB/s of the work model's bytes against the
  // device-to-device copy (at a swept size a copy of the same bytes, or, for a family that only
  // writes, cudaMemset of them). With a ceiling_variant: G<counted>/s (elements of the shape per
  // second; no physical roof), against that variant timed in the same process.
  bool write_only = false;
  std::string ceiling_variant;
  // What G<counted>/s counts; `run` prints that rate too for a variant whose work model moves
  // no bytes (an atomic counter's adds).
  std::string counted = "elements";
  std::vector<FamilyCommand> commands;  // the family's own commands (family.hpp)
};

// What running one case found: the comparison with the oracle (poison and canaries included)
// and the output the kernel wrote.
template <class Out = float>
struct Outcome {
  CaseResult result;
  std::vector<Out> out;
};

// The family a spec declares. Called once per family (KL_KIT_FAMILY does it); the family lives
// as long as the program. Throws std::invalid_argument naming what is wrong with the spec.
// Out is float, double or int.
template <class S, class Out>
const Family& make_family(FamilySpec<S, Out> spec);

// A family of several parts under one name: kernels over vectors and matrices, of int and float,
// with and without inputs (the lab's basics). Each part is a FamilySpec of its own (its `name`
// is the family's), made with part(); the joined family runs, benches and sweeps each variant by
// its part, takes each variant's own flags (its part's: `run basics.matr --n 5` is refused), and
// gives the derived tests one group a part.
template <class S, class Out>
const Family& part(FamilySpec<S, Out> spec);
struct Joined {
  std::string name;
  std::vector<const Family*> parts;
  std::vector<std::string> order;  // the variants in catalogue order (default: part by part)
};
const Family& make_family(Joined joined);

// Seeded inputs for `shape`, as the derived tests, `run` and `bench` draw them.
template <class S, class Out = float>
Data<Out> make_data(std::string_view family, const S& shape, std::uint64_t seed);

// One case of variant `id` ("family.variant") on explicit data: launched on a poisoned, guarded
// output and compared with the oracle. Throws std::invalid_argument for a shape outside the rules
// (naming the variant and the rule) or data of the wrong size.
template <class S, class Out = float>
Outcome<Out> run(std::string_view id, const S& shape, const Data<Out>& data);

// The shape as `run` flags ("--rows 100 --cols 37 --block 16x16"): how every derived test names
// a case, so a failure is one command away from its replay. (A family with shape_flags of its own
// renames them: DerivedChecks::flag_names.)
std::vector<std::string> flags_of(const Vector& shape);
std::vector<std::string> flags_of(const Matrix& shape);

}  // namespace kl::kit

// Defines kl::family_<name>() (what kl_family(<name>) declares) from a FamilySpec. (A pointer, not
// a reference, holds it: GCC 13's -Wdangling-reference takes a reference returned by a call with a
// temporary argument, the spec, for one into that temporary.)
#define KL_KIT_FAMILY(name, ...)                                  \
  namespace kl {                                                  \
  const Family& family_##name();                                  \
  const Family& family_##name() {                                 \
    static const Family* family = &kit::make_family(__VA_ARGS__); \
    return *family;                                               \
  }                                                               \
  }
