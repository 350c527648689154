// The launch that rungs 02..05 share: each is a shared-memory tree per block ending in one
// atomicAdd, so each needs the same geometry and only its kernel differs.
#include "launchers.hpp"
#include "summation_plan.hpp"

#include "kl/grid.hpp"

namespace kl::reduction {

void launch_shared_tree_rung(const Args& args, cudaStream_t stream, int elems_per_thread, IntRungKernel int_kernel,
                             FloatRungKernel float_kernel) {
  zero_output(args, stream);
  const auto blocks =
      static_cast<unsigned>(plan::shared_tree(args.shape.n, args.shape.block, elems_per_thread).blocks);
  if (blocks == 0) return;
  // One 4-byte int or float of dynamic shared memory per thread: the tree's subArray.
  const std::size_t shared = static_cast<std::size_t>(args.shape.block) * 4;
  const auto n = static_cast<int>(args.shape.n);
  if (args.shape.dtype == Dtype::i32)
    int_kernel<<<blocks, args.shape.block, shared, stream>>>(static_cast<const int*>(args.in),
                                                             static_cast<int*>(args.out), n);
  else
    float_kernel<<<blocks, args.shape.block, shared, stream>>>(static_cast<const float*>(args.in),
                                                               static_cast<float*>(args.out), n);
}

}  // namespace kl::reduction
