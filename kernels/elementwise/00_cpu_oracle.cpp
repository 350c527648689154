// Variant 0 of the family: the CPU oracle run on device buffers, so the reference goes through
// the same registry, launcher and checks as every kernel.
#include "launchers.hpp"

#include "kl/device_buffer.hpp"
#include "kl/elementwise.hpp"

#include <vector>

namespace kl::elementwise {
namespace {

std::vector<float> download(const float* p, std::int64_t n) {
  std::vector<float> host(static_cast<std::size_t>(n));
  if (n > 0) KL_CUDA_CHECK(cudaMemcpy(host.data(), p, host.size() * sizeof(float), cudaMemcpyDeviceToHost));
  return host;
}

void run_oracle(Op op, const Args& args, cudaStream_t stream) {
  KL_CUDA_CHECK(cudaStreamSynchronize(stream));
  Inputs in{download(args.a, args.shape.n), {}};
  if (op == Op::add) in.b = download(args.b, args.shape.n);
  const std::vector<double> want = oracle(op, in);
  const std::vector<float> out(want.begin(), want.end());
  if (!out.empty())
    KL_CUDA_CHECK(cudaMemcpy(args.out, out.data(), out.size() * sizeof(float), cudaMemcpyHostToDevice));
}

}  // namespace

void launch_cpu_oracle_add(const Args& args, cudaStream_t stream) { run_oracle(Op::add, args, stream); }
void launch_cpu_oracle_exp(const Args& args, cudaStream_t stream) { run_oracle(Op::exp, args, stream); }

}  // namespace kl::elementwise
