// Two wrong kernels declared as clean (Role::teaching) in a kit family of their own: the derived
// tests (harness/derived/) must fail on each, naming the case and its replay. This is what proves
// DerivedShapes and DerivedProperty can fail; kl.derived.*_bite (tests/derived/CMakeLists.txt)
// assert it. Only this test program holds the family.
#include "kit.cuh"

using kl::kit::Call;
using kl::kit::HostCall;
using kl::kit::Vector;

namespace {

// Element 0 is one too large: a wrong value on every shape that has an element.
__global__ void wrong_value(Call<Vector> c) {
  const std::int64_t i = kl::kit::element();
  if (i < c.shape.n) c.out[i] = c.a * c.in[0][i] + (i == 0 ? 1.0f : 0.0f);
}

// The guard stops one short: the last element is never written (it keeps the poison).
__global__ void skips_last(Call<Vector> c) {
  const std::int64_t i = kl::kit::element();
  if (i < c.shape.n - 1) c.out[i] = c.a * c.in[0][i];
}

void scale_oracle(const HostCall<Vector>& h) {
  for (std::size_t i = 0; i < h.out.size(); ++i) h.out[i] = h.a * h.in[0][i];
}

}  // namespace

KL_KIT_FAMILY(derived_bites, kl::kit::FamilySpec<Vector>{
    .name = "derived_bites", .inputs = 1, .scalar = true, .bench_shape = {1 << 20, 256},
    .variants = {
        {"wrong_value", "element 0 one too large", wrong_value, scale_oracle, {8, 1}},
        {"skips_last", "the last element never written", skips_last, scale_oracle, {8, 1}},
    }})
