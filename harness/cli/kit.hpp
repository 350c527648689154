// The kit: a kernel family declared, not programmed. A family of float kernels over a vector or a
// matrix states its kernels, their oracles and work model, its inputs and its bench shape in one
// FamilySpec; the harness derives the rest:
//   - the variant table and its shape rules (sizes, blocks, grid limits), the launch (one thread
//     per element, the grid from the shape and the block) with the shape checked first;
//   - `run` (flags --n/--block or --rows/--cols/--block, --seed, --reps; checked, then timed) and
//     `bench` (every clean variant at the bench shape, each timed run validated, GB/s against the
//     device-to-device copy);
//   - the derived tests (harness/derived/, through kl_add_lab): every clean variant on a table of awkward shapes, the
//     shapes the rules refuse, the oracle property over generated shapes, blocks and data (poison
//     and canaries included), and each planted canary or oracle finding seen with its fix silent.
// Every case is checked against the oracle, bit for bit (or within `ulps`), with the output
// poisoned and guarded by canaries. A variant may bring its own launcher and precondition instead
// of the kit's one-thread-per-element launch (the lab's elementwise family keeps its seed kernels
// that way). A family that needs more (its own shapes, a device oracle) writes a Family by hand
// (family.hpp); the kit is the short road.
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
#include "kl/registry.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kl::kit {

// The shapes a kit family works on. The output has one element per element of the shape.
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

// What a kernel receives, by value: the shape, the scalar, the inputs (each one element per
// element of the shape) and the output.
template <class S>
struct Call {
  S shape;
  float a = 0;
  const float* in[max_inputs] = {};
  float* out = nullptr;
};

// What the oracle receives: the same on the host. It writes every element of `out`.
template <class S>
struct HostCall {
  S shape;
  float a = 0;
  std::array<std::span<const float>, max_inputs> in;
  std::span<float> out;
};

// The work model, per element of the shape: bytes read plus written, arithmetic operations.
struct PerElement {
  double bytes = 0;
  double ops = 0;
};

template <class S>
struct KernelVariant {
  std::string name;
  std::string lesson;                      // one line: what it teaches (`list` prints it)
  void (*kernel)(Call<S>) = nullptr;       // the __global__ function, one thread per element
  void (*oracle)(const HostCall<S>&) = nullptr;
  PerElement work;
  Role role = Role::teaching;              // Role::planted: a deliberate bug, with its findings
  std::vector<ExpectedFinding> findings;   // what each checker must report (planted only)
  int ulps = 0;                            // 0: bit-exact against the oracle
  // Instead of `kernel`: the variant's own launcher, for a kernel that keeps a seed's signature or
  // chooses its own grid (a grid-stride loop, 16-byte vectors). The kit calls it on the default
  // stream or the bench's, after the shape passed every rule, never for an empty shape, and checks
  // the launch status after it.
  std::function<void(const Call<S>&, cudaStream_t)> launch;
  // The variant's own precondition beyond the shape kind's ("" when the shape is fine), e.g. whole
  // warps for a kernel without a bounds guard: `run`, the derived tests and the launch refuse by it.
  std::function<std::string(const S&)> rule;
  std::string seed = "-";    // the seed document the variant comes from (the catalogue's column)
  std::string seed_kernel;   // its kernel's name there ("": the variant's name)
};

// The interval every input element is drawn from, uniformly.
struct InputRange {
  float lo = -100.0f;
  float hi = 100.0f;
};

template <class S>
struct FamilySpec {
  std::string name;
  int inputs = 1;        // input arrays (1..max_inputs), each uniform in input_range
  bool scalar = false;   // the scalar a: uniform in [-4, 4], never 0; else 0
  S bench_shape;         // what `bench` times
  std::vector<KernelVariant<S>> variants;
  InputRange input_range;  // e.g. [-87, 88] for exp, whose results stay finite and normal there
  // Vector families: `bench --sweep` times every benched variant again at n = 2^12 .. 2^30, each
  // against a copy of the same bytes at that n (launch latency at small n, bandwidth at large).
  bool sweep = false;
};

// The data of one case: the scalar and the input arrays.
struct Data {
  float a = 0;
  std::vector<std::vector<float>> in;
};

// What running one case found: the comparison with the oracle (poison and canaries included)
// and the output the kernel wrote.
struct Outcome {
  CaseResult result;
  std::vector<float> out;
};

// The family a spec declares. Called once per family (KL_KIT_FAMILY does it); the family lives
// as long as the program. Throws std::invalid_argument naming what is wrong with the spec.
template <class S>
const Family& make_family(FamilySpec<S> spec);

// Seeded inputs for `shape`, as the derived tests, `run` and `bench` draw them.
template <class S>
Data make_data(std::string_view family, const S& shape, std::uint64_t seed);

// One case of variant `id` ("family.variant") on explicit data: launched on a poisoned, guarded
// output and compared with the oracle. Throws std::invalid_argument for a shape outside the rules
// (naming the variant and the rule) or data of the wrong size.
template <class S>
Outcome run(std::string_view id, const S& shape, const Data& data);

// The shape as `run` flags ("--rows 100 --cols 37 --block 16x16"): how every derived test names
// a case, so a failure is one command away from its replay.
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
