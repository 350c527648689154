#include "lessons.hpp"

#include "core/format.hpp"
#include "core/size_sweep.hpp"
#include "kl/matmul_ladders.hpp"

#include <cmath>
#include <sstream>

namespace kl::lessons {

// The bench's vocabulary (results, gates, formatting) and matmul's ladders, read throughout.
using namespace bench;
using matmul::LadderRung;
using matmul::SweepShape;
using matmul::sgemm_ladder;
using matmul::sgemm_sweep_shapes;
using matmul::tensor_core_large_shape;
using matmul::tensor_core_sweep_shapes;
using matmul::tensor_core_swept_rungs;
using matmul::tensor_core_ladder;

namespace {

const Result* find(const std::vector<Result>& results, const std::string& key) {
  for (const Result& r : results)
    if (r.key() == key) return &r;
  return nullptr;
}

// A gate on the same result(s), in either order.
const Gate* gate_for(const SeedClaim& c, const std::vector<Gate>& gates) {
  for (const Gate& g : gates) {
    if (c.quantity == ClaimQuantity::share_of_roof && g.kind == GateKind::min_ratio && g.a == c.a) return &g;
    if (c.quantity == ClaimQuantity::speedup && g.kind == GateKind::order &&
        ((g.a == c.a && g.b == c.b) || (g.a == c.b && g.b == c.a)))
      return &g;
  }
  return nullptr;
}

std::string figure(const SeedClaim& c, double v) {
  if (std::isnan(v)) return "faster (no figure)";
  return c.quantity == ClaimQuantity::speedup ? sig3(v) + "x" : sig3(100 * v) + "% of peak";
}

std::string gate_text(const Gate& g) { return "`" + g.name() + "`: " + g.rule(); }

std::string ratio_cell(const Result* r) { return r && r->ceiling_value > 0 ? sig3(r->ratio()) + "x" : "-"; }

// The SGEMM ladder beyond the seeds at 4096^3, rung by rung, then over the swept shapes.
void ladder_section(std::ostream& o, const std::vector<Result>& results, const Roofline& roofline) {
  const std::vector<LadderRung>& ladder = sgemm_ladder();
  const Result* cublas = find(results, "matmul.cublas_sgemm");
  if (!cublas) return;  // matmul was not benched in this run
  o << "\n## Beyond the seeds: the SGEMM ladder\n\n"
    << "Seed 003 sets out for \"a SGEMM kernel that achieves 50% of theoretical GPU FLOPS\" and promises a part 2; "
       "the lab climbs on from its last rung (tiled_32) on the FP32 lanes alone (no tensor cores, no TF32), one "
       "technique per rung (kernels/matmul/20_*.cu .. 29_sgemm_stream_k.cu, notes in docs/SGEMM_LADDER.md). m = n = k = 4096; "
       "x cuBLAS is the ratio to cuBLAS SGEMM timed in the same run ("
    << sig3(cublas->value) << " TFLOPS, " << sig3(100 * cublas->value / roofline.fp32_tflops)
    << "% of the FP32 peak). The last column is what Nsight Compute showed explains the rung's gain "
       "(`cmake --build --preset gpu --target profile-sgemm`).\n\n"
    << "| rung | TFLOPS | x cuBLAS | % of FP32 peak | over the rung before | what ncu shows |\n|---|---|---|---|---|---|\n";
  const Result* before = nullptr;
  for (const LadderRung& rung : ladder) {
    const Result* r = find(results, "matmul." + rung.variant);
    o << "| `" << rung.variant << "` | " << (r ? sig3(r->value) : "-") << " | " << ratio_cell(r) << " | "
      << (r ? sig3(100 * r->value / roofline.fp32_tflops) + "%" : "-") << " | "
      << (r && before && before->value > 0 ? sig3(r->value / before->value) + "x" : "-") << " | " << rung.profile
      << " |\n";
    before = r;
  }
  o << "\nOver the swept shapes, each rung's ratio to cuBLAS SGEMM timed on the same shape in the same run:\n\n"
    << "| rung | m=n=k=4096";
  for (const SweepShape& s : sgemm_sweep_shapes()) o << " | " << s.text();
  o << " |\n|---|---";
  for (std::size_t i = 0; i < sgemm_sweep_shapes().size(); ++i) o << "|---";
  o << "|\n| cuBLAS SGEMM, TFLOPS | " << sig3(cublas->value);
  for (const SweepShape& s : sgemm_sweep_shapes()) {
    const Result* r = find(results, "matmul.cublas_sgemm." + s.tag());
    o << " | " << (r ? sig3(r->value) : "-");
  }
  o << " |\n";
  for (std::size_t i = 1; i < ladder.size(); ++i) {
    o << "| `" << ladder[i].variant << "` | " << ratio_cell(find(results, "matmul." + ladder[i].variant));
    for (const SweepShape& s : sgemm_sweep_shapes())
      o << " | " << ratio_cell(find(results, "matmul." + ladder[i].variant + "." + s.tag()));
    o << " |\n";
  }
}

// The tensor-core ladder beyond the seeds: each rung at 4096^3 and at the large shape, as a
// ratio to cuBLAS GemmEx timed on the same shape in the same run.
void tensor_core_section(std::ostream& o, const std::vector<Result>& results, const Roofline& roofline) {
  const Result* gemmex = find(results, "matmul.cublas_gemmex_fp16");
  const std::vector<LadderRung>& ladder = tensor_core_ladder();
  if (!gemmex || !find(results, "matmul." + ladder.front().variant)) return;
  const SweepShape& large = tensor_core_large_shape();
  const Result* gemmex_large = find(results, "matmul.cublas_gemmex_fp16." + large.tag());
  o << "\n## Beyond the seeds: the tensor-core ladder\n\n"
    << "Seed 004 reaches the tensor cores only through cublasGemmEx; the lab writes its own, FP16 inputs with FP32 "
       "accumulation and output, one technique per rung (a file each from kernels/matmul/30_*.cu on, notes in "
       "docs/TENSOR_CORE_LADDER.md). x GemmEx is the ratio to cuBLAS GemmEx timed on the same shape in the same run ("
    << sig3(gemmex->value) << " TFLOPS at 4096^3, " << sig3(100 * gemmex->value / roofline.fp16_tensor_tflops)
    << "% of the dense FP16 tensor peak";
  if (gemmex_large) o << "; " << sig3(gemmex_large->value) << " TFLOPS at " << large.text();
  o << "). The last column is what Nsight Compute shows (`cmake --build --preset gpu --target profile-tensor`).\n\n"
    << "| rung | TFLOPS | x GemmEx | % of FP16 tensor peak | over the rung before | x GemmEx at " << large.text()
    << " | what ncu shows |\n|---|---|---|---|---|---|---|\n";
  const Result* before = nullptr;
  for (const LadderRung& rung : ladder) {
    const Result* r = find(results, "matmul." + rung.variant);
    o << "| `" << rung.variant << "` | " << (r ? sig3(r->value) : "-") << " | " << ratio_cell(r) << " | "
      << (r ? sig3(100 * r->value / roofline.fp16_tensor_tflops) + "%" : "-") << " | "
      << (r && before && before->value > 0 ? sig3(r->value / before->value) + "x" : "-") << " | "
      << ratio_cell(find(results, "matmul." + rung.variant + "." + large.tag())) << " | "
      << (rung.profile.empty() ? "-" : rung.profile) << " |\n";
    before = r;
  }
  // The rungs near GemmEx over the tensor-core sweep shapes.
  std::vector<SweepShape> shapes{large};
  shapes.insert(shapes.end(), tensor_core_sweep_shapes().begin(), tensor_core_sweep_shapes().end());
  o << "\nThe rungs near GemmEx over more shapes (K-light, K-heavy, skinny, sides off the tile), each as a ratio to "
       "GemmEx timed on the same shape in the same run:\n\n| rung | m=n=k=4096";
  for (const SweepShape& s : shapes) o << " | " << s.text();
  o << " |\n|---|---";
  for (std::size_t i = 0; i < shapes.size(); ++i) o << "|---";
  o << "|\n| cuBLAS GemmEx, TFLOPS | " << sig3(gemmex->value);
  for (const SweepShape& s : shapes) {
    const Result* r = find(results, "matmul.cublas_gemmex_fp16." + s.tag());
    o << " | " << (r ? sig3(r->value) : "-");
  }
  o << " |\n";
  for (const std::string& rung : tensor_core_swept_rungs()) {
    o << "| `" << rung << "` | " << ratio_cell(find(results, "matmul." + rung));
    for (const SweepShape& s : shapes) o << " | " << ratio_cell(find(results, "matmul." + rung + "." + s.tag()));
    o << " |\n";
  }
}

// The memory-bound rungs beyond the seeds: each beside the seed rung it speeds up, as a share
// of its ceiling, then the size sweep when the run has one.
void memory_bound_section(std::ostream& o, const std::vector<Result>& results) {
  struct Pair {
    const char* seed_rung;
    const char* rung;
  };
  static constexpr Pair pairs[] = {
      {"reduction.grid_stride.float", "reduction.vectorized_single_launch.float"},
      {"reduction.grid_stride.int", "reduction.vectorized_single_launch.int"},
      {"reduction.grid_stride.float.n64k", "reduction.vectorized_single_launch.float.n64k"},
      {"reduction.grid_stride.int.n64k", "reduction.vectorized_single_launch.int.n64k"},
      {"reduction.grid_stride.float", "reduction.bulk_copy_ring.float"},
      {"reduction.grid_stride.int", "reduction.bulk_copy_ring.int"},
      {"reduction.grid_stride.float.n64k", "reduction.bulk_copy_ring.float.n64k"},
      {"reduction.grid_stride.int.n64k", "reduction.bulk_copy_ring.int.n64k"},
      {"elementwise.add", "elementwise.add_vectorized"},
      {"elementwise.exp", "elementwise.exp_vectorized"},
      {"basics.fill_arr", "basics.fill_vectorized"},
  };
  if (!find(results, pairs[0].rung) && !find(results, "elementwise.add_vectorized")) return;
  o << "\n## Beyond the seeds: memory-bound kernels at the bandwidth limit\n\n"
    << "Each rung beside the seed rung it speeds up (16-byte vector loads and stores with the unaligned head and "
       "tail done one by one, several loads in flight per thread). The reductions pay one launch at any n: "
       "`vectorized_single_launch` with warp shuffles and a last-block-done finish (the same float sum on every "
       "run), `bulk_copy_ring` with 32 KiB bulk copies (cp.async.bulk) through a shared-memory ring and one "
       "atomicAdd per block onto an output its block 0 zeroes in the same launch. A reduction is read against CUB's sum of the same "
       "dtype and n; elementwise kernels against the device-to-device copy; the vectorised fill against "
       "cudaMemset of the same bytes (the seeds' write-only kernels stay read against the copy). `.n64k` is "
       "n = 2^16, where launches decide, not bandwidth.\n\n"
    << "| seed rung | share of its ceiling | rung beyond | share of its ceiling | ceiling | speedup |\n"
       "|---|---|---|---|---|---|\n";
  for (const Pair& p : pairs) {
    const Result* seed = find(results, p.seed_rung);
    const Result* rung = find(results, p.rung);
    if (!rung) continue;
    o << "| `" << p.seed_rung << "` | " << ratio_cell(seed) << " | `" << p.rung << "` | " << ratio_cell(rung) << " | "
      << rung->ceiling << " " << sig3(rung->ceiling_value) << " " << rung->metric << " | "
      << (seed && seed->value > 0 ? sig3(rung->value / seed->value) + "x" : "-") << " |\n";
  }
  if (const std::string sweep = sweep_markdown(results); !sweep.empty())
    o << "\nSize sweep (`kernel-lab bench --sweep`): every memory-bound variant at n = 2^12 .. 2^30 as a share "
         "of its ceiling measured at the same n (CUB's sum for reductions, cudaMemset of the same bytes for "
         "write-only kernels, a device-to-device copy of the same bytes for the rest). Small n shows launch "
         "latency, large n bandwidth; the last column is the smallest n at which the variant reaches "
      << percent(sweep_limit_share) << " of its ceiling.\n\n"
      << sweep;
}

}  // namespace

ClaimVerdict judge_claim(const SeedClaim& c, const std::vector<Result>& results, const Roofline& roofline,
                         const std::vector<Gate>& gates, const std::string& gpu) {
  ClaimVerdict v;
  v.claim = &c;
  v.gate = gate_for(c, gates);
  const Result* a = find(results, c.a);
  const Result* b = c.quantity == ClaimQuantity::speedup ? find(results, c.b) : nullptr;
  if (!a || (c.quantity == ClaimQuantity::speedup && !b)) {
    v.text = "not measured in this run";
    return v;
  }
  v.measured = true;
  if (c.quantity == ClaimQuantity::speedup) {
    v.value = b->value > 0 ? a->value / b->value : NAN;
  } else {
    const double roof = roof_value(roofline, a->roof);
    v.value = roof > 0 ? a->value / roof : NAN;
  }
  v.holds = v.value >= c.holds_from && v.value <= c.holds_to;
  v.finding = c.quantity == ClaimQuantity::speedup
                  ? c.a + " runs at " + figure(c, v.value) + " of " + c.b + ", where the seed says " + figure(c, c.claimed)
                  : c.a + " reaches " + figure(c, v.value) + ", where the seed says " + figure(c, c.claimed);
  if (v.holds)
    v.text = "holds; " + (v.gate ? "gated by " + gate_text(*v.gate) : std::string("not gated"));
  else
    v.text = "**differs** on " + gpu + ": " + v.finding +
             (v.gate ? "; the gate asserts what holds here instead: " + gate_text(*v.gate) : "; not gated");
  return v;
}

std::string lessons_markdown(const std::vector<SeedClaim>& claims, const std::vector<Result>& results,
                             const Roofline& roofline, const std::vector<Gate>& gates, const std::string& gpu,
                             const std::string& arch, const std::string& command) {
  std::ostringstream o;
  o << "<!-- Generated by `" << command << "`. Do not edit by hand: rerun the command. -->\n";
  o << "# Seed lessons, measured\n\n";
  o << "Generated by `" << command << "` on " << gpu << " (" << arch
    << "); never edited by hand. Each row is a quantitative claim of a seed document (../shared/seeds/), the "
       "same quantity measured by the bench, and whether it holds here. The seeds timed other GPUs (000 and 003 an "
       "RTX 5070 Ti) and other sizes (004's reduction ladder: 10^9 ints, blocks of 128); the bench runs matmul at "
       "4096^3 in FP32 and reductions on 2^28 floats (the gated dtype) with blocks of 256, each timed after "
       "validation, with L2 flushed between repetitions.\n\n";
  o << "A speedup claim holds when the first variant is at least " << sig3(1.05)
    << "x the second; a share-of-peak claim when it lies within 25% of the seed's figure. \"gated\" names the gate "
       "in bench/gates.conf that asserts the same comparison on every run of the perf tier.\n\n";
  o << "| seed | the seed says | lesson | seed's figure | measured | verdict |\n|---|---|---|---|---|---|\n";
  std::vector<ClaimVerdict> differing;
  for (const SeedClaim& c : claims) {
    const ClaimVerdict v = judge_claim(c, results, roofline, gates, gpu);
    o << "| " << c.seed.substr(0, 3) << " | " << c.quote << " | " << c.lesson << " | " << figure(c, c.claimed) << " | "
      << (v.measured ? figure(c, v.value) : "-") << " | " << v.text << " |\n";
    if (v.measured && !v.holds) differing.push_back(v);
  }
  if (!differing.empty()) {
    o << "\n## Where " << gpu << " differs from the seeds\n\n";
    for (const ClaimVerdict& v : differing)
      o << "- Seed " << v.claim->seed << ", \"" << v.claim->lesson << "\": " << v.finding << "."
        << (v.gate ? " Gated as it is here: " + gate_text(*v.gate) + "." : "") << "\n";
  }
  ladder_section(o, results, roofline);
  tensor_core_section(o, results, roofline);
  memory_bound_section(o, results);
  return o.str();
}

}  // namespace kl::lessons
