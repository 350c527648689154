// Inputs, oracle and checked runs for the basics family.
#include "kl/basics.hpp"

#include "kl/error_bounds.hpp"
#include "kl/host_parallel.hpp"
#include "kl/random_bits.hpp"

#include <bit>
#include <cmath>
#include <limits>
#include <random>

namespace kl::basics {

std::size_t output_size(Kernel kernel, const Shape& s) {
  if (kernel == Kernel::hello) return 0;
  if (kernel == Kernel::counter) return 1;
  return static_cast<std::size_t>(std::max<std::int64_t>(s.elements(), 0));
}

Inputs make_inputs(Kernel kernel, const Shape& shape, std::uint64_t seed) {
  const std::size_t n = output_size(kernel, shape);
  Inputs in;
  const bool sum = kernel == Kernel::sum_matr;
  if (sum || kernel == Kernel::sh_mem_ex) {
    in.x.resize(n);
    if (sum) in.y.resize(n);
  } else if (kernel == Kernel::dot3) {
    in.a3.resize(3 * n);
    in.b3.resize(3 * n);
  }
  // Chunk by chunk (kl/host_parallel.hpp), each from its own generator: X then Y, or A then B.
  for_each_chunk(n, [&](std::size_t chunk, std::size_t begin, std::size_t end) {
    std::mt19937_64 rng(chunk_seed(seed, chunk));
    RandomBits bits(rng);
    if (!in.x.empty())
      for (std::size_t i = begin; i < end; ++i) in.x[i] = static_cast<int>(bits.below(200001, 18)) - 100000;  // -100000..100000
    // Y is never 0: an element of X left unwritten then differs from X + Y.
    if (!in.y.empty())
      for (std::size_t i = begin; i < end; ++i) {
        const int magnitude = 1 + static_cast<int>(bits.below(100000, 17));
        in.y[i] = bits.take(1) != 0 ? magnitude : -magnitude;
      }
    if (!in.a3.empty()) {
      for (std::size_t i = 3 * begin; i < 3 * end; ++i) in.a3[i] = bits.uniform(-100.0f, 100.0f);
      for (std::size_t i = 3 * begin; i < 3 * end; ++i) in.b3[i] = bits.uniform(-100.0f, 100.0f);
    }
  });
  if (!in.x.empty() && in.x[0] == 0) in.x[0] = 1;
  if (!in.a3.empty() && in.a3[0] == 0.0f) in.a3[0] = 1.0f;
  return in;
}

double dot3_bound(const float* a, const float* b) {
  double sum_abs = 0;
  for (int k = 0; k < 3; ++k) sum_abs += std::abs(static_cast<double>(a[k]) * b[k]);
  // + 2^-52: the double reference's own two roundings, so an error at the bound still passes.
  return (bounds::gamma(3) + 0x1p-52) * sum_abs;
}

double expected_at(Kernel kernel, const Shape& s, const InputView& in, std::size_t i) {
  const double untouched = std::numeric_limits<double>::quiet_NaN();
  switch (kernel) {
    case Kernel::hello: return untouched;
    case Kernel::counter: return static_cast<double>(s.cols) * s.block.x;
    case Kernel::fill_arr: return 2.0 * static_cast<double>(i);
    case Kernel::matr: return static_cast<double>(i);
    case Kernel::sum_matr: return static_cast<double>(in.x[i]) + in.y[i];
    case Kernel::sh_mem_ex: return 2.0 * in.x[i];
    // Both seed writers compute idx * 2.0f in float: idx rounds to float first (exact below 2^24).
    case Kernel::coalesced:
      return static_cast<std::int64_t>(i) < s.threads ? 2.0 * static_cast<float>(i) : untouched;
    case Kernel::non_coalesced:
      return i % 2 == 0 && static_cast<std::int64_t>(i / 2) < s.threads
                 ? static_cast<double>(static_cast<int>(static_cast<float>(i / 2) * 2.0f))
                 : untouched;
    case Kernel::dot3: {
      double dot = 0;  // exact: float products are exact in double, three terms round once each at 2^-53
      for (int k = 0; k < 3; ++k) dot += static_cast<double>(in.a3[3 * i + k]) * in.b3[3 * i + k];
      return dot;
    }
  }
  return untouched;
}

std::vector<double> oracle(Kernel kernel, const Shape& s, const Inputs& in) {
  std::vector<double> want(output_size(kernel, s));
  const InputView view = in.view();
  for_each_chunk(want.size(), [&](std::size_t, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) want[i] = expected_at(kernel, s, view, i);
  });
  return want;
}

namespace {

// Compares an output with the oracle, want(i) giving element i's expected value: NaN entries must
// still hold the poison; the guard report's `unwritten` then counts only elements the kernel had
// to write. value(i) and poison(i) read element i of the output.
template <class Want, class Value, class Poison>
CaseResult compare(std::size_t n, Kernel kernel, const InputView& in, Want want, Value value, Poison poison) {
  CaseResult r;
  r.guards.unwritten = 0;
  r.guards.first_unwritten = GuardReport::none;
  r.checked = n;
  compare_in_chunks(n, r, [&](std::size_t i, CaseResult& part) {
    const double expected = want(i);
    const bool unwritten = poison(i);
    if (std::isnan(expected)) {
      if (!unwritten) part.add_mismatch({i, value(i), expected, 0});
      return;
    }
    if (unwritten) {
      if (part.guards.unwritten++ == 0) part.guards.first_unwritten = i;
      return;
    }
    const double allowed = kernel == Kernel::dot3 ? dot3_bound(&in.a3[3 * i], &in.b3[3 * i]) : 0.0;
    const double got = value(i);
    if (!(std::abs(got - expected) <= allowed)) part.add_mismatch({i, got, expected, allowed});
  });
  return r;
}

template <class T>
CaseResult compare_vectors(const std::vector<T>& got, const std::vector<double>& want, const Inputs& in,
                           Kernel kernel) {
  return compare(
      got.size(), kernel, in.view(), [&](std::size_t i) { return want[i]; },
      [&](std::size_t i) { return static_cast<double>(got[i]); },
      [&](std::size_t i) { return GuardedBuffer<T>::is_poison(got[i]); });
}

}  // namespace

CaseResult compare_output(Kernel kernel, const std::vector<int>& got, const std::vector<double>& want,
                          const Inputs& inputs) {
  return compare_vectors(got, want, inputs, kernel);
}

CaseResult compare_output(Kernel kernel, const std::vector<float>& got, const std::vector<double>& want,
                          const Inputs& inputs) {
  return compare_vectors(got, want, inputs, kernel);
}

CaseResult compare_floats(Kernel kernel, const Shape& shape, const InputView& inputs, std::span<const float> got) {
  return compare(
      got.size(), kernel, inputs, [&](std::size_t i) { return expected_at(kernel, shape, inputs, i); },
      [&](std::size_t i) { return static_cast<double>(got[i]); },
      [&](std::size_t i) { return GuardedBuffer<float>::is_poison(got[i]); });
}

CaseResult run_case(const Variant& v, const Shape& shape, const Inputs& in, int output_offset) {
  if (const std::string rule = v.unsupported(shape); !rule.empty())
    throw std::invalid_argument(v.info.id() + ": " + rule);
  if (output_offset < 0 || output_offset > 3) throw std::invalid_argument("basics output offset must be in 0..3 elements");
  const auto shift = static_cast<std::size_t>(output_offset);
  const std::size_t n = output_size(v.kernel, shape);
  const std::vector<double> want = oracle(v.kernel, shape, in);
  if (v.kernel == Kernel::hello) {
    v.launch({nullptr, nullptr, nullptr, shape});
    KL_CUDA_CHECK(cudaDeviceSynchronize());
    return {};  // its output is stdout: checked in a child process (tests/basics)
  }
  if (v.kernel == Kernel::coalesced || v.kernel == Kernel::dot3) {
    DeviceBuffer<float> a{std::span<const float>(in.a3)}, b{std::span<const float>(in.b3)};
    GuardedBuffer<float> out(n, shift);
    out.poison();
    v.launch({a.data(), b.data(), out.data(), shape});
    KL_CUDA_CHECK(cudaDeviceSynchronize());
    CaseResult r = compare_vectors(out.download(), want, in, v.kernel);
    r.take_canaries(out.inspect());
    return r;
  }
  // Inputs get exact-size allocations so memcheck sees any read past their end.
  DeviceBuffer<int> y{std::span<const int>(v.kernel == Kernel::sum_matr ? in.y : in.x)};
  GuardedBuffer<int> out(n, shift);
  out.poison();
  // sum_matr updates X in place: X goes into the guarded buffer (its canaries stay armed).
  if (v.kernel == Kernel::sum_matr && n != 0)
    KL_CUDA_CHECK(cudaMemcpy(out.data(), in.x.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  v.launch({y.data(), nullptr, out.data(), shape});
  KL_CUDA_CHECK(cudaDeviceSynchronize());
  CaseResult r = compare_vectors(out.download(), want, in, v.kernel);
  r.take_canaries(out.inspect());
  return r;
}

}  // namespace kl::basics
