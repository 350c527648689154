#include "kl/matmul_ladders.hpp"

namespace kl::matmul {

const std::vector<LadderRung>& sgemm_ladder() {
  static const std::vector<LadderRung> rungs = {
      {"tiled_32", "FMA pipe 15.7% busy; 20 MIO-throttle stalls per issued instruction: one shared load per FMA"},
      {"block_tile_1d", "MIO-throttle stalls 20 -> 2.1 per issue (a B value feeds 8 FMAs); FMA pipe 15.7% -> 26.7%"},
      {"block_tile_2d", "MIO-throttle stalls 2.1 -> 0.18 per issue (64 FMAs per 16 shared loads); FMA pipe 26.7% -> 49%"},
      {"vectorized", "a quarter of the load instructions (float4); issue slots 55% -> 60%, FMA pipe 49% -> 54%"},
      {"conflict_free", "shared-load bank conflicts 268 M -> 0.03 M; FMA pipe 54% -> 60%"},
      {"warp_tile", "no gain: L1 throughput 59% either way (an LDS.128 costs the same wavefronts however many "
                    "lanes share an address); FMA pipe 60%"},
      {"cp_async_pipeline", "global-load stalls 0.91 -> 0.04 and barrier stalls 0.84 -> 0.32 per issue; FMA pipe "
                            "60% -> 63%"},
      {"register_prefetch", "issue slots 71% -> 80% (operands loaded a step ahead); FMA pipe 63% -> 71%"},
      {"tuned", "64x128x16 tiles, 4 stages, the snake FMA order, C stored a float at a time (the accumulators "
                "freed of float4 quads: 70 register-bank collisions a tile, 170 before): issue slots 80% -> 89% "
                "(cuBLAS: 90%)"},
      {"split_k", "at 4096^3 rung 27's kernel (2048 tiles, no split); at 512x512x8192 32 tiles -> 512 blocks of 32 k "
                  "tiles: ncu 416 -> 95 us plus 8.8 us adding the partials, SM throughput 17% -> 79%"},
      {"stream_k", "4096^3: 464 tiles past 3 whole rounds dealt out first as shares of 225 k tiles to all 528 slots, "
                   "each walked from its end so that all read nearby k tiles, the last ticket's holder adding each "
                   "shared tile's 2 pieces: ncu 2.68 -> 2.63 ms, DRAM reads 0.98 -> 1.08 GB (1.90 walked from the "
                   "start), L2 hit rate 74% -> 85%, 84 register-bank collisions a tile against 70"},
  };
  return rungs;
}

const std::vector<LadderRung>& tensor_core_ladder() {
  static const std::vector<LadderRung> rungs = {
      {"wmma_global", "tensor pipe 4.4% busy, L1 throughput 99.9%: every fragment comes from global memory through L1; "
                      "occupancy 96%"},
      {"wmma_shared", "tensor pipe 4.4% -> 18%, L1 99.9% -> 40%; 8.9 M shared-store and 0.34 M shared-load bank "
                      "conflicts (16-byte stores into 80-byte rows); occupancy 24% (125 registers)"},
      {"mma_sync_pipeline", "tensor pipe 18% -> 64%; store conflicts 8.9 M -> 0, load conflicts 0.34 M -> 0.10 M (the "
                            "XOR swizzle); 126 registers, two blocks an SM"},
      {"wgmma_tma", "tensor pipe 64% -> 86% (HGMMA reads shared memory itself: no ldmatrix), bank conflicts 0; "
                    "occupancy 14% (one 384-thread block an SM, 168 registers)"},
      {"wgmma_persistent", "tensor pipe 85% -> 88%, SM active cycles 299 k -> 289 k: no block launch, barrier set-up or "
                           "ring refill per tile; the next tile's stages load while C is stored"},
      {"wgmma_tma_store", "tensor pipe 88% -> 91%, duration 196 -> 189 us: C leaves through shared memory and TMA "
                          "stores while the tensor cores start the next tile (0.6 M shared-store conflicts: 2-way in "
                          "each half-warp's 8-byte stores)"},
      {"wgmma_stream_k", "at 4096^3 rung 35's plan (whole tiles); at 1024 x 1024 x 16384 128 blocks in aligned "
                         "quarter-tiles instead of 32 whole tiles: ncu 152 -> 58 us, tensor pipe 71%; off the tile no "
                         "padded copies (4000^3: 0.73x -> 0.98x GemmEx)"},
      {"wgmma_multicast", "at 8192^3 L2 bytes 11.56 -> 10.94 GB, L2 throughput 73% -> 66%, SM clock 1.50 -> 1.51 GHz "
                          "at the power cap, 1.48 -> 1.46 ms; at 4096^3 192.96 us both: clusters where each walks three "
                          "pairs of tiles or more, elsewhere rung 36"},
  };
  return rungs;
}

const SweepShape& tensor_core_large_shape() {
  static const SweepShape shape{8192, 8192, 8192};
  return shape;
}

const std::vector<SweepShape>& tensor_core_sweep_shapes() {
  static const std::vector<SweepShape> shapes = {
      {2048, 2048, 2048}, {4096, 4096, 1024}, {1024, 1024, 16384},
      {8192, 1024, 4096}, {1024, 8192, 4096}, {4000, 4000, 4000},
  };
  return shapes;
}

const std::vector<std::string>& tensor_core_swept_rungs() {
  static const std::vector<std::string> rungs = {"wgmma_tma", "wgmma_persistent", "wgmma_tma_store", "wgmma_stream_k", "wgmma_multicast"};
  return rungs;
}

std::string SweepShape::tag() const {
  return "m" + std::to_string(m) + "_n" + std::to_string(n) + "_k" + std::to_string(k);
}

std::string SweepShape::text() const {
  return "m=" + std::to_string(m) + " n=" + std::to_string(n) + " k=" + std::to_string(k);
}

const std::vector<SweepShape>& sgemm_sweep_shapes() {
  static const std::vector<SweepShape> shapes = {
      {1024, 1024, 1024}, {2048, 2048, 2048}, {8192, 8192, 8192},
      {4096, 4096, 1024}, {8192, 1024, 4096}, {1024, 8192, 4096}, {512, 512, 8192},
  };
  return shapes;
}

}  // namespace kl::matmul
