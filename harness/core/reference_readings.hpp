// How the bench trusts a reference it measured (cuBLAS, CUB, a family's reference variant): one
// reading is a median of a few runs, and now and then a whole stretch of runs is slow (on the
// H100, GemmEx at 2048^3 once read 142 TFLOPS against its usual 585, and at 1024x8192x4096
// 0.6x its speed). A slow reading of a reference makes every ratio read against it too high,
// and a min_ratio gate on such a ratio passes: the gates re-measure only a failing gate, and
// only its own case. So every reference is read again before the gates are evaluated, and its
// ceiling is the fastest of its readings (a stretch of slow runs only ever slows a reading), with
// one more reading where the first two disagree. Host-only: the host tier tests the rule with
// scripted readings.
#pragma once

#include "report.hpp"
#include "result.hpp"

#include <string>
#include <vector>

namespace kl::bench {

// A slowest reading further below the fastest than this (a fraction of the fastest) calls for one
// more reading, up to the maximum.
inline constexpr double unsteady_spread = 0.10;
inline constexpr int max_reference_readings = 3;

// Whether `c` (a ceiling with a reference case) needs another reading: it has one, or its
// readings differ by more than unsteady_spread and it has fewer than max_reference_readings.
bool needs_reading(const Ceiling& c);

// Records `value` as another reading of `c` (whose readings start with its first: offer_ceiling
// records it); c.value becomes the fastest (the highest: every ceiling's metric is a rate).
void add_reading(Ceiling& c, double value);

// A result whose ratio to its ceiling a new reading moved: the ratio it had before (the last the
// log printed for it) and the one it has now (what the tables, the JSON and the gates use).
struct Reread {
  std::string key, ceiling;
  double was = 0, now = 0;
};

// Every result read against `c` takes its value as its ceiling_value. A result that is c's
// reference case itself becomes `fastest` (the reading that gave c.value) when that is faster.
// Returns the results whose ratio moved, in their order, for the log: the bench prints each
// case's ratio as it is measured, before its reference is read again.
std::vector<Reread> reread_against(const Ceiling& c, std::vector<Result>& results, const Result& fastest);

// "matmul.wgmma_tma_store.m2048_n2048_k2048: 85.5% of cublas_gemmex_fp16_m2048_n2048_k2048 (printed
// above: 352%)"; "" where both round to the same three digits (nothing the log showed is wrong).
std::string reread_text(const Reread& moved);

// "585 TFLOPS, the fastest of 142 and 585 (the slowest 75.7% below: an unsteady GPU)".
std::string readings_text(const Ceiling& c);

}  // namespace kl::bench
