// Teaches: dynamic parallelism, a kernel launching kernels (needs -rdc=true). PLANTED BUG, kept
// as written: qs_part swaps the pivot away from x[l] and then overwrites x[left] with it, so
// an element is lost whenever x[left] is not the pivot: {5, 8, 3} becomes {3, 5, 5}.
// Seed: 004_f92a7ab1d28b5b9a.txt, kernels `qs_gpu` and `qs_part`.
#include "launchers.hpp"

namespace kl::quicksort {
namespace {

__device__ void gpu_swap(int* a, int* b) {
  int t = *a;
  *a = *b;
  *b = t;
}

__device__ int qs_part(int *x, int l, int r) {
  int pivot_val = x[l];
  int left = l;
  for (int i = l + 1; i < r; i++) {
    if (x[i] < pivot_val) {
      gpu_swap(&x[i], &x[left]);
      left++;
    }
  }
  x[left] = pivot_val;
  return left;
}

__global__ void qs_gpu(int* x, int l, int r) {
  if (l < r) {
    int piv_id = qs_part(x, l, r);
    qs_gpu<<<1,1>>>(x, l, piv_id);
    qs_gpu<<<1,1>>>(x, piv_id+1, r);
  }
}

}  // namespace

void launch_qs_gpu_seed(const Args& args, cudaStream_t stream) {
  if (args.shape.n == 0) return;
  reserve_pending_launches(2 * static_cast<std::size_t>(seed_max_n) + 2);
  qs_gpu<<<1, 1, 0, stream>>>(args.data, 0, static_cast<int>(args.shape.n));
}

}  // namespace kl::quicksort
