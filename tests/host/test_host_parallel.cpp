// kl/host_parallel.hpp: every index once, results that do not depend on the thread count,
// comparisons reported as one sequential pass would report them, and the inputs of the families
// that use it the same under 1 thread and many.
#include "kl/basics.hpp"
#include "kl/elementwise.hpp"
#include "kl/host_parallel.hpp"
#include "kl/reduction.hpp"
#include "scoped_env.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace {

using kl::test::ScopedEnv;

const std::size_t sizes[] = {0, 1, kl::host_chunk - 1, kl::host_chunk, kl::host_chunk + 1, 5 * kl::host_chunk + 3};

TEST(HostParallel, EveryIndexOnceInItsChunkWhateverTheThreadCount) {
  for (const char* threads : {"1", "3", "16"}) {
    const ScopedEnv env("KL_HOST_THREADS", threads);
    for (const std::size_t n : sizes) {
      std::vector<unsigned char> seen(n, 0);
      std::vector<int> chunk_of(n, -1);
      kl::for_each_chunk(n, [&](std::size_t chunk, std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
          ++seen[i];
          chunk_of[i] = static_cast<int>(chunk);
        }
      });
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_EQ(seen[i], 1) << "n=" << n << " threads=" << threads << " index " << i;
        ASSERT_EQ(chunk_of[i], static_cast<int>(i / kl::host_chunk)) << "n=" << n << " index " << i;
      }
    }
  }
}

TEST(HostParallel, TheFirstExceptionOfAChunkReachesTheCaller) {
  const ScopedEnv env("KL_HOST_THREADS", "4");
  EXPECT_THROW(kl::for_each_chunk(8 * kl::host_chunk,
                                  [](std::size_t chunk, std::size_t, std::size_t) {
                                    if (chunk == 5) throw std::runtime_error("chunk 5");
                                  }),
               std::runtime_error);
}

TEST(HostParallel, AMalformedThreadCountIsRefusedNamingTheRule) {
  for (const char* bad : {"0", "-2", "many", "3x", "5000"}) {
    const ScopedEnv env("KL_HOST_THREADS", bad);
    try {
      (void)kl::host_threads();
      FAIL() << "accepted KL_HOST_THREADS=" << bad;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("KL_HOST_THREADS must be a whole number of threads in 1..4096"),
                std::string::npos)
          << e.what();
    }
  }
  const ScopedEnv env("KL_HOST_THREADS", "7");
  EXPECT_EQ(kl::host_threads(), 7u);
}

// Mismatches planted in every chunk, unwritten elements in two: the merged report keeps the
// lowest indices first, whatever order the chunks finished in.
TEST(HostParallel, ChunkedComparisonsReportTheLowestIndicesFirst) {
  const std::size_t n = 6 * kl::host_chunk + 17;
  const auto wrong = [&](std::size_t i) { return i % 400009 == 3; };
  const auto unwritten = [&](std::size_t i) { return i == 2 * kl::host_chunk + 5 || i == 4 * kl::host_chunk; };
  for (const char* threads : {"1", "5"}) {
    const ScopedEnv env("KL_HOST_THREADS", threads);
    kl::CaseResult r;
    kl::compare_in_chunks(n, r, [&](std::size_t i, kl::CaseResult& part) {
      if (unwritten(i) && part.guards.unwritten++ == 0) part.guards.first_unwritten = i;
      if (wrong(i)) part.add_mismatch({i, 1.0, 0.0, 0.0});
    });
    std::size_t expected = 0;
    std::vector<std::size_t> first;
    for (std::size_t i = 0; i < n; ++i)
      if (wrong(i) && expected++ < kl::max_reported_mismatches) first.push_back(i);
    EXPECT_EQ(r.mismatch_count, expected) << threads;
    ASSERT_EQ(r.mismatches.size(), first.size());
    for (std::size_t k = 0; k < first.size(); ++k) EXPECT_EQ(r.mismatches[k].index, first[k]) << threads;
    EXPECT_EQ(r.guards.unwritten, 2u);
    EXPECT_EQ(r.guards.first_unwritten, 2 * kl::host_chunk + 5);
  }
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

TEST(HostParallel, FamilyInputsDoNotDependOnTheThreadCount) {
  const auto draw = [](const char* threads) {
    const ScopedEnv env("KL_HOST_THREADS", threads);
    const std::int64_t n = 3 * static_cast<std::int64_t>(kl::host_chunk) + 11;
    kl::basics::Shape dot;
    dot.cols = static_cast<int>(n);
    dot.block = {256, 1};
    kl::basics::Shape sum;
    sum.rows = 1800;
    sum.cols = 1800;
    sum.block = {16, 16};
    return std::make_tuple(kl::basics::make_inputs(kl::basics::Kernel::dot3, dot, 5),
                           kl::basics::make_inputs(kl::basics::Kernel::sum_matr, sum, 5),
                           kl::elementwise::make_inputs(kl::elementwise::Op::add, {n, 256}, 5),
                           kl::reduction::make_inputs({40'000'003, 256, kl::reduction::Dtype::f32}, 5),
                           kl::reduction::make_inputs({n, 256, kl::reduction::Dtype::i32}, 5));
  };
  const auto one = draw("1");
  const auto many = draw("6");
  EXPECT_TRUE(same_bits(std::get<0>(one).a3, std::get<0>(many).a3));
  EXPECT_TRUE(same_bits(std::get<0>(one).b3, std::get<0>(many).b3));
  EXPECT_TRUE(same_bits(std::get<1>(one).x, std::get<1>(many).x));
  EXPECT_TRUE(same_bits(std::get<1>(one).y, std::get<1>(many).y));
  EXPECT_TRUE(same_bits(std::get<2>(one).a, std::get<2>(many).a));
  EXPECT_TRUE(same_bits(std::get<2>(one).b, std::get<2>(many).b));
  EXPECT_TRUE(same_bits(std::get<3>(one).f, std::get<3>(many).f));
  EXPECT_TRUE(same_bits(std::get<4>(one).i, std::get<4>(many).i));
}

// Past 2^25 - 2^20 elements the exact-integer float inputs hold exactly that many +-1 terms,
// the first and the last among them, shared out over the chunks.
TEST(HostParallel, ExactIntegerInputsKeepTheirNonzeroCountOverChunks) {
  const std::size_t n = 40'000'003;
  const kl::reduction::Inputs in = kl::reduction::make_inputs({static_cast<std::int64_t>(n), 256, kl::reduction::Dtype::f32}, 9);
  ASSERT_EQ(in.f.size(), n);
  const auto nonzero = static_cast<std::size_t>(std::count_if(in.f.begin(), in.f.end(), [](float x) { return x != 0.0f; }));
  EXPECT_EQ(nonzero, (std::size_t{1} << 25) - (std::size_t{1} << 20));
  EXPECT_NE(in.f.front(), 0.0f);
  EXPECT_NE(in.f.back(), 0.0f);
  // Spread over every chunk, not bunched: each chunk holds its share within a few percent.
  for (std::size_t c = 0; c + 1 < kl::chunk_count(n); ++c) {
    const auto in_chunk = std::count_if(in.f.begin() + static_cast<std::ptrdiff_t>(c * kl::host_chunk),
                                        in.f.begin() + static_cast<std::ptrdiff_t>((c + 1) * kl::host_chunk),
                                        [](float x) { return x != 0.0f; });
    EXPECT_NEAR(static_cast<double>(in_chunk), static_cast<double>(nonzero) * kl::host_chunk / n, 2.0) << "chunk " << c;
  }
  const kl::reduction::Oracle o = kl::reduction::oracle(kl::reduction::Dtype::f32, in);
  EXPECT_TRUE(o.exact_in_fp32);
  EXPECT_GT(o.value, 0.0);
}

}  // namespace

namespace {

// The kit checks basics' float outputs with the oracle computed as it goes (compare_floats: dot3's
// check in the family's declaration); the tests compare with the oracle's vector (compare_output).
// On outputs with a wrong value and an unwritten element, in several chunks, both report the same
// counts and the same first elements.
TEST(HostParallel, BasicsFloatComparisonReportsWhatTheOracleVectorDoes) {
  using kl::basics::Kernel;
  for (const Kernel k : {Kernel::coalesced, Kernel::dot3}) {
    kl::basics::Shape s;
    s.cols = static_cast<int>(2 * kl::host_chunk + 99);
    s.block = {256, 1};
    s.threads = s.cols - 40;  // coalesced: a tail left unwritten
    const kl::basics::Inputs in = kl::basics::make_inputs(k, s, 3);
    const std::vector<double> want = kl::basics::oracle(k, s, in);
    std::vector<float> got(want.size());
    for (std::size_t i = 0; i < want.size(); ++i)
      got[i] = std::isnan(want[i]) ? std::bit_cast<float>(kl::GuardPatterns<4>::poison) : static_cast<float>(want[i]);
    // Clean first: both pass.
    EXPECT_TRUE(kl::basics::compare_floats(k, s, in.view(), got).ok()) << static_cast<int>(k);
    // A value off by a lot past the first chunk, an unwritten element in the last chunk, and (where
    // the oracle wants an element untouched) a write there.
    const std::size_t wrong = kl::host_chunk + 7, unwritten = want.size() - 50;
    got[wrong] = 1e30f;
    if (!std::isnan(want[unwritten])) got[unwritten] = std::bit_cast<float>(kl::GuardPatterns<4>::poison);
    const auto gap = std::find_if(want.begin(), want.end(), [](double w) { return std::isnan(w); });
    if (gap != want.end()) got[static_cast<std::size_t>(gap - want.begin())] = 0;
    const kl::CaseResult by_vector = kl::basics::compare_output(k, got, want, in);
    const kl::CaseResult by_floats = kl::basics::compare_floats(k, s, in.view(), got);
    EXPECT_FALSE(by_floats.ok()) << static_cast<int>(k);
    EXPECT_EQ(by_floats.mismatch_count, by_vector.mismatch_count) << static_cast<int>(k);
    EXPECT_EQ(by_floats.guards.unwritten, by_vector.guards.unwritten) << static_cast<int>(k);
    EXPECT_EQ(by_floats.guards.first_unwritten, by_vector.guards.first_unwritten) << static_cast<int>(k);
    EXPECT_EQ(by_floats.checked, by_vector.checked) << static_cast<int>(k);
    ASSERT_EQ(by_floats.mismatches.size(), by_vector.mismatches.size()) << static_cast<int>(k);
    for (std::size_t m = 0; m < by_floats.mismatches.size(); ++m) {
      EXPECT_EQ(by_floats.mismatches[m].index, by_vector.mismatches[m].index) << static_cast<int>(k);
      EXPECT_EQ(by_floats.mismatches[m].got, by_vector.mismatches[m].got) << static_cast<int>(k);
    }
    EXPECT_GE(by_floats.mismatch_count, 1u) << static_cast<int>(k);
  }
}

}  // namespace

namespace {

// The elementwise bench compares with the oracle computed from the inputs as it goes
// (compare_with_inputs); the tests with the oracle's vector. Same verdicts on planted errors.
TEST(HostParallel, ElementwiseInputComparisonReportsWhatTheOracleVectorDoes) {
  using kl::elementwise::Op;
  for (const Op op : {Op::add, Op::exp}) {
    const std::int64_t n = 2 * static_cast<std::int64_t>(kl::host_chunk) + 5;
    const kl::elementwise::Inputs in = kl::elementwise::make_inputs(op, {n, 256}, 8);
    const std::vector<double> want = kl::elementwise::oracle(op, in);
    std::vector<float> got(want.size());
    for (std::size_t i = 0; i < got.size(); ++i) got[i] = static_cast<float>(want[i]);
    EXPECT_TRUE(kl::elementwise::compare_with_inputs(op, got, in).ok());
    got[3] = std::nextafter(got[3], INFINITY);  // one ulp: add must be exact, exp may be off by 2
    got[kl::host_chunk + 1] *= 1.5f;
    got[got.size() - 1] = std::bit_cast<float>(kl::GuardPatterns<4>::poison);
    const kl::CaseResult a = kl::elementwise::compare_with_inputs(op, got, in);
    const kl::CaseResult b = kl::elementwise::compare_output(op, got, want);
    EXPECT_EQ(a.mismatch_count, op == Op::add ? 3u : 2u);
    EXPECT_EQ(a.mismatch_count, b.mismatch_count);
    ASSERT_EQ(a.mismatches.size(), b.mismatches.size());
    for (std::size_t m = 0; m < a.mismatches.size(); ++m) EXPECT_EQ(a.mismatches[m].index, b.mismatches[m].index);
  }
}

}  // namespace
