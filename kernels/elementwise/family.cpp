// The elementwise family as the harness sees it: declared with the kit (kit.hpp) over the
// family's own table (registry.cpp), so `run`, `bench` and `bench --sweep` are the kit's.
// Each variant keeps its seed kernel and launcher (Args, its own grid); the kit hands it the
// inputs and output, checks the table's rule first and compares every element with the oracle:
// add bit for bit (binary32 addition), exp within kl::bounds::expf_max_ulp of exp in double.
// run: --n N --block B --seed S --reps R. bench: GB/s of bytes read plus written over 2^26 floats
// (256 MiB an array, five times the H100's L2) against the device-to-device copy; `bench --sweep`
// at n = 2^12 .. 2^30, each against a copy of the same bytes at that n. Inputs are uniform in
// [-87, 88], where exp stays finite and normal (add is exact at any input).
#include "kit.hpp"

#include "kl/elementwise.hpp"
#include "kl/error_bounds.hpp"

#include <vector>

namespace kl::elementwise {
namespace {

using kit::Call;
using kit::HostCall;
using kit::Vector;

// The family's oracle (expected_value), rounded to the float the kit compares with.
template <Op op>
void oracle_of(const HostCall<Vector>& h) {
  for (std::size_t i = 0; i < h.out.size(); ++i) h.out[i] = static_cast<float>(expected_value(op, h.in[0][i], h.in[1][i]));
}

// One table entry as the kit declares it: the same name, seed, lesson, role and findings; the
// table's rule and launcher; add reads two arrays and writes one (12 bytes an element), exp reads
// one (8 bytes); one operation an element.
kit::KernelVariant<Vector> declared(const Variant& v) {
  const bool add = v.op == Op::add;
  kit::KernelVariant<Vector> k;
  k.name = v.info.name;
  k.lesson = v.info.lesson;
  k.oracle = add ? oracle_of<Op::add> : oracle_of<Op::exp>;
  k.work = {add ? 12.0 : 8.0, 1.0};
  k.role = v.info.role;
  k.findings = v.info.findings;
  k.ulps = add ? 0 : bounds::expf_max_ulp;
  k.launch = [&v, add](const Call<Vector>& c, cudaStream_t stream) {
    v.raw_launch({c.in[0], add ? c.in[1] : c.in[0], c.out, {c.shape.n, c.shape.block}}, stream);
  };
  k.rule = [&v](const Vector& s) { return v.unsupported({s.n, s.block}); };
  k.seed = v.info.seed_file;
  k.seed_kernel = v.info.seed_kernel;
  return k;
}

kit::FamilySpec<Vector> spec() {
  kit::FamilySpec<Vector> s{.name = "elementwise", .inputs = 2, .bench_shape = {std::int64_t{1} << 26, 256}};
  for (const Variant& v : variants()) s.variants.push_back(declared(v));
  s.input_range = {-87.0f, 88.0f};
  s.sweep = true;
  return s;
}

}  // namespace
}  // namespace kl::elementwise

KL_KIT_FAMILY(elementwise, elementwise::spec())
