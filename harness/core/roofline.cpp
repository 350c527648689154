#include "roofline.hpp"

#include "format.hpp"

namespace kl::bench {

std::string arch_name(int cc_major, int cc_minor) {
  return "sm_" + std::to_string(cc_major) + std::to_string(cc_minor);
}

int fp32_lanes_per_sm(int cc_major, int cc_minor) {
  if (cc_major == 6 && cc_minor == 0) return 64;  // P100
  if (cc_major == 7) return 64;                   // Volta, Turing
  if (cc_major == 8 && cc_minor == 0) return 64;  // A100
  return 128;                                     // GA10x, AD10x, Hopper, Blackwell, Maxwell
}

int fp16_tensor_flops_per_clock_per_sm(int cc_major, int cc_minor) {
  const int cc = cc_major * 10 + cc_minor;
  switch (cc) {
    case 70: return 1024;
    case 72: return 1024;
    case 75: return 1024;
    case 80: return 2048;
    case 86: case 87: case 89: return 1024;
    case 90: return 4096;
    case 100: case 103: return 8192;
    case 120: case 121: return 1024;
    default: return 8192;
  }
}

Roofline roofline_of(const DeviceAttributes& d) {
  Roofline r;
  const double sm_hz = d.sm_clock_khz * 1e3;
  r.dram_gbps = 2.0 * d.mem_clock_khz * 1e3 * (d.bus_width_bits / 8.0) / 1e9;
  r.fp32_tflops = d.sm_count * fp32_lanes_per_sm(d.cc_major, d.cc_minor) * 2.0 * sm_hz / 1e12;
  const int tensor = fp16_tensor_flops_per_clock_per_sm(d.cc_major, d.cc_minor);
  r.fp16_tensor_tflops = d.sm_count * static_cast<double>(tensor) * sm_hz / 1e12;
  r.int32_tops = d.sm_count * int32_ops_per_clock_per_sm * 2.0 * sm_hz / 1e12;
  r.fp16_tensor_basis = std::to_string(tensor) + " dense FP16 FLOP per clock per SM for " +
                        arch_name(d.cc_major, d.cc_minor) +
                        " (published dense peak / (SMs x boost clock)) at the reported peak clock";
  return r;
}

double roof_value(const Roofline& roofline, Roof roof) {
  switch (roof) {
    case Roof::dram_bandwidth: return roofline.dram_gbps;
    case Roof::fp32: return roofline.fp32_tflops;
    case Roof::fp16_tensor: return roofline.fp16_tensor_tflops;
    case Roof::int32: return roofline.int32_tops;
    case Roof::none: return 0;
  }
  return 0;
}

std::string roof_name(Roof roof) {
  switch (roof) {
    case Roof::dram_bandwidth: return "dram_peak";
    case Roof::fp32: return "fp32_peak";
    case Roof::fp16_tensor: return "fp16_tensor_peak";
    case Roof::int32: return "int32_issue_bound";
    case Roof::none: return "none";
  }
  return "?";
}

void check_against_roofline(const Result& r, const Roofline& roofline) {
  const double roof = roof_value(roofline, r.roof);
  if (roof <= 0) return;
  const double limit = roof * (1.0 + roofline_tolerance);
  if (r.value > limit)
    throw HarnessError("harness error: " + r.key() + " measured " + fixed(r.value, 2) + " " + r.metric +
                       ", above the physical " + roof_name(r.roof) + " of " + fixed(roof, 2) + " " + r.metric +
                       " (+" + fixed(roofline_tolerance * 100, 0) +
                       "% tolerance): the byte or operation count, the timing or the cache flush is wrong");
}

}  // namespace kl::bench
