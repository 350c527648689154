// The fixture of kl.ci.wgmma_pipeline_guard: two wgmma shapes on one accumulator array, m64n16k16
// on 8 of m64n32k16's 16 registers, then m64n32k16 on all 16. SLICE is where the 8 start: at 0
// ptxas keeps the pipeline; at 8 it reports the kernel's wgmmas serialised (its C7511 "info").
#include <cstdint>
template <int at>
__device__ __forceinline__ void mma_n16(float (&d)[16], std::uint64_t a, std::uint64_t b) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p, 1, 1, 0, 1;\n}\n"
               : "+f"(d[at]), "+f"(d[at + 1]), "+f"(d[at + 2]), "+f"(d[at + 3]), "+f"(d[at + 4]), "+f"(d[at + 5]),
                 "+f"(d[at + 6]), "+f"(d[at + 7])
               : "l"(a), "l"(b));
}
__device__ __forceinline__ void mma_n32(float (&d)[16], std::uint64_t a, std::uint64_t b) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, "
               "%12, %13, %14, %15}, %16, %17, p, 1, 1, 0, 1;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                 "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
               : "l"(a), "l"(b));
}
__global__ void two_shapes(float* out, std::uint64_t a, std::uint64_t b) {
  float d[16] = {};
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  mma_n16<SLICE>(d, a, b);
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  mma_n32(d, a, b);
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  for (int i = 0; i < 16; ++i) out[threadIdx.x * 16 + i] = d[i];
}
