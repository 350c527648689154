// Inputs, oracle and checked runs for the reduction family.
#include "kl/reduction.hpp"

#include "kl/error_bounds.hpp"
#include "kl/guarded_buffer.hpp"
#include "kl/host_parallel.hpp"
#include "kl/random_bits.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>

namespace kl::reduction {

std::string to_string(Dtype d) { return d == Dtype::i32 ? "int" : "float"; }

Dtype parse_dtype(const std::string& text) {
  if (text == "int") return Dtype::i32;
  if (text == "float") return Dtype::f32;
  throw std::invalid_argument("dtype must be int or float, got '" + text + "'");
}

std::string to_string(FloatData d) { return d == FloatData::exact_integers ? "exact-integers" : "rounding"; }

namespace {

// Turns negative terms of x[lo, hi) positive, from lo on, until their sum is positive, within
// `room` more positive mass (a flip adds |x| to it and 2|x| to the sum). Mean-positive data almost
// never needs a flip; a half that still sums to <= 0 is a generator bug, reported as one.
template <class T>
void make_positive_sum(std::vector<T>& x, std::size_t lo, std::size_t hi, double& room) {
  double sum = 0;
  for (std::size_t i = lo; i < hi; ++i) sum += static_cast<double>(x[i]);
  for (std::size_t i = lo; i < hi && sum <= 0; ++i)
    if (x[i] < 0 && -static_cast<double>(x[i]) <= room) {
      room += static_cast<double>(x[i]);
      sum -= 2.0 * static_cast<double>(x[i]);
      x[i] = -x[i];
    }
  if (hi > lo && sum <= 0) throw std::logic_error("reduction inputs: could not make a half's sum positive");
}

// Nonzero integers in [-7, 7], each half summing to a positive value: a kernel that drops any
// element, sums one half or nothing is off by at least 1, which the exact check rejects.
std::vector<int> int_inputs(std::size_t n, std::uint64_t seed) {
  std::vector<int> x(n);
  for_each_chunk(n, [&](std::size_t chunk, std::size_t begin, std::size_t end) {
    std::mt19937_64 rng(chunk_seed(seed, chunk));
    RandomBits bits(rng);
    for (std::size_t i = begin; i < end; ++i) {
      const int magnitude = 1 + static_cast<int>(bits.below(7, 3));
      x[i] = bits.take(1) != 0 ? magnitude : -magnitude;
    }
  });
  double room = INFINITY;  // int32 holds 7 * 2^28: no mass limit
  make_positive_sum(x, 0, n / 2, room);
  make_positive_sum(x, n / 2, n, room);
  return x;
}

// Exactness: every partial sum of any order is a subset sum of the terms, an integer between
// minus the negative mass and the positive mass; binary32 holds it exactly when both masses are at
// most 2^24 (Oracle::exact_in_fp32). The negative mass stays 2^20 below that, so inputs that use
// both masses whole still sum to 2^20.
constexpr double positive_mass_limit = bounds::fp32_exact_integer_limit;
constexpr double negative_mass_limit = bounds::fp32_exact_integer_limit - 0x1p20;

// Takes `wanted` of the next `left` items with probability wanted / left each (selection
// sampling: exactly `wanted` in all, spread uniformly).
bool select_next(std::size_t& wanted, std::size_t& left, RandomBits& bits) {
  const bool take = bits.one_in(wanted, left);
  --left;
  if (take) --wanted;
  return take;
}

// Chunk c's share of `total` items spread over chunks in proportion to `weight` (cumulative
// weights before and through chunk c, out of `all`): the shares add up to `total` exactly.
std::size_t share(std::size_t total, std::size_t weight_before, std::size_t weight_through, std::size_t all) {
  if (all == 0) return 0;
  if (total > std::numeric_limits<std::uint64_t>::max() / all)
    throw std::logic_error("reduction inputs: chunk shares would overflow 64 bits");
  const auto upto = [&](std::size_t w) { return static_cast<std::size_t>(std::uint64_t{total} * w / all); };
  return upto(weight_through) - upto(weight_before);
}

// Exact integer float inputs, every order exact, no zero wherever that is possible:
//  - up to small_exact_n elements, integers in [-6, 8] without 0 (mean 1): masses <= 8n, 6n;
//  - beyond, +-1: 55% of the terms +1 (at most 2^24 of them), the rest -1. Each nonzero term takes
//    at least 1 of the 2^25 - 2^20 mass, so past that many elements no input can be both exact in
//    every order and free of zeros: exactly that many terms are nonzero, the first and the last
//    among them. Each chunk (kl/host_parallel.hpp) takes its share of the nonzero terms in
//    proportion to its length, and of the +1s in proportion to its nonzero terms, and spreads
//    them uniformly within itself (selection sampling).
// Each half sums to a positive value.
std::vector<float> exact_integer_inputs(std::size_t n, std::uint64_t seed) {
  constexpr auto small_exact_n = static_cast<std::size_t>(negative_mass_limit / 8);
  std::vector<float> x(n, 0.0f);
  if (n <= small_exact_n) {
    for_each_chunk(n, [&](std::size_t chunk, std::size_t begin, std::size_t end) {
      std::mt19937_64 rng(chunk_seed(seed, chunk));
      RandomBits bits(rng);
      for (std::size_t i = begin; i < end; ++i) {
        const int drawn = static_cast<int>(bits.below(14, 4)) - 6;  // -6..7, 0 standing for 8
        x[i] = static_cast<float>(drawn == 0 ? 8 : drawn);
      }
    });
  } else {
    const std::size_t nonzero = std::min(n, static_cast<std::size_t>(positive_mass_limit + negative_mass_limit));
    const std::size_t positives = std::min(static_cast<std::size_t>(positive_mass_limit), (nonzero * 11 + 19) / 20);
    // The interior (all but the first and the last element, always nonzero) holds the rest.
    const std::size_t interior_wanted = nonzero - 2, interior = n - 2;
    const auto interior_before = [&](std::size_t i) { return i == 0 ? 0 : std::min(i - 1, interior); };
    const auto nonzero_before = [&](std::size_t i) {
      return (i > 0 ? 1 : 0) + share(interior_wanted, 0, interior_before(i), interior) + (i >= n ? 1 : 0);
    };
    for_each_chunk(n, [&](std::size_t chunk, std::size_t begin, std::size_t end) {
      std::mt19937_64 rng(chunk_seed(seed, chunk));
      RandomBits bits(rng);
      std::size_t wanted = share(interior_wanted, interior_before(begin), interior_before(end), interior);
      std::size_t left = interior_before(end) - interior_before(begin);
      std::size_t nonzero_left = nonzero_before(end) - nonzero_before(begin);
      std::size_t positives_left = share(positives, nonzero_before(begin), nonzero_before(end), nonzero);
      for (std::size_t i = begin; i < end; ++i) {
        const bool edge = i == 0 || i + 1 == n;  // a dropped first or last element must show
        if (!edge && !select_next(wanted, left, bits)) continue;
        x[i] = select_next(positives_left, nonzero_left, bits) ? 1.0f : -1.0f;
      }
    });
  }
  double positive_room = positive_mass_limit;
  for (const float v : x)
    if (v > 0) positive_room -= v;
  make_positive_sum(x, 0, n / 2, positive_room);
  make_positive_sum(x, n / 2, n, positive_room);
  return x;
}

// Uniform in [0.5, 1.5) on a grid of 2^-24 (24 random bits each).
std::vector<float> rounding_inputs(std::size_t n, std::uint64_t seed) {
  std::vector<float> x(n);
  for_each_chunk(n, [&](std::size_t chunk, std::size_t begin, std::size_t end) {
    std::mt19937_64 rng(chunk_seed(seed, chunk));
    RandomBits bits(rng);
    for (std::size_t i = begin; i < end; ++i) x[i] = bits.uniform(0.5f, 1.5f);
  });
  return x;
}

}  // namespace

Inputs make_inputs(const Shape& shape, std::uint64_t seed, FloatData data) {
  const auto n = static_cast<std::size_t>(std::max<std::int64_t>(shape.n, 0));
  Inputs in;
  if (shape.dtype == Dtype::i32) {
    if (shape.n > max_exact_int_n)
      throw std::invalid_argument("int inputs: n must be at most 2^28 so the int32 sum cannot overflow");
    in.i = int_inputs(n, seed);
  } else {
    in.f = data == FloatData::exact_integers ? exact_integer_inputs(n, seed) : rounding_inputs(n, seed);
  }
  return in;
}

Oracle oracle(Dtype dtype, const Inputs& in) {
  // Per-chunk partial sums (kl/host_parallel.hpp), added in chunk order: exact for ints and for
  // integer-valued floats, and for other floats a double sum no less accurate than one pass.
  struct Partial {
    std::int64_t exact = 0;
    double value = 0, sum_abs = 0, positive = 0, negative = 0;
    bool integers = true;
  };
  const std::size_t n = dtype == Dtype::i32 ? in.i.size() : in.f.size();
  std::vector<Partial> parts(chunk_count(n));
  for_each_chunk(n, [&](std::size_t chunk, std::size_t begin, std::size_t end) {
    Partial& p = parts[chunk];
    if (dtype == Dtype::i32) {
      for (std::size_t i = begin; i < end; ++i) p.exact += in.i[i];
      return;
    }
    for (std::size_t i = begin; i < end; ++i) {
      const float x = in.f[i];
      p.value += x;
      p.sum_abs += std::abs(static_cast<double>(x));
      if (x > 0) p.positive += x;
      else p.negative -= x;
      p.integers = p.integers && std::trunc(x) == x;
    }
  });
  Oracle o;
  Partial all;
  for (const Partial& p : parts) {
    all.exact += p.exact;
    all.value += p.value;
    all.sum_abs += p.sum_abs;
    all.positive += p.positive;
    all.negative += p.negative;
    all.integers = all.integers && p.integers;
  }
  if (dtype == Dtype::i32) {
    o.exact = all.exact;
    o.value = static_cast<double>(o.exact);
    return o;
  }
  o.value = all.value;
  o.sum_abs = all.sum_abs;
  // Every partial sum of any order is a subset sum, an integer in [-negative, positive]: exact
  // in binary32 when both masses are at most 2^24 (and in double, which holds 2^53).
  o.exact_in_fp32 = all.integers && all.positive <= bounds::fp32_exact_integer_limit &&
                    all.negative <= bounds::fp32_exact_integer_limit;
  return o;
}

namespace {

template <class T>
CaseResult run_typed(const Variant& v, const Shape& shape, const std::vector<T>& host, const Oracle& want,
                     double* got, int offset) {
  if (offset < 0 || offset > 3) throw std::invalid_argument("reduction input offset must be in 0..3 elements");
  // The input starts `offset` elements into an allocation that ends where it ends, so memcheck
  // sees any read past its end (and initcheck any read of the elements before its start).
  DeviceBuffer<T> in(host.size() + static_cast<std::size_t>(offset));
  if (!host.empty())
    KL_CUDA_CHECK(cudaMemcpy(in.data() + offset, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  GuardedBuffer<T> out(1);
  out.poison();
  v.launch({in.data() + offset, out.data(), shape});
  KL_CUDA_CHECK(cudaDeviceSynchronize());

  const T sum = out.download()[0];
  if (got) *got = static_cast<double>(sum);
  CaseResult r = compare_sum(v, shape, sum, want);
  r.guards = out.inspect();
  return r;
}

}  // namespace

std::int64_t summation_depth(const Variant& v, const Shape& shape) {
  const std::int64_t worst = std::max<std::int64_t>(shape.n - 1, 0);
  return v.summation_depth ? std::min(v.summation_depth(shape), worst) : worst;
}

double float_sum_allowance(const Variant& v, const Shape& shape, const Oracle& want) {
  if (want.exact_in_fp32) return 0.0;
  return bounds::float_sum_bound(summation_depth(v, shape), want.sum_abs);
}

CaseResult compare_sum(const Variant&, const Shape&, int got, const Oracle& want) {
  CaseResult r;
  r.checked = 1;
  if (static_cast<std::int64_t>(got) != want.exact) r.add_mismatch({0, double(got), want.value, 0.0});
  return r;
}

CaseResult compare_sum(const Variant& v, const Shape& shape, float got, const Oracle& want) {
  CaseResult r;
  r.checked = 1;
  const double allowed = float_sum_allowance(v, shape, want);
  // NaN (the poison) fails this comparison too.
  if (!(std::abs(static_cast<double>(got) - want.value) <= allowed))
    r.add_mismatch({0, static_cast<double>(got), want.value, allowed});
  return r;
}

CaseResult run_case(const Variant& v, const Shape& shape, const Inputs& in) {
  return run_case(v, shape, in, oracle(shape.dtype, in));
}

CaseResult run_case(const Variant& v, const Shape& shape, const Inputs& in, const Oracle& want, double* got,
                    int offset) {
  return shape.dtype == Dtype::i32 ? run_typed<int>(v, shape, in.i, want, got, offset)
                                   : run_typed<float>(v, shape, in.f, want, got, offset);
}

}  // namespace kl::reduction
