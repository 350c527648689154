// The physical roofline of a GPU, from its device attributes, and the check that rejects a
// measurement faster than physics allows (a harness error: wrong byte count, timing or cache).
#pragma once

#include "result.hpp"

#include <stdexcept>
#include <string>

namespace kl::bench {

// What cudaDeviceGetAttribute reports (cudaDeviceProp lost its clock fields in CUDA 13).
struct DeviceAttributes {
  std::string name;
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  double sm_clock_khz = 0;   // cudaDevAttrClockRate: the peak (boost) SM clock
  double mem_clock_khz = 0;  // cudaDevAttrMemoryClockRate: the peak memory clock
  int bus_width_bits = 0;    // cudaDevAttrGlobalMemoryBusWidth
  double l2_bytes = 0;       // cudaDevAttrL2CacheSize
};

struct Roofline {
  double dram_gbps = 0;            // 2 (double data rate) x memory clock x bus width
  double fp32_tflops = 0;          // SMs x FP32 lanes per SM x 2 (an FMA is two operations) x clock
  double fp16_tensor_tflops = 0;   // SMs x dense FP16 tensor FLOP per clock per SM x clock
  double int32_tops = 0;           // SMs x 128 x 2 x clock: see int32_ops_per_clock_per_sm
  std::string fp16_tensor_basis;   // how the tensor-core figure was obtained, for the report
};

// "sm_90" for compute capability 9.0.
std::string arch_name(int cc_major, int cc_minor);

// FP32 add/multiply/FMA lanes per SM per clock (CUDA C Programming Guide, throughput of native
// arithmetic instructions). Unknown architectures get 128, the most any listed one has.
int fp32_lanes_per_sm(int cc_major, int cc_minor);

// Dense FP16-input, FP32-accumulate tensor FLOP per clock per SM, derived from NVIDIA's
// published dense peaks divided by (SMs x boost clock): V100 125 TFLOPS / (80 x 1.53 GHz) = 1024,
// A100 312 / (108 x 1.41) = 2048, H100 SXM 989 / (132 x 1.83) = 4096, B200 about 8192; consumer
// parts (Turing, GA10x, AD10x, GB20x) 1024, their FP32-accumulate rate being at most that.
// Unknown architectures get 8192, the largest known, so the check stays a true upper bound.
int fp16_tensor_flops_per_clock_per_sm(int cc_major, int cc_minor);

// An issue bound, not a datasheet figure: an SM's 4 schedulers issue at most one 32-lane
// instruction each per clock, so no integer multiply-add stream exceeds 128 lanes per clock.
inline constexpr int int32_ops_per_clock_per_sm = 128;

Roofline roofline_of(const DeviceAttributes& device);

// A result above roof x (1 + tolerance) is rejected. 5% absorbs the rounding of the reported
// clocks and the few bytes a byte count leaves out; any real harness error is far larger.
inline constexpr double roofline_tolerance = 0.05;

// The roof that applies to `r` (in r.metric units).
double roof_value(const Roofline& roofline, Roof roof);
std::string roof_name(Roof roof);

class HarnessError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws HarnessError naming the result, the measurement, the roof and the tolerance when
// r.value > roof x (1 + roofline_tolerance). A roof of 0 (unknown) is not checked.
void check_against_roofline(const Result& r, const Roofline& roofline);

}  // namespace kl::bench
