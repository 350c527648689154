// The matmul bench's inputs and how it times one case (bench_timing.hpp): used by the bench
// (family.cpp) and by `kernel-lab tune` (tune_command.cpp).
#include "bench_timing.hpp"

namespace kl::cli {

void MatmulInputs::build(const matmul::Shape& s) {
  if (ready) return;
  shape = s;
  a = DeviceBuffer<float>(static_cast<std::size_t>(shape.m * shape.k));
  b = DeviceBuffer<float>(static_cast<std::size_t>(shape.k * shape.n));
  c = DeviceBuffer<float>(static_cast<std::size_t>(shape.m * shape.n));
  matmul::fill_device_inputs(a.data(), a.size(), matmul::Data::random, seed);
  matmul::fill_device_inputs(b.data(), b.size(), matmul::Data::random, seed + 1);
  ready = true;
}

const matmul::DeviceReference& MatmulInputs::reference_for(matmul::InputPrecision p) {
  auto it = reference.find(p);
  if (it != reference.end()) return it->second;
  return reference[p] = matmul::device_reference(a.data(), b.data(), nullptr, shape, p);
}

TimingSummary time_as_benched(const BenchCase& c, const matmul::Variant& v, MatmulInputs& in, Bench& ctx) {
  const matmul::Args args{in.a.data(), in.b.data(), nullptr, in.c.data(), in.shape};
  // Setup is not the kernel's cost: B transposed (uncoalesced) or A and B in FP16 (GemmEx) are
  // staged once here, and only the kernel is timed.
  v.stage_inputs(args);
  // Every case and its library reference start on an idle GPU's power budget, so a rung is not
  // read after the power its predecessors spent against a reference that was not. Without it the
  // tensor-core cases read up to 12% low, and the FP32 ratios at 1024^3 11% high: cuBLAS there was
  // timed right after the tensor-core rungs (TENSOR_CORE_LADDER.md, SGEMM_LADDER.md).
  ctx.cool_down();
  const matmul::DeviceReference& want = in.reference_for(v.precision);
  return ctx.validated_timing(
      c, [&](cudaStream_t s) { poison_words(in.c.data(), in.c.size(), s); },
      [&](cudaStream_t s) { v.launch_kernel(args, s); }, [&] { return BenchCheck{matmul::compare_on_device(in.c.data(), want)}; },
      output_bytes(in.c));
}

}  // namespace kl::cli
