// Teaches: tuning. Rung 26's kernel with its block tile, warp tile, depth, stage count, FMA
// order and block rasterisation as template arguments: the candidates below are instantiated,
// `kernel-lab tune matmul.tuned` times each on the GPU at hand and writes the winner for that GPU
// model (and the shape's class: small, large or between) into the reviewed file sgemm_tuning.conf,
// and this rung runs the configuration the file names for the GPU it finds and the shape's class
// (the file is compiled in). Any m, n, k (sgemm_whole_tiles.hpp).
// Goal served: seed 003_2eb1131b3d611900.txt (its promised "part 2" beyond 50% of the peak).
#include "launchers.hpp"
#include "sgemm_h100_config.cuh"
#include "sgemm_prefetched.cuh"

#include "kl/cuda_check.hpp"
#include "kl/matmul.hpp"
#include "kl/sgemm_tuning.hpp"

#include <map>
#include <mutex>
#include <stdexcept>
#include <utility>

namespace kl::matmul {
namespace {

using prefetched::Config;

struct Candidate {
  const char* name;
  TileShape tile;
  WholeTileLaunch launch;
};

template <class Cfg>
Candidate candidate(const char* name) {
  return {name, prefetched::tile_of<Cfg>(), prefetched::launch<Cfg>};
}

// Names: BMxBNxBK_wWMxWN_tTN_sSTAGES_ORDER_gGROUP (block tile, warp tile, columns per lane,
// pipeline stages, FMA order, rasterisation group), and _c1 where C is stored a float at a time
// instead of float4s (sgemm_prefetched.cuh says what each does).
const std::vector<Candidate>& candidates() {
  using enum prefetched::FmaOrder;
  using enum prefetched::CStores;
  static const std::vector<Candidate> list = {
      candidate<Config<128, 128, 8, 32, 64, 2>>("128x128x8_w32x64_t8_s2_rows_g0"),
      candidate<Config<128, 128, 8, 32, 64, 3>>("128x128x8_w32x64_t8_s3_rows_g0"),
      candidate<Config<128, 128, 8, 32, 64, 4>>("128x128x8_w32x64_t8_s4_rows_g0"),
      candidate<Config<128, 128, 8, 64, 32, 3>>("128x128x8_w64x32_t8_s3_rows_g0"),
      candidate<Config<128, 128, 16, 32, 64, 2>>("128x128x16_w32x64_t8_s2_rows_g0"),
      candidate<Config<128, 128, 16, 32, 64, 3>>("128x128x16_w32x64_t8_s3_rows_g0"),
      candidate<Config<128, 128, 16, 32, 64, 2, 8, cols>>("128x128x16_w32x64_t8_s2_cols_g0"),
      candidate<Config<128, 128, 16, 32, 64, 2, 8, snake>>("128x128x16_w32x64_t8_s2_snake_g0"),
      candidate<Config<128, 128, 16, 32, 64, 2, 8, rows, 8>>("128x128x16_w32x64_t8_s2_rows_g8"),
      candidate<Config<128, 128, 16, 32, 64, 2, 8, snake, 8>>("128x128x16_w32x64_t8_s2_snake_g8"),
      candidate<Config<128, 128, 32, 32, 64, 2>>("128x128x32_w32x64_t8_s2_rows_g0"),
      candidate<Config<64, 128, 8, 32, 64, 3>>("64x128x8_w32x64_t8_s3_rows_g0"),
      candidate<Config<64, 128, 16, 32, 64, 2>>("64x128x16_w32x64_t8_s2_rows_g0"),
      candidate<Config<64, 128, 16, 32, 64, 3>>("64x128x16_w32x64_t8_s3_rows_g0"),
      candidate<Config<64, 128, 16, 32, 64, 3, 8, cols>>("64x128x16_w32x64_t8_s3_cols_g0"),
      candidate<Config<64, 128, 16, 32, 64, 3, 8, snake>>("64x128x16_w32x64_t8_s3_snake_g0"),
      candidate<Config<64, 128, 16, 32, 64, 3, 8, interleaved>>("64x128x16_w32x64_t8_s3_interleaved_g0"),
      candidate<Config<64, 128, 16, 32, 64, 3, 8, rows, 8>>("64x128x16_w32x64_t8_s3_rows_g8"),
      candidate<Config<64, 128, 16, 32, 64, 3, 8, cols, 8>>("64x128x16_w32x64_t8_s3_cols_g8"),
      candidate<Config<64, 128, 16, 32, 64, 4>>("64x128x16_w32x64_t8_s4_rows_g0"),
      candidate<Config<64, 128, 16, 32, 64, 3, 8, rows, 0, false, scalars>>("64x128x16_w32x64_t8_s3_rows_g0_c1"),
      candidate<Config<64, 128, 16, 32, 64, 3, 8, cols, 0, false, scalars>>("64x128x16_w32x64_t8_s3_cols_g0_c1"),
      candidate<Config<64, 128, 16, 32, 64, 3, 8, snake, 0, false, scalars>>("64x128x16_w32x64_t8_s3_snake_g0_c1"),
      candidate<Config<64, 128, 16, 32, 64, 3, 8, interleaved, 0, false, scalars>>(
          "64x128x16_w32x64_t8_s3_interleaved_g0_c1"),
      candidate<Config<64, 128, 16, 32, 64, 4, 8, interleaved, 0, false, scalars>>(
          "64x128x16_w32x64_t8_s4_interleaved_g0_c1"),
      candidate<prefetched::H100Tuned>(prefetched::h100_tuned_name),
      candidate<Config<64, 128, 16, 32, 64, 4, 8, snake_cols, 0, false, scalars>>(
          "64x128x16_w32x64_t8_s4_snakecols_g0_c1"),
      candidate<prefetched::H100TunedLarge>(prefetched::h100_tuned_large_name),
      candidate<Config<128, 128, 16, 32, 64, 3, 8, snake, 0, false, scalars>>("128x128x16_w32x64_t8_s3_snake_g0_c1"),
      candidate<Config<64, 128, 16, 32, 64, 4, 8, cols>>("64x128x16_w32x64_t8_s4_cols_g0"),
      candidate<Config<64, 128, 32, 32, 64, 2>>("64x128x32_w32x64_t8_s2_rows_g0"),
      candidate<Config<64, 64, 16, 32, 64, 3>>("64x64x16_w32x64_t8_s3_rows_g0"),
      candidate<Config<128, 64, 16, 64, 32, 3>>("128x64x16_w64x32_t8_s3_rows_g0"),
      candidate<Config<256, 128, 16, 32, 64, 3>>("256x128x16_w32x64_t8_s3_rows_g0"),
      candidate<Config<128, 128, 16, 64, 64, 2, 16>>("128x128x16_w64x64_t16_s2_rows_g0"),
      candidate<Config<128, 128, 16, 64, 64, 2, 16, cols>>("128x128x16_w64x64_t16_s2_cols_g0"),
      candidate<Config<128, 256, 16, 64, 64, 2, 16>>("128x256x16_w64x64_t16_s2_rows_g0"),
      candidate<Config<64, 256, 16, 32, 128, 3, 16>>("64x256x16_w32x128_t16_s3_rows_g0"),
  };
  return list;
}

const Candidate& find(const std::string& name) {
  for (const Candidate& c : candidates())
    if (name == c.name) return c;
  throw std::invalid_argument("unknown matmul.tuned config '" + name + "' (see kernel-lab tune matmul.tuned)");
}

constexpr const char* tuning_text =
#include "sgemm_tuning_conf.inc"
    ;

std::mutex mutex;
const Candidate* forced = nullptr;  // use_tuned_config()

// The config the tuning file names for the current device and the shape's class, looked up once
// per device and class, unless use_tuned_config() forced one.
const Candidate& in_use(const Shape& shape) {
  static std::map<std::pair<int, tuning::ShapeClass>, const Candidate*> chosen;
  const std::lock_guard<std::mutex> lock(mutex);
  if (forced) return *forced;
  int device = 0;
  KL_CUDA_CHECK(cudaGetDevice(&device));
  const tuning::ShapeClass shape_class = tuning::shape_class_of(shape.m, shape.n);
  if (const auto it = chosen.find({device, shape_class}); it != chosen.end()) return *it->second;
  cudaDeviceProp prop{};
  KL_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  const std::string config =
      tuning::config_for(tuning::parse(tuning_text, tuned_config_names()), prop.name, shape_class);
  return *(chosen[{device, shape_class}] = &find(config));
}

}  // namespace

// Every candidate's tiles divide these, so one rule covers whichever config a GPU uses.
const TileShape tuned_tile_bound{256, 256, 32};

std::vector<std::string> tuned_config_names() {
  std::vector<std::string> names;
  for (const Candidate& c : candidates()) names.emplace_back(c.name);
  return names;
}

std::string tuning_file_text() { return tuning_text; }

std::string tuned_config_in_use(const Shape& shape) { return in_use(shape).name; }

std::string use_tuned_config(std::string config) {
  const Candidate* c = config.empty() ? nullptr : &find(config);
  const std::lock_guard<std::mutex> lock(mutex);
  const std::string before = forced ? forced->name : "";
  forced = c;
  return before;
}

void launch_tuned(const Args& args, cudaStream_t stream) {
  const Candidate& c = in_use(args.shape);
  launch_whole_tiles(args, stream, c.tile, c.launch);
}

}  // namespace kl::matmul
