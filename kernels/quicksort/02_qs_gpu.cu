// Teaches: CDP2 recursion that cannot fail: a correct Lomuto partition (the pivot is swapped
// into place, never overwritten), children as fire-and-forget launches (CDP2 has no device-side
// cudaDeviceSynchronize; a parent grid completes only after its children), and a depth cap:
// past max_launch_depth, or if a launch is refused, the range is heapsorted in this thread.
// Seed: 004_f92a7ab1d28b5b9a.txt, kernels `qs_gpu` and `qs_part` (fixed).
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
      left++;
      gpu_swap(&x[i], &x[left]);
    }
  }
  gpu_swap(&x[l], &x[left]);
  return left;
}

// The fallback when recursion must stop: O(m log m) and no further launches.
__device__ void sift_down(int* x, int root, int end) {
  while (2 * root + 1 < end) {
    int child = 2 * root + 1;
    if (child + 1 < end && x[child] < x[child + 1]) ++child;
    if (!(x[root] < x[child])) return;
    gpu_swap(&x[root], &x[child]);
    root = child;
  }
}

__device__ void heap_sort(int* x, int l, int r) {
  int* a = x + l;
  const int m = r - l;
  for (int i = m / 2 - 1; i >= 0; --i) sift_down(a, i, m);
  for (int end = m - 1; end > 0; --end) {
    gpu_swap(&a[0], &a[end]);
    sift_down(a, 0, end);
  }
}

__global__ void qs_gpu(int* x, int l, int r, int depth) {
  if (l < r) {
    if (depth >= max_launch_depth) {
      heap_sort(x, l, r);
      return;
    }
    int piv_id = qs_part(x, l, r);
    qs_gpu<<<1, 1, 0, cudaStreamFireAndForget>>>(x, l, piv_id, depth + 1);
    if (cudaGetLastError() != cudaSuccess) heap_sort(x, l, piv_id);
    qs_gpu<<<1, 1, 0, cudaStreamFireAndForget>>>(x, piv_id + 1, r, depth + 1);
    if (cudaGetLastError() != cudaSuccess) heap_sort(x, piv_id + 1, r);
  }
}

}  // namespace

void launch_qs_gpu(const Args& args, cudaStream_t stream) {
  if (args.shape.n == 0) return;
  reserve_pending_launches(static_cast<std::size_t>(pending_launch_limit));
  qs_gpu<<<1, 1, 0, stream>>>(args.data, 0, static_cast<int>(args.shape.n), 0);
}

}  // namespace kl::quicksort
