// Inputs, oracle and checked runs for the elementwise family.
#include "kl/elementwise.hpp"

#include "kl/error_bounds.hpp"
#include "kl/host_parallel.hpp"
#include "kl/random_bits.hpp"

#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>

namespace kl::elementwise {

Inputs make_inputs(Op op, const Shape& shape, std::uint64_t seed) {
  const auto n = static_cast<std::size_t>(std::max<std::int64_t>(shape.n, 0));
  Inputs in;
  in.a.resize(n);
  if (op == Op::add) in.b.resize(n);
  // Chunk by chunk (kl/host_parallel.hpp), each from its own generator.
  for_each_chunk(n, [&](std::size_t chunk, std::size_t begin, std::size_t end) {
    std::mt19937_64 rng(chunk_seed(seed, chunk));
    RandomBits bits(rng);
    for (std::size_t i = begin; i < end; ++i) {
      if (op == Op::add) {
        in.a[i] = bits.uniform(-1000.0f, 1000.0f);
        in.b[i] = bits.uniform(-1000.0f, 1000.0f);
      } else {
        in.a[i] = bits.uniform(-87.0f, 88.0f);
      }
    }
  });
  // Never all zero: an all-zero input hides unwritten or misplaced outputs.
  if (n != 0 && in.a[0] == 0.0f) in.a[0] = 1.0f;
  return in;
}

double expected_value(Op op, float a, float b) {
  return op == Op::add ? static_cast<double>(a + b) : std::exp(static_cast<double>(a));
}

double expected_at(Op op, const Inputs& in, std::size_t i) {
  return expected_value(op, in.a[i], op == Op::add ? in.b[i] : 0.0f);
}

std::vector<double> oracle(Op op, const Inputs& in) {
  std::vector<double> out(in.a.size());
  for_each_chunk(out.size(), [&](std::size_t, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) out[i] = expected_at(op, in, i);
  });
  return out;
}

namespace {

// `host` uploaded `offset` floats into an allocation that ends where it ends, so memcheck sees
// any read past its end.
DeviceBuffer<float> upload_at(const std::vector<float>& host, int offset) {
  DeviceBuffer<float> buffer(host.size() + static_cast<std::size_t>(offset));
  if (!host.empty())
    KL_CUDA_CHECK(cudaMemcpy(buffer.data() + offset, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
  return buffer;
}

}  // namespace

CaseResult run_case(const Variant& v, const Shape& shape, const Inputs& in, Offsets offsets) {
  for (const int o : {offsets.a, offsets.b, offsets.out})
    if (o < 0 || o > 3) throw std::invalid_argument("elementwise offsets must be in 0..3 floats");
  const DeviceBuffer<float> a = upload_at(in.a, offsets.a);
  const DeviceBuffer<float> b = upload_at(v.op == Op::add ? in.b : in.a, offsets.b);
  GuardedBuffer<float> out(static_cast<std::size_t>(shape.n), static_cast<std::size_t>(offsets.out));
  out.poison();
  v.launch({a.data() + offsets.a, b.data() + offsets.b, out.data(), shape});
  KL_CUDA_CHECK(cudaDeviceSynchronize());

  CaseResult r = compare_output(v.op, out.download(), oracle(v.op, in));
  r.guards = out.inspect();
  return r;
}

namespace {

// Element i of `got` against want(i): add bit-exact, exp within kl::bounds::expf_max_ulp.
template <class Want>
CaseResult compare(Op op, const std::vector<float>& got, Want want) {
  CaseResult r;
  r.checked = got.size();
  compare_in_chunks(got.size(), r, [&](std::size_t i, CaseResult& part) {
    const double expected = want(i);
    const auto want_f = static_cast<float>(expected);
    const bool within = op == Op::add ? std::memcmp(&got[i], &want_f, sizeof(float)) == 0
                                      : bounds::ulp_distance(got[i], want_f) <= bounds::expf_max_ulp;
    if (!within) {
      const double ulp = std::abs(std::nextafter(want_f, INFINITY) - want_f);
      part.add_mismatch({i, got[i], expected, op == Op::add ? 0.0 : bounds::expf_max_ulp * ulp});
    }
  });
  return r;
}

}  // namespace

CaseResult compare_output(Op op, const std::vector<float>& got, const std::vector<double>& want) {
  return compare(op, got, [&](std::size_t i) { return want[i]; });
}

CaseResult compare_with_inputs(Op op, const std::vector<float>& got, const Inputs& inputs) {
  return compare(op, got, [&](std::size_t i) { return expected_at(op, inputs, i); });
}

}  // namespace kl::elementwise
