// Matmul families: FP32 `matmul` (cuBLAS SGEMM first, then seeds 000-004's ladder) and int32
// `imatmul` (seed 004 section 10.2). Row-major A (m x k), B (k x n), C (m x n).
#pragma once

#include "kl/case_result.hpp"
#include "kl/matmul_args.hpp"
#include "kl/registry.hpp"
#include "kl/scoped_setting.hpp"
#include "kl/sgemm_stream_k.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace kl::matmul {

struct Variant : kl::Variant<Shape, Args> {
  InputPrecision precision = InputPrecision::fp32;
  // Variants whose kernel reads a staged copy of the inputs (B transposed, A and B in FP16)
  // split their launch in two, so the bench times the kernel alone: `stage` writes the copy,
  // `launch_staged` runs the kernel on it. launch() still does both, as tests expect.
  void (*stage)(const Args&, cudaStream_t) = nullptr;
  void (*launch_staged)(const Args&, cudaStream_t) = nullptr;

  // Writes the staged copy (nothing for variants that need none). Validates like launch().
  void stage_inputs(const Args& args, cudaStream_t stream = nullptr) const;
  // The kernel alone on the staged copy (launch() for variants that stage nothing): call
  // stage_inputs() with the same inputs and shape first.
  void launch_kernel(const Args& args, cudaStream_t stream = nullptr) const;
};

std::span<const Variant> variants();
// Whether `v` runs on this GPU at all (wgmma_tma off compute capability 9.0, the cp.async and
// mma.sync rungs below 8.0, as KL_DEVICE_CC may report): its rule, asked on a whole-tile shape.
inline bool runs_here(const Variant& v) { return !does_not_apply(v.unsupported({128, 256, 64})); }
inline const Variant& variant(std::string_view name) { return find_variant(variants(), name); }

// random: uniform in [-1, 1]; small_integers: integers in [-8, 8], where every partial sum is
// an integer below 2^24 for k <= 2^17, so every FP32 (and FP16-input) variant is bit-exact.
enum class Data { random, small_integers };

struct Inputs {
  std::vector<float> a, b, bias;  // bias empty unless shape.bias
};
Inputs make_inputs(const Shape& shape, Data data, std::uint64_t seed);

// Round-to-nearest-even to binary16 (subnormals included), as __float2half_rn does.
float round_to_fp16(float x);

// The double oracle of one element and its error bound:
// |c - ref| <= gamma(k + bias) * (sum_k |a_ik||b_kj| + |bias_j|) for FP32 accumulation of the
// inputs the variant multiplies (FP16-rounded for GemmEx; products of two FP16 are exact in
// FP32). `slack` multiplies the bound (documented where used).
struct Expected {
  double value = 0;
  double bound = 0;
};
Expected oracle_element(const Inputs& in, const Shape& shape, InputPrecision precision, std::int64_t i,
                        std::int64_t j);
// The bound above for `terms` FP32 accumulations whose products (and bias) sum to `abs_sum` in
// magnitude: what oracle_element uses, for callers that compute the sums their own way.
double element_bound(std::int64_t terms, InputPrecision precision, double abs_sum);
// The whole product in double (seeds 000/003 triple loop, seed 001's bias accumulator).
std::vector<double> oracle(const Inputs& in, const Shape& shape);

// Every element of C is checked, at every size. Products up to this many multiply-adds (m*n*k)
// take the double oracle on the host (oracle_element's sums, a row of C at a time: independent of
// the GPU, and what host tests can run); larger ones the FP64 oracle on the GPU
// (kl/matmul_oracle.hpp: the lab's kernel in the host's order, cuBLAS DGEMM past 2^34), which
// takes milliseconds where the host would take minutes.
inline constexpr std::int64_t host_oracle_limit = std::int64_t{1} << 27;
bool host_oracle_takes(const Shape& shape);

// The oracle of every element of C (row-major), computed once so that it serves every variant
// that multiplies inputs of that precision. Needs a GPU above host_oracle_limit.
std::vector<Expected> expected_elements(const Inputs& in, const Shape& shape, InputPrecision precision);

// Uploads exact-size inputs, poisons a guarded output, launches, checks the guards and the
// per-element bound. The output is copied to *out when out != nullptr.
CaseResult run_case(const Variant& v, const Shape& shape, const Inputs& in, std::vector<float>* out = nullptr);
// The same against `expected` = expected_elements(in, shape, v.precision), computed by the caller.
CaseResult run_case(const Variant& v, const Shape& shape, const Inputs& in, const std::vector<Expected>& expected,
                    std::vector<float>* out = nullptr);

// matmul.tuned (kernels/matmul/27_tuned.cu): the candidate configurations of the register-prefetch SGEMM
// kernel, the one it runs on a shape (the compiled-in tuning file sgemm_tuning.conf names one per
// GPU model and class of shapes), and, for `kernel-lab tune`, a process-wide choice of another
// ("" returns to the file's), which returns the choice it replaced. Unknown names throw
// std::invalid_argument. TunedConfigForced holds a choice for its lifetime.
std::vector<std::string> tuned_config_names();
std::string tuned_config_in_use(const Shape& shape);
std::string tuning_file_text();
std::string use_tuned_config(std::string config);
using TunedConfigForced = ScopedSetting<std::string, use_tuned_config>;

// matmul.split_k (kernels/matmul/28_split_k.cu): the tile configurations it runs (the H100's
// every-shape line of sgemm_tuning.conf, and its [large] line for whole tiles of a large C), and
// the runs it splits k into on a shape on the current GPU (1: whole tiles, rung 27's kernel;
// kl/matmul_split_k.hpp says when).
extern const char* const split_k_config;
extern const char* const split_k_large_config;
int split_k_runs(const Shape& shape);
// matmul.stream_k (kernels/matmul/29_sgemm_stream_k.cu): its plan on a shape on the current GPU
// (blocks == 0: the plan does not apply and the rung runs rung 28; kl/sgemm_stream_k.hpp).
sgemm_stream_k::Plan stream_k_plan(const Shape& shape);
// The block slots its plans deal tiles to on the current GPU: the SMs (or cap_stream_k_sms's cap)
// times the blocks of the rung each SM holds (4 on the H100 and the H200).
std::int64_t stream_k_slots();
// For tests: rung 29 plans as if the GPU had at most `sms` SMs (each holding as many of its blocks
// as it does), so that C of a few tiles makes a plan, small enough for the sanitizers; the blocks
// still run on the whole GPU. 0 returns to the GPU's own. It returns the cap it replaced;
// StreamKSmCap holds one for its lifetime.
int cap_stream_k_sms(int sms);
using StreamKSmCap = ScopedSetting<int, cap_stream_k_sms>;
// matmul.wgmma_stream_k (kernels/matmul/36_wgmma_stream_k.cu): whether its plan deals this shape's
// k-steps out on the current GPU (tiles fewer than the SMs and k long enough: kl/matmul_stream_k.hpp),
// so that blocks share tiles and add their partials, else it computes whole tiles.
bool wgmma_stream_k_shares_tiles(const Shape& shape);
// matmul.wgmma_multicast (kernels/matmul/37_wgmma_multicast.cu): whether it runs its clusters on a
// shape on the current GPU (each cluster three pairs of tiles or more), else rung 36's kernel; and,
// for tests, a process-wide choice to run them wherever rung 36's plan takes whole tiles (so the
// clusters run at shapes small enough for the sanitizers), false to return to the rule; it returns
// the choice it replaced, and ClustersOnEveryWholeTilePlan holds one for its lifetime.
bool wgmma_multicast_runs_clusters(const Shape& shape);
bool use_clusters_on_every_whole_tile_plan(bool everywhere);
using ClustersOnEveryWholeTilePlan = ScopedSetting<bool, use_clusters_on_every_whole_tile_plan>;
// For tests: the persistent tensor-core rungs (34 to 37) launch at most `blocks` blocks (rung 37
// at most blocks / 2 clusters of two, at least one), and rung 36 plans its shares for that many, so
// that small shapes make each block walk many tiles; 0 returns to what the GPU holds at once. It
// returns the cap it replaced; PersistentGridCap holds one for its lifetime.
int cap_persistent_grid(int blocks);
using PersistentGridCap = ScopedSetting<int, cap_persistent_grid>;

}  // namespace kl::matmul

namespace kl::imatmul {

struct Variant : kl::Variant<Shape, Args> {};

std::span<const Variant> variants();
inline const Variant& variant(std::string_view name) { return find_variant(variants(), name); }

struct Inputs {
  std::vector<std::int32_t> a, b;
};
// Integers in [-max_abs_input, max_abs_input] (never all zero): |c| <= 10^4 * n fits int32 for
// n <= 2^17.
inline constexpr std::int32_t max_abs_input = 100;
Inputs make_inputs(const Shape& shape, std::uint64_t seed);
// Exact in int64.
std::vector<std::int64_t> oracle(const Inputs& in, const Shape& shape);
CaseResult run_case(const Variant& v, const Shape& shape, const Inputs& in);

}  // namespace kl::imatmul
