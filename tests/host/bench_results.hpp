// Hand-made bench results for the host tier's report and lessons tests: an H100's attributes
// and a result with every field the reports print. No GPU.
#pragma once

#include "core/report.hpp"

#include <string>

namespace kl::test {

// What an H100 80GB HBM3 (SXM) reports through cudaDeviceGetAttribute.
inline kl::bench::DeviceAttributes h100() {
  kl::bench::DeviceAttributes d;
  d.name = "NVIDIA H100 80GB HBM3";
  d.cc_major = 9;
  d.cc_minor = 0;
  d.sm_count = 132;
  d.sm_clock_khz = 1980000;
  d.mem_clock_khz = 2619000;
  d.bus_width_bits = 5120;
  d.l2_bytes = 50331648;
  return d;
}

inline bench::Result make(const std::string& family, const std::string& variant, const std::string& dtype, double value,
                          const std::string& metric, const std::string& ceiling, double ceiling_value,
                          bench::Roof roof) {
  bench::Result r;
  r.family = family;
  r.variant = variant;
  r.dtype = dtype;
  r.shape = "n=4";
  r.metric = metric;
  r.value = value;
  r.median_ms = 1.5;
  r.min_ms = 1.25;
  r.max_ms = 2;
  r.reps = 7;
  r.runs_ms = {2, 1.5, 1.25, 1.5, 1.5, 1.75, 1.25};  // median 1.5, min 1.25, max 2
  r.ceiling = ceiling;
  r.ceiling_value = ceiling_value;
  r.intensity = 0.25;
  r.roof = roof;
  return r;
}

}  // namespace kl::test
