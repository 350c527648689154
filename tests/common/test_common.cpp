// The harness pieces every family relies on, on a real GPU.
#include "kl/device_compare.hpp"
#include "kl/device_facts.hpp"
#include "kl/guarded_buffer.hpp"
#include "kl/timing.hpp"
#include "kl/watchdog.hpp"
#include "scoped_env.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <utility>

TEST(DeviceBuffer, RoundTripsAndMoves) {
  const std::vector<int> host = {3, 1, 4, 1, 5, 9, 2, 6};
  kl::DeviceBuffer<int> a{std::span<const int>(host)};
  EXPECT_EQ(a.download(), host);
  kl::DeviceBuffer<int> b = std::move(a);
  EXPECT_EQ(a.data(), nullptr);
  EXPECT_EQ(b.download(), host);
  EXPECT_THROW(b.upload(std::vector<int>(3)), std::invalid_argument);
}

// The bench's check of a timed run against the last output that passed: every differing byte is
// counted, at the first, a middle and the last byte, in the vector body and the tail, with
// buffers 16-byte aligned or not, so an output that differs anywhere is never taken as the same.
TEST(DeviceCompare, CountsEveryDifferingByteAlignedOrNot) {
  for (const std::size_t bytes : {std::size_t{1}, std::size_t{15}, std::size_t{16}, std::size_t{17},
                                  std::size_t{4096 + 3}, std::size_t{(1u << 22) + 5}}) {
    std::vector<unsigned char> host(bytes + 1);
    for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<unsigned char>(i * 131u + 7u);
    kl::DeviceBuffer<unsigned char> a{std::span<const unsigned char>(host)}, b{std::span<const unsigned char>(host)};
    for (const std::size_t shift : {std::size_t{0}, std::size_t{1}}) {
      EXPECT_EQ(kl::count_differing_bytes(a.data() + shift, b.data() + shift, bytes), 0u) << bytes;
      std::vector<unsigned char> changed = host;
      std::size_t flipped = 0;
      for (const std::size_t at : {std::size_t{0}, bytes / 2, bytes - 1}) {
        if (changed[shift + at] == host[shift + at]) ++flipped;
        changed[shift + at] = static_cast<unsigned char>(host[shift + at] ^ 0x40u);
      }
      b.upload(changed);
      EXPECT_EQ(kl::count_differing_bytes(a.data() + shift, b.data() + shift, bytes), flipped)
          << bytes << " bytes, shift " << shift;
      kl::DeviceBuffer<unsigned long long> count(1);  // the caller's counting word, used twice
      for (int twice = 0; twice < 2; ++twice)
        EXPECT_EQ(kl::count_differing_bytes(a.data() + shift, b.data() + shift, bytes, count.data()), flipped);
      b.upload(host);
    }
  }
  EXPECT_EQ(kl::count_differing_bytes(nullptr, nullptr, 0), 0u);
}

TEST(GuardedBuffer, FreshPoisonReportsEveryElementUnwritten) {
  kl::GuardedBuffer<float> out(100);
  out.poison();
  const kl::GuardReport r = out.inspect();
  EXPECT_EQ(r.unwritten, 100u);
  EXPECT_EQ(r.first_unwritten, 0u);
  EXPECT_EQ(r.damaged_before + r.damaged_after, 0u);
  EXPECT_FALSE(r.ok());
}

TEST(GuardedBuffer, FullWriteIsCleanPartialWriteIsNot) {
  kl::GuardedBuffer<double> out(64);
  out.poison();
  KL_CUDA_CHECK(cudaMemset(out.data(), 0, 64 * sizeof(double)));
  EXPECT_TRUE(out.inspect().ok()) << out.inspect().describe();
  out.poison();
  KL_CUDA_CHECK(cudaMemset(out.data(), 0, 60 * sizeof(double)));
  EXPECT_EQ(out.inspect().unwritten, 4u);
  EXPECT_EQ(out.inspect().first_unwritten, 60u);
}

TEST(GuardedBuffer, WritesPastEitherEndDamageCanaries) {
  kl::GuardedBuffer<int> out(10);
  out.poison();
  KL_CUDA_CHECK(cudaMemset(out.data(), 0, 10 * sizeof(int)));
  KL_CUDA_CHECK(cudaMemset(out.data() + 10 + 3, 0, sizeof(int)));  // one word, 3 past the end
  KL_CUDA_CHECK(cudaMemset(out.data() - 1, 0, sizeof(int)));       // the word just before
  const kl::GuardReport r = out.inspect();
  EXPECT_EQ(r.damaged_after, 1u);
  EXPECT_EQ(r.first_damaged_after, 3u);
  EXPECT_EQ(r.damaged_before, 1u);
  EXPECT_NE(r.describe().find("written past the end"), std::string::npos);
}

TEST(Watchdog, EndsAWaitThatNothingReleases) {
  const kl::WatchdogSelfTest r = kl::watchdog_selftest(/*release_flag=*/false, /*budget_ms=*/50);
  EXPECT_TRUE(r.tripped);
  EXPECT_GE(r.elapsed_ms, 45.0);    // it really waited for its budget...
  EXPECT_LT(r.elapsed_ms, 5000.0);  // ...and then gave up instead of hanging
}

TEST(Watchdog, StaysQuietWhenTheWaitIsReleased) {
  const kl::WatchdogSelfTest r = kl::watchdog_selftest(/*release_flag=*/true, /*budget_ms=*/2000);
  EXPECT_FALSE(r.tripped);
  EXPECT_LT(r.elapsed_ms, 1000.0);
}

// Work whose host takes `host_ms` before it queues a 4-byte memset into `word`.
namespace {
std::function<void(cudaStream_t)> memset_after_host_work(kl::DeviceBuffer<int>& word, int host_ms) {
  return [&word, host_ms](cudaStream_t s) {
    std::this_thread::sleep_for(std::chrono::milliseconds(host_ms));
    KL_CUDA_CHECK(cudaMemsetAsync(word.data(), 0, sizeof(int), s));
  };
}
}  // namespace

// `kernel-lab run` times a library call whose host-side set-up comes before its kernel. The GPU is
// held until the host has queued the work, so a host that takes 50 ms to get there adds nothing to
// the timing; timed with the host's time in the window (the timing as it was before the hold), the
// same work reads the 50 ms. (The margins leave room for other test processes on the GPU, and for
// a sanitizer, under which the unheld start event fires several ms late: 43-47 ms were read. On a
// GPU time-sliced among about twenty processes the start event itself can wait 50 ms for this
// context's turn, and then reads nothing of the host's time: the fastest of three unheld runs read
// 0.002 ms under racecheck in such a tier, an H200 on 2026-11-29. So the control is the slowest
// unheld run, and the held runs' slowest is held to the bound.)
TEST(Timing, TheHostsTimeToQueueTheWorkIsNotTimed) {
  kl::DeviceBuffer<int> word(1);
  const auto slow_to_queue = memset_after_host_work(word, 50);
  const kl::TimingSummary held = kl::time_device_work(slow_to_queue, 1, 3);
  EXPECT_EQ(held.unheld_runs, 0);
  EXPECT_LT(held.max_ms, 20.0);
  const kl::TimingSummary unheld = kl::time_device_work(slow_to_queue, 1, 3, nullptr, {}, kl::HostTime::included);
  EXPECT_EQ(unheld.unheld_runs, 0);
  EXPECT_GE(unheld.max_ms, 30.0);
}

// A host slower to queue than the hold's 200 ms budget: the start event fires when the hold gives
// way, part-way through, so that reading would be short by the budget (about 100 ms here). The run
// is timed again without the hold, and reads the host's 300 ms (less the few ms a sanitizer may
// start the clock late).
TEST(Timing, ARunTheHoldGaveWayOnIsTimedAgainWithTheHostsTime) {
  kl::DeviceBuffer<int> word(1);
  const kl::TimingSummary t = kl::time_device_work(memset_after_host_work(word, 300), 0, 1);
  EXPECT_EQ(t.repetitions, 1);
  EXPECT_EQ(t.unheld_runs, 1);
  EXPECT_GE(t.min_ms, 250.0);
}

// Work that waits for the GPU itself cannot be queued behind a held GPU: the hold gives way at its
// budget instead of deadlocking, the runs after it are not held, and the timing counts them all.
TEST(Timing, AHoldGivesWayToWorkThatWaitsForTheGpu) {
  kl::DeviceBuffer<int> word(1);
  const kl::TimingSummary t = kl::time_device_work(
      [&](cudaStream_t s) {
        KL_CUDA_CHECK(cudaMemsetAsync(word.data(), 0, sizeof(int), s));
        KL_CUDA_CHECK(cudaStreamSynchronize(s));
      },
      0, 3);
  EXPECT_EQ(t.repetitions, 3);
  EXPECT_EQ(t.unheld_runs, 3);
}

TEST(DeviceFacts, DescribeARealGpu) {
  const kl::DeviceFacts f = kl::device_facts();
  EXPECT_GT(f.sm_count, 0);
  EXPECT_EQ(f.max_threads_per_block, 1024);
  EXPECT_GE(f.cc_major, 7) << "the lab's lessons assume independent thread scheduling (sm_70+)";
  EXPECT_FALSE(f.name.empty());
}

// A tiny kernel is limited only by threads and blocks per SM, so the occupancy API's capacity
// must equal that arithmetic (on an H100: 2 blocks of 1024 threads x 132 SMs = 264).
TEST(DeviceFacts, CoResidentCapacityMatchesThreadLimits) {
  const kl::DeviceFacts f = kl::device_facts();
  for (int threads : {32, 256, 1024}) {
    const int per_sm = std::min(f.max_threads_per_sm / threads, f.max_blocks_per_sm);
    EXPECT_EQ(kl::co_resident_capacity(kl::watchdog_selftest_kernel(), threads), per_sm * f.sm_count)
        << threads << " threads per block";
  }
}

using kl::test::ScopedEnv;

// KL_DEVICE_CC lowers the compute capability the device facts report (never raises it); a kernel
// built for a later architecture than the one reported answers that it does not load; malformed
// or higher values are refused naming the variable.
TEST(DeviceFacts, CapabilityOverrideLowersWhatIsReported) {
  const kl::DeviceFacts real = [] {
    ScopedEnv none("KL_DEVICE_CC", nullptr);
    return kl::device_facts();
  }();
  {
    ScopedEnv lower("KL_DEVICE_CC", "7.0");
    const kl::DeviceFacts f = kl::device_facts();
    EXPECT_EQ(f.cc_major, 7);
    EXPECT_EQ(f.cc_minor, 0);
    EXPECT_EQ(f.name, real.name);
    EXPECT_EQ(f.sm_count, real.sm_count);
    EXPECT_EQ(kl::capability_override(), (std::optional<std::pair<int, int>>{{7, 0}}));
  }
  {
    ScopedEnv same("KL_DEVICE_CC", (std::to_string(real.cc_major) + "." + std::to_string(real.cc_minor)).c_str());
    EXPECT_EQ(kl::device_facts().cc_major, real.cc_major);
  }
  for (const char* bad : {"8", "eight", "8.0.1", "0.9", " 8.0"}) {
    ScopedEnv malformed("KL_DEVICE_CC", bad);
    try {
      kl::device_facts();
      ADD_FAILURE() << "KL_DEVICE_CC='" << bad << "' was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("KL_DEVICE_CC must be a compute capability such as 8.0"), std::string::npos)
          << e.what();
    }
  }
  ScopedEnv higher("KL_DEVICE_CC", "99.9");
  try {
    kl::device_facts();
    ADD_FAILURE() << "a capability above the GPU's was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("the override can only lower it"), std::string::npos) << e.what();
  }
}
