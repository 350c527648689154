// Quicksort family on the GPU: the seed's dynamic-parallelism quicksort, its lost-element bug
// on a three-element example, the fixed kernel on hard inputs, and its size limit.
#include "kl/quicksort.hpp"
#include "kl/test_env.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

using namespace kl::quicksort;
using kl::CaseResult;

namespace {
std::vector<int> sorted_run(const Variant& v, std::vector<int> input) {
  kl::GuardedBuffer<int> data(input.size());
  data.poison();
  KL_CUDA_CHECK(cudaMemcpy(data.data(), input.data(), input.size() * sizeof(int), cudaMemcpyHostToDevice));
  v.launch({data.data(), {static_cast<std::int64_t>(input.size())}});
  KL_CUDA_CHECK(cudaDeviceSynchronize());
  return data.download();
}
}  // namespace

// The seed's qs_part on {5, 8, 3}: 3 < 5 swaps x[2] with x[0] (the pivot moves away), then
// x[1] = 5 overwrites the 8. The result is sorted but not a permutation.
TEST(PlantedQsGpuSeed, PartitionLosesAnElement) {
  EXPECT_EQ(sorted_run(variant("qs_gpu_seed"), {5, 8, 3}), (std::vector<int>{3, 5, 5}));
  const CaseResult r = run_case(variant("qs_gpu_seed"), std::vector<int>{5, 8, 3});
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.mismatch_count, 1u) << r.describe();
}

// Inputs where the pivot never moves are sorted by the seed too: the bug hides there.
TEST(PlantedQsGpuSeed, IsRightWhenNoSmallerElementFollowsThePivot) {
  EXPECT_TRUE(run_case(variant("qs_gpu_seed"), std::vector<int>{1, 2, 3, 4}).ok());
}

TEST(QuicksortSeed, FixedPartitionSortsTheSameExample) {
  EXPECT_EQ(sorted_run(variant("qs_gpu"), {5, 8, 3}), (std::vector<int>{3, 5, 8}));
}

TEST(Quicksort, SortsRandomDuplicateEmptyAndOneElementInputs) {
  const Variant& v = variant("qs_gpu");
  for (std::int64_t n : {0, 1, 2, 17, 1000, 10007}) {
    const CaseResult r = run_case(v, make_input(n, 9));
    EXPECT_TRUE(r.ok()) << "n=" << n << ": " << r.describe();
  }
  EXPECT_TRUE(run_case(v, std::vector<int>(500, 7)).ok()) << "all equal";
}

// Sorted and reversed inputs drive the first-element pivot to depth n: the depth cap must
// hand the rest to the in-thread heapsort rather than fail launches past depth 24.
TEST(Quicksort, AdversarialInputsStayCorrectThroughTheDepthCap) {
  const Variant& v = variant("qs_gpu");
  const int n = kl::sanitizer_small_mode() ? 2000 : 50000;
  std::vector<int> ascending(n);
  std::iota(ascending.begin(), ascending.end(), -n / 2);
  std::vector<int> descending(ascending.rbegin(), ascending.rend());
  EXPECT_TRUE(run_case(v, ascending).ok());
  EXPECT_TRUE(run_case(v, descending).ok());
}

TEST(Quicksort, ReferenceAgrees) { EXPECT_TRUE(run_case(variant("cpu_oracle"), make_input(1000, 2)).ok()); }

TEST(Quicksort, SizesPastTheLimitAreRefusedNamingTheRule) {
  for (const char* name : {"qs_gpu", "qs_gpu_seed"}) {
    const Variant& v = variant(name);
    const std::int64_t limit = v.info.name == "qs_gpu" ? max_n : seed_max_n;
    EXPECT_TRUE(v.supports({limit}));
    try {
      v.launch({nullptr, {limit + 1}});
      FAIL() << name << " accepted n = " << limit + 1;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("quicksort." + std::string(name) + ": n must be in 0.."), std::string::npos)
          << e.what();
    }
  }
}
