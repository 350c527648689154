// Bench hook of the riemann family: G intervals/s of the left Riemann sum over 2^27 intervals,
// each rung read against the warp-optimised rung measured in the same process (the seed's
// fastest design: one atomicAdd per warp). The work is FP64 exp and sin per interval, whose
// operation count depends on the argument, so there is no honest FLOP count and no physical
// roof to hold it against (Roof::none): the ratio to the in-process rung is what is gated.
#include "bench_hook.hpp"

#include "kl/riemann.hpp"

namespace kl::cli {
namespace {

constexpr std::int64_t bench_n = std::int64_t{1} << 27;
constexpr int bench_block = 256;
constexpr const char* ceiling_rung = "warp_optimised";

struct RiemannInput {
  bool ready = false;
  riemann::Oracle want;
  DeviceBuffer<double> sum{1};

  void build() {
    if (ready) return;
    want = riemann::oracle(bench_n);  // n host evaluations, once per process
    ready = true;
  }
};

}  // namespace

std::vector<BenchCase> riemann_bench_cases() { return cases_of<riemann::Variant>("riemann", riemann::variants()); }

bench::Result riemann_bench_measure(const BenchCase& c, Bench& ctx) {
  const riemann::Variant& v = riemann::variant(c.variant);
  RiemannInput& in = ctx.state<RiemannInput>("riemann");
  in.build();
  const riemann::Args args{in.sum.data(), {bench_n, bench_block}};
  const TimingSummary t = ctx.validated_timing(
      c, [&](cudaStream_t s) { poison_words(in.sum.data(), 2, s); }, [&](cudaStream_t s) { v.launch(args, s); },
      [&] { return riemann::compare_sum(in.sum.download()[0], in.want); });
  bench::Result r = throughput_result(c, "n=2^27 block=" + std::to_string(bench_block), t, 0, "Gintervals/s",
                                      bench::Roof::none, 0);
  r.value = t.median_ms > 0 ? static_cast<double>(bench_n) / (t.median_ms * 1e6) : 0;
  const std::string ceiling = std::string("riemann.") + ceiling_rung;
  const char* how = "the warp-optimised Riemann rung over 2^27 intervals";
  r.ceiling = ceiling;
  if (c.variant == ceiling_rung) {
    r.ceiling_value = r.value;
    ctx.offer_ceiling(ceiling, "Gintervals/s", how, r.value);
  } else {
    r.ceiling_value = ctx.ceiling(ceiling, "Gintervals/s", how,
                                  [&] { return riemann_bench_measure({"riemann", ceiling_rung, "", "", "", 0}, ctx).value; });
  }
  return r;
}

}  // namespace kl::cli
