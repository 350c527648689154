// Wrong kernels declared as clean (Role::teaching) in a kit family of their own, joined from three
// parts: the derived tests (harness/derived/) must fail on each, naming the case and its replay.
// This is what proves DerivedShapes and DerivedProperty can fail, on a wrong value, an element
// never written, a write where the oracle wants the poison kept (a strided writer's gap) and an
// in-place update skipped; kl.derived.*_bite (tests/derived/CMakeLists.txt) assert it. Only this
// test program holds the family.
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

// Writes i to out[2i] of an output of 2n, and (the bug) 0 to the gap out[2i+1] it must not touch.
__global__ void writes_gap(Call<Vector> c) {
  const std::int64_t i = kl::kit::element();
  if (i >= c.shape.n) return;
  c.out[2 * i] = static_cast<float>(i);
  c.out[2 * i + 1] = 0.0f;
}

void strided_oracle(const HostCall<Vector>& h) {
  for (std::size_t i = 0; i < h.out.size(); ++i)
    h.out[i] = i % 2 == 0 ? static_cast<float>(i / 2) : kl::kit::untouched<float>();
}

// x += y in place (the output starts as x), but the last element is skipped: it keeps x.
__global__ void in_place_skips_last(Call<Vector> c) {
  const std::int64_t i = kl::kit::element();
  if (i < c.shape.n - 1) c.out[i] += c.in[1][i];
}

void sum_oracle(const HostCall<Vector>& h) {
  for (std::size_t i = 0; i < h.out.size(); ++i) h.out[i] = h.in[0][i] + h.in[1][i];
}

kl::kit::FamilySpec<Vector> scaled() {
  return {.name = "derived_bites", .inputs = 1, .scalar = true, .bench_shape = {1 << 20, 256},
          .variants = {{"wrong_value", "element 0 one too large", wrong_value, scale_oracle, {8, 1}},
                       {"skips_last", "the last element never written", skips_last, scale_oracle, {8, 1}}}};
}

kl::kit::FamilySpec<Vector> strided() {
  kl::kit::FamilySpec<Vector> s{.name = "derived_bites", .inputs = 0, .bench_shape = {1 << 20, 256},
                                .variants = {{"writes_gap", "writes the gaps it must leave", writes_gap, strided_oracle, {8, 0}}}};
  s.outputs = [](const Vector& v) { return 2 * v.n; };
  return s;
}

kl::kit::FamilySpec<Vector> in_place() {
  kl::kit::FamilySpec<Vector> s{
      .name = "derived_bites", .inputs = 2, .bench_shape = {1 << 20, 256},
      .variants = {{"in_place_skips_last", "x += y, the last element skipped", in_place_skips_last, sum_oracle, {12, 1}}}};
  s.output_from_input = 0;
  return s;
}

}  // namespace

KL_KIT_FAMILY(derived_bites, kl::kit::Joined{"derived_bites", {&kl::kit::part(scaled()), &kl::kit::part(strided()),
                                                                &kl::kit::part(in_place())}})
